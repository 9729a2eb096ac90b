/**
 * Fixed demo content: a small wellness-and-crafts studio in the San Francisco Bay Area. Everything the seed
 * draws from lives here so the generator stays short.
 */

export const BUSINESS_LOCATIONS = [
  {
    name: 'Downtown Studio',
    default: true,
    street: { number: '120', name: 'Market Street' },
    city: 'San Francisco',
    postalCode: '94105',
    geocode: { latitude: 37.7936, longitude: -122.3958 },
    phone: '+1 415 555 0120',
  },
  {
    name: 'Mission Wellness Loft',
    default: false,
    street: { number: '2150', name: 'Valencia Street' },
    city: 'San Francisco',
    postalCode: '94110',
    geocode: { latitude: 37.7571, longitude: -122.421 },
    phone: '+1 415 555 0188',
  },
  {
    name: 'Oakland Lakeside',
    default: false,
    street: { number: '400', name: 'Grand Avenue' },
    city: 'Oakland',
    postalCode: '94610',
    geocode: { latitude: 37.8106, longitude: -122.2596 },
    phone: '+1 510 555 0400',
  },
] as const;

export const STAFF = [
  { name: 'Maya Chen', role: 'Yoga teacher' },
  { name: 'Luis Ortega', role: 'Senior stylist' },
  { name: 'Priya Raman', role: 'Massage therapist' },
  { name: 'Tom Becker', role: 'Strength coach' },
  { name: 'Aiko Tanaka', role: 'Ceramic artist' },
  { name: 'Grace Okafor', role: 'Nutritionist' },
  { name: 'Sam Rivera', role: 'Pilates instructor' },
  { name: 'Elena Petrova', role: 'Esthetician' },
] as const;

export const CATEGORIES = [
  'Yoga & Mindfulness',
  'Hair & Beauty',
  'Massage & Bodywork',
  'Fitness',
  'Arts & Crafts',
  'Wellness Consultations',
] as const;

export const POLICIES = [
  {
    name: 'Standard policy',
    default: true,
    earliest: 43_200,
    latest: 60,
    cancellation: 1_440,
    waitlist: 5,
    maxParticipants: 4,
    description: 'Book up to 30 days ahead; cancel free of charge until 24 hours before the session.',
  },
  {
    name: 'Flexible policy',
    default: false,
    earliest: 86_400,
    latest: 0,
    cancellation: 120,
    waitlist: 10,
    maxParticipants: 6,
    description: 'Book any time up to the start; cancel until 2 hours before.',
  },
  {
    name: 'Strict policy',
    default: false,
    earliest: 20_160,
    latest: 1_440,
    cancellation: 2_880,
    waitlist: 0,
    maxParticipants: 1,
    description: 'Book at least a day ahead; cancellations within 48 hours are charged.',
  },
] as const;

export const FORMS = [
  {
    name: 'Booking form',
    default: true,
    fields: [
      { label: 'First name', valueType: 'SHORT_TEXT', required: true },
      { label: 'Last name', valueType: 'SHORT_TEXT', required: true },
      { label: 'Email', valueType: 'SHORT_TEXT', required: true },
      { label: 'Phone', valueType: 'SHORT_TEXT', required: false },
      { label: 'Message', valueType: 'LONG_TEXT', required: false },
    ],
  },
  {
    name: 'Health questionnaire',
    default: false,
    fields: [
      { label: 'Full name', valueType: 'SHORT_TEXT', required: true },
      { label: 'Injuries or conditions we should know about', valueType: 'LONG_TEXT', required: false },
      { label: 'I confirm I am fit to take part', valueType: 'CHECK_BOX', required: true },
    ],
  },
] as const;

type Rate = 'FIXED' | 'VARIED' | 'CUSTOM' | 'NO_FEE';

/** A weekday as the timetable names it (the platform's working-hours days). */
export type TimetableDay = 'MON' | 'TUE' | 'WED' | 'THU' | 'FRI' | 'SAT' | 'SUN';

export interface ServiceTemplate {
  name: string;
  type: 'APPOINTMENT' | 'CLASS' | 'COURSE';
  category: number;
  minutes: number;
  price: [number, number];
  rate?: Rate;
  capacity?: [number, number];
  staff: number[];
  description: string;
  form?: number;
  /**
   * Classes and courses: the weekly session, on the site's clock (`day` at `at`), whatever the hour the data is
   * seeded, so the studio's timetable is the same every week and an example can name a session by its weekday.
   */
  weekly?: { day: TimetableDay; at: string };
  /** Courses: how many weekly sessions, and the week of the first one from the seed's week (negative: running). */
  course?: { weeks: number; startsInWeeks: number };
}

export const SERVICE_TEMPLATES: ServiceTemplate[] = [
  { name: 'Vinyasa Flow Yoga', type: 'CLASS', category: 0, minutes: 60, price: [18, 25], capacity: [10, 20], staff: [0, 6], weekly: { day: 'TUE', at: '18:00' }, description: 'A dynamic, breath-led flow for all levels.' },
  { name: 'Gentle Morning Yoga', type: 'CLASS', category: 0, minutes: 45, price: [15, 20], capacity: [8, 16], staff: [0], weekly: { day: 'MON', at: '07:30' }, description: 'Slow stretches and breathing to start the day.' },
  { name: 'Hot Yoga', type: 'CLASS', category: 0, minutes: 75, price: [22, 28], capacity: [12, 24], staff: [0, 6], weekly: { day: 'THU', at: '19:00' }, description: 'Classic sequence in a heated room. Bring water.' },
  { name: 'Guided Meditation', type: 'CLASS', category: 0, minutes: 30, price: [10, 12], capacity: [10, 30], staff: [0, 5], weekly: { day: 'WED', at: '12:30' }, description: 'Mindfulness practice for a calmer week.' },
  { name: 'Private Yoga Session', type: 'APPOINTMENT', category: 0, minutes: 60, price: [80, 110], staff: [0, 6], description: 'One-to-one session tailored to your goals.' },
  { name: '8-Week Yoga Foundations', type: 'COURSE', category: 0, minutes: 90, price: [180, 240], capacity: [8, 14], staff: [0], weekly: { day: 'MON', at: '19:00' }, course: { weeks: 8, startsInWeeks: 2 }, description: 'Learn the foundations of alignment, breath and sequencing.' },
  { name: "Women's Haircut", type: 'APPOINTMENT', category: 1, minutes: 60, price: [55, 85], staff: [1, 7], description: 'Consultation, wash, cut and blow-dry.' },
  { name: "Men's Haircut", type: 'APPOINTMENT', category: 1, minutes: 30, price: [35, 50], staff: [1], description: 'Classic or modern cut with a hot-towel finish.' },
  { name: 'Color & Highlights', type: 'APPOINTMENT', category: 1, minutes: 120, price: [120, 220], rate: 'VARIED', staff: [1, 7], description: 'Full color, balayage or highlights; price depends on length.' },
  { name: 'Blow-Dry & Style', type: 'APPOINTMENT', category: 1, minutes: 45, price: [40, 55], staff: [1, 7], description: 'Wash and style for a special occasion.' },
  { name: 'Classic Facial', type: 'APPOINTMENT', category: 1, minutes: 60, price: [75, 95], staff: [7], description: 'Deep cleanse, exfoliation and hydrating mask.' },
  { name: 'Bridal Hair Trial', type: 'APPOINTMENT', category: 1, minutes: 90, price: [0, 0], rate: 'CUSTOM', staff: [1, 7], description: 'Trial run for your big day; quote on consultation.' },
  { name: 'Swedish Massage', type: 'APPOINTMENT', category: 2, minutes: 60, price: [90, 120], staff: [2], description: 'Relaxing full-body massage with long, flowing strokes.' },
  { name: 'Deep Tissue Massage', type: 'APPOINTMENT', category: 2, minutes: 90, price: [120, 160], staff: [2], description: 'Firm pressure for chronic tension and knots.' },
  { name: 'Hot Stone Massage', type: 'APPOINTMENT', category: 2, minutes: 75, price: [110, 140], staff: [2], description: 'Warm basalt stones melt away muscle tension.' },
  { name: 'Sports Massage', type: 'APPOINTMENT', category: 2, minutes: 45, price: [70, 95], staff: [2, 3], description: 'Targeted work for recovery and mobility.' },
  { name: 'Couples Massage', type: 'APPOINTMENT', category: 2, minutes: 60, price: [190, 240], staff: [2], description: 'Side-by-side massage in our double suite.', form: 1 },
  { name: 'HIIT Bootcamp', type: 'CLASS', category: 3, minutes: 45, price: [20, 26], capacity: [12, 25], staff: [3], weekly: { day: 'MON', at: '18:00' }, description: 'High-intensity intervals to build strength and stamina.', form: 1 },
  { name: 'Mat Pilates', type: 'CLASS', category: 3, minutes: 50, price: [20, 28], capacity: [8, 15], staff: [6], weekly: { day: 'WED', at: '09:00' }, description: 'Core strength, posture and control.' },
  { name: 'Reformer Pilates', type: 'CLASS', category: 3, minutes: 50, price: [32, 40], capacity: [4, 8], staff: [6], weekly: { day: 'THU', at: '08:00' }, description: 'Small-group class on the reformer.', form: 1 },
  { name: 'Personal Training', type: 'APPOINTMENT', category: 3, minutes: 60, price: [85, 120], staff: [3], description: 'One-to-one coaching with a tailored program.', form: 1 },
  { name: 'Kettlebell Basics', type: 'COURSE', category: 3, minutes: 60, price: [120, 160], capacity: [6, 12], staff: [3], weekly: { day: 'TUE', at: '07:00' }, course: { weeks: 4, startsInWeeks: -2 }, description: 'Four-week course on safe kettlebell technique.', form: 1 },
  { name: 'Wheel Throwing Pottery Course', type: 'COURSE', category: 4, minutes: 120, price: [260, 340], capacity: [6, 10], staff: [4], weekly: { day: 'WED', at: '18:30' }, course: { weeks: 6, startsInWeeks: 3 }, description: 'Six weeks on the wheel: centering, pulling, trimming and glazing.' },
  { name: 'Pottery Taster Class', type: 'CLASS', category: 4, minutes: 90, price: [45, 60], capacity: [6, 12], staff: [4], weekly: { day: 'SAT', at: '11:00' }, description: 'Try the wheel for the first time; clay and firing included.' },
  { name: 'Watercolor for Beginners', type: 'COURSE', category: 4, minutes: 90, price: [150, 190], capacity: [8, 14], staff: [4], weekly: { day: 'THU', at: '18:00' }, course: { weeks: 5, startsInWeeks: 2 }, description: 'Materials, washes and color mixing over five evenings.' },
  { name: 'Hand-Building Ceramics', type: 'CLASS', category: 4, minutes: 120, price: [55, 70], capacity: [6, 10], staff: [4], weekly: { day: 'FRI', at: '17:00' }, description: 'Pinch, coil and slab techniques.' },
  { name: 'Nutrition Consultation', type: 'APPOINTMENT', category: 5, minutes: 60, price: [95, 130], staff: [5], description: 'Personal plan based on your goals and lifestyle.' },
  { name: 'Free Intro Call', type: 'APPOINTMENT', category: 5, minutes: 15, price: [0, 0], rate: 'NO_FEE', staff: [5, 3], description: 'A short call to find the right service for you.' },
  { name: 'Stress Management Workshop', type: 'CLASS', category: 5, minutes: 120, price: [35, 50], capacity: [10, 25], staff: [5, 0], weekly: { day: 'SAT', at: '14:00' }, description: 'Practical tools for sleep, focus and resilience.' },
  { name: 'Holistic Wellness Program', type: 'COURSE', category: 5, minutes: 60, price: [300, 420], capacity: [5, 10], staff: [5], weekly: { day: 'FRI', at: '10:00' }, course: { weeks: 8, startsInWeeks: -4 }, description: 'Eight weekly sessions covering food, movement and rest.' },
];

/**
 * What the seeded bookings leave open, for the examples in the README and in `--help` to book on the demo data
 * whatever the hour it was seeded (they name these by weekday: `--start 'wed 14:15'`): an appointment entry keeps
 * its weekly time (site's clock) free for every staff member of the service, service length and buffer included;
 * a class or course entry keeps {@link KEPT_PLACES} places open in every session. Everything else is booked at
 * random.
 */
export const KEPT_FREE: ReadonlyArray<{ service: string; day?: TimetableDay; at?: string }> = [
  { service: 'Swedish Massage', day: 'WED', at: '14:15' },
  // msb create: a haircut then a blow-dry (another stylist: the first one's buffer runs to 12:30).
  { service: "Women's Haircut", day: 'WED', at: '11:15' },
  { service: 'Blow-Dry & Style', day: 'WED', at: '12:15' },
  // msb create --type parallel: two stylists at once.
  { service: "Men's Haircut", day: 'WED', at: '14:15' },
  { service: 'Color & Highlights', day: 'WED', at: '14:15' },
  { service: 'Vinyasa Flow Yoga' },
  { service: '8-Week Yoga Foundations' },
];
/** Places every session of a {@link KEPT_FREE} class or course keeps open. */
export const KEPT_PLACES = 2;

/** Prefixes used once the templates run out, so large seeds keep realistic, varied names. */
export const QUALIFIERS = [
  'Morning', 'Evening', 'Weekend', 'Express', 'Advanced', 'Intro', 'Lunchtime', 'Sunset', 'Intensive',
  'Community', 'Premium', 'Outdoor', 'Restorative', 'Power', 'Family',
];
