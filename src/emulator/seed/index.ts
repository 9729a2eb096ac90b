/**
 * Deterministic demo data (docs/architecture.md "The emulator"): per site 3 business locations with geocodes,
 * 8 staff members with images, 6 categories, 3 booking policies, 2 booking forms and, for the default site,
 * `size` services of all three types. The same size always produces the same ids, names and prices (seeded
 * PRNG). Classes and courses keep a weekly timetable on the site's clock (catalog.ts `weekly`: a weekday and a
 * time) whatever the hour the seed runs; every other timestamp is an offset from the hour the seed ran (the
 * emulator clock's time), so the data is deterministic relative to when it was seeded, and what the examples
 * book (catalog.ts `KEPT_FREE`) is open on every seed. `empty` keeps the site furniture and creates no services.
 * Runs in one transaction: 10,000 services take a second or two.
 */
import type { AdminKey } from '../auth.js';
import { catalogOf, type Catalog, STAFF_MEMBERS } from '../services/model.js';
import { buildService, formatMoney } from '../services/rules.js';
import type { Store } from '../store/store.js';
import { BUSINESS_LOCATIONS as LOCATION_DATA, CATEGORIES as CATEGORY_NAMES, FORMS, KEPT_FREE, POLICIES, QUALIFIERS, SERVICE_TEMPLATES, STAFF, type ServiceTemplate, type TimetableDay } from './catalog.js';
import { addLocalWeeks, atLocalTime, localDays, weekdayOf } from '../bookings/time.js';
import { calendarOf } from '../bookings/model.js';
import { DEFAULT_SEED_BOOKINGS, seedBookings, seedWorkingHours } from './bookings.js';
import { Prng } from './random.js';
import { DEFAULT_SEED_MEMBERS, MAX_SEED_MEMBERS, seedMembers } from './members.js';
import { seedPlansAndOrders } from './orders.js';

export const DEFAULT_SEED_SIZE = 60;
const PRNG_SEED = 20250106;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export interface SeedOptions {
  seed?: 'demo' | 'empty';
  /** Services in the demo seed (default 60). */
  size?: number;
  /** Bookings in the demo seed (default 500), over the 30 days either side of the seed hour. */
  bookings?: number;
  /** Staff members per site (default 8, at least 8): more spread the appointment services over more people. */
  staff?: number;
  /** Members of the default site (default 300, at most 1,000,000): every status, see seed/members.ts. */
  members?: number;
}

/** Most bookings and staff members a seed may ask for. */
export const MAX_SEED_BOOKINGS = 100_000;
export const MAX_SEED_STAFF = 200;

const iso = (ms: number) => new Date(ms).toISOString();
const media = (id: string, slug: string, altText: string) => ({
  image: { id, url: `https://static.example.com/media/${slug}.jpg`, height: 800, width: 1200, altText },
});

/** The demo site's zone: every business location's, so the timetable's wall-clock times are read in it. */
export const DEMO_ZONE = 'America/Los_Angeles';
const DAY_NAMES: readonly TimetableDay[] = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'];

/**
 * The weekly sessions of a class or course template (none for appointments), on the site's clock: the template's
 * weekday and time, moved two days on for each further round of names (`Morning Vinyasa Flow Yoga`). A class has
 * run every week for a year before the seed hour and goes on; a course has its `weeks` sessions from the week
 * `startsInWeeks` (plus one per round) after the seed's. Only the weeks move with the seed hour, never the day or
 * the time, so the timetable is the same whenever the data was seeded.
 * @returns the first session's start and, for a course, the last one's end (epoch ms)
 */
function timetableOf(t: ServiceTemplate, round: number, base: number): { first: number; lastEnd?: number } | undefined {
  if (!t.weekly) return undefined;
  const day = DAY_NAMES[(DAY_NAMES.indexOf(t.weekly.day) + 2 * round) % 7]!;
  if (t.type !== 'COURSE' || !t.course) return { first: nextWeekly(base - 53 * 7 * DAY, day, t.weekly.at) };
  const first = nextWeekly(base + (t.course.startsInWeeks + round) * 7 * DAY, day, t.weekly.at);
  return { first, lastEnd: addLocalWeeks(first, t.course.weeks - 1, DEMO_ZONE) + t.minutes * MINUTE };
}

/** The first `day` at `at` (site's clock) at or after `from` (epoch ms). */
function nextWeekly(from: number, day: TimetableDay, at: string): number {
  for (const midnight of localDays(from, from + 8 * DAY, DEMO_ZONE)) {
    if (weekdayOf(midnight + 12 * HOUR, DEMO_ZONE) !== day) continue;
    const start = atLocalTime(midnight + 12 * HOUR, at, DEMO_ZONE);
    if (start >= from) return start;
  }
  throw new Error(`no ${day} ${at} in the week after ${iso(from)}`);
}

/**
 * Seeds every site of the account: the furniture on each, the demo services on the default site. Meta `seed`,
 * `seedSize` and `seededAt` record what was seeded. The store's data must be empty.
 * @throws Error when size is not an integer between 0 and 100,000.
 */
export function seedStore(store: Store, key: AdminKey, opts: SeedOptions = {}): void {
  const kind = opts.seed ?? 'demo';
  const size = kind === 'empty' ? 0 : (opts.size ?? DEFAULT_SEED_SIZE);
  if (!Number.isInteger(size) || size < 0 || size > 100_000) throw new Error(`seed size must be an integer between 0 and 100000, got ${size}`);
  const bookings = kind === 'empty' ? 0 : (opts.bookings ?? DEFAULT_SEED_BOOKINGS);
  if (!Number.isInteger(bookings) || bookings < 0 || bookings > MAX_SEED_BOOKINGS) throw new Error(`seed bookings must be an integer between 0 and ${MAX_SEED_BOOKINGS}, got ${bookings}`);
  const staff = Math.max(STAFF.length, opts.staff ?? STAFF.length);
  if (!Number.isInteger(staff) || staff > MAX_SEED_STAFF) throw new Error(`seed staff must be an integer between ${STAFF.length} and ${MAX_SEED_STAFF}, got ${opts.staff}`);
  const members = kind === 'empty' ? 0 : (opts.members ?? DEFAULT_SEED_MEMBERS);
  if (!Number.isInteger(members) || members < 0 || members > MAX_SEED_MEMBERS) throw new Error(`seed members must be an integer between 0 and ${MAX_SEED_MEMBERS}, got ${members}`);
  store.withoutEvents(() => store.tx(() => {
    const base = Math.floor(store.clock.nowMs() / HOUR) * HOUR;
    if (!store.hasSite(key.siteId)) store.addSite({ id: key.siteId, name: key.sites.find((s) => s.id === key.siteId)?.name ?? 'Downtown' });
    for (const site of store.sites()) {
      const main = site.id === key.siteId;
      seedSite(store, site.id, base, { size: main ? size : 0, bookings: main ? bookings : 0, staff, actor: key.accountId, prngSeed: main ? PRNG_SEED : siteSeed(site.id) });
      if (main) seedMembers(store, site.id, base, members);
      if (main && kind === 'demo') seedPlansAndOrders(store, site.id, base);
    }
    store.setMeta('seed', kind);
    store.setMeta('seedSize', String(size));
    store.setMeta('seedBookings', String(bookings));
    store.setMeta('seedStaff', String(staff));
    store.setMeta('seedMembers', String(members));
    store.setMeta('seededAt', iso(base));
  }));
}

/** The catalog of one site, for seeding (`now` and ids come from the seed). */
function siteCatalog(store: Store, site: string, now: string, newId: () => string): Catalog {
  return catalogOf({ db: (def) => store.collection(def).at(site), now }, newId);
}

/**
 * The PRNG seed of a site other than the default one: derived from its id, so every site's furniture has the
 * same names but its own ids (as separate sites of one account have on the platform).
 */
function siteSeed(siteId: string): number {
  let h = PRNG_SEED;
  for (let i = 0; i < siteId.length; i++) h = (Math.imul(h, 31) + siteId.charCodeAt(i)) >>> 0;
  return h;
}

/**
 * Furnishes a site added to a seeded account (locations, staff, categories, policies, forms; no services),
 * stamped from the seed hour of the account. Unlike a reseed (the starting state: the event log starts empty),
 * adding a site is a change to a running account, so each of its staff members is recorded as `staff.created`
 * (docs/bookings.md "Statuses" lists staff events), with the staff member as the staff members query shows it.
 */
export function furnishSite(store: Store, key: AdminKey, siteId: string): void {
  const base = Date.parse(store.getMeta('seededAt') ?? new Date(Math.floor(store.clock.nowMs() / HOUR) * HOUR).toISOString());
  const staff = Number(store.getMeta('seedStaff') ?? STAFF.length);
  store.tx(() => {
    store.withoutEvents(() => seedSite(store, siteId, base, { size: 0, bookings: 0, staff, actor: key.accountId, prngSeed: siteSeed(siteId) }));
    for (const { workingHours: _hours, timeOff: _off, ...member } of store.collection(STAFF_MEMBERS).at(siteId).all()) {
      store.appendEvent(siteId, 'staff.created', member.id, JSON.stringify(member));
    }
  });
}

function seedSite(store: Store, site: string, base: number, opts: { size: number; bookings: number; staff: number; actor: string; prngSeed: number }): void {
  const size = opts.size;
  const rnd = new Prng(opts.prngSeed);
  const furnished = iso(base - 180 * DAY);
  const cat = siteCatalog(store, site, furnished, () => rnd.uuid());
  const locations = LOCATION_DATA.map((l) => {
    const address = {
      formatted: `${l.street.number} ${l.street.name}, ${l.city}, CA ${l.postalCode}, USA`,
      streetAddress: { ...l.street },
      city: l.city,
      subdivision: 'US-CA',
      country: 'US',
      postalCode: l.postalCode,
      geocode: { ...l.geocode },
    };
    return cat.locations.insert({
      id: rnd.uuid(),
      name: l.name,
      default: l.default,
      status: 'ACTIVE',
      address,
      phone: l.phone,
      email: `${l.name.toLowerCase().replace(/[^a-z]+/g, '.')}@demo-studio.example.com`,
      timeZone: DEMO_ZONE,
      createdDate: furnished,
    });
  });
  const people = Array.from({ length: opts.staff }, (_, i) => {
    const s = STAFF[i % STAFF.length]!;
    const round = Math.floor(i / STAFF.length);
    return round === 0 ? s : { name: `${s.name.split(' ')[0]} ${s.name.split(' ')[1]![0]}. ${round + 1}`.replace(/\. (\d+)$/, '. $1'), role: s.role };
  });
  const staff = people.map((s, i) => {
    const handle = s.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    return cat.staff.insert({
      id: rnd.uuid(),
      name: s.name,
      description: s.role,
      email: `${handle.replace(/-/g, '.')}@demo-studio.example.com`,
      phone: `+1 415 555 01${String(30 + i)}`,
      mainMedia: media(rnd.uuid(), `staff/${handle}`, s.name),
      resourceId: rnd.uuid(),
      workingHours: seedWorkingHours(i),
      ...(i === 2 ? { timeOff: [{ startDate: iso(base + 9 * DAY), endDate: iso(base + 12 * DAY), reason: 'Vacation' }] } : {}),
      createdDate: furnished,
    });
  });
  const categories = CATEGORY_NAMES.map((name, i) => cat.categories.insert({ id: rnd.uuid(), name, sortOrder: i, createdDate: furnished }));
  const policies = POLICIES.map((p) =>
    cat.policies.insert({
      id: rnd.uuid(),
      name: p.name,
      default: p.default,
      createdDate: furnished,
      customPolicyDescription: { enabled: true, description: p.description },
      limitEarlyBookingPolicy: { enabled: true, earliestBookingInMinutes: p.earliest },
      limitLateBookingPolicy: { enabled: p.latest > 0, latestBookingInMinutes: p.latest },
      bookAfterStartPolicy: { enabled: false },
      cancellationPolicy: { enabled: true, limitLatestCancellation: true, latestCancellationInMinutes: p.cancellation },
      reschedulePolicy: { enabled: true, limitLatestReschedule: true, latestRescheduleInMinutes: p.cancellation },
      waitlistPolicy: { enabled: p.waitlist > 0, capacity: p.waitlist, reservationTimeInMinutes: 10 },
      participantsPolicy: { enabled: true, maxParticipantsPerBooking: p.maxParticipants },
    }),
  );
  const forms = FORMS.map((f) =>
    cat.forms.insert({
      id: rnd.uuid(),
      name: f.name,
      default: f.default,
      fields: f.fields.map((x) => ({ id: rnd.uuid(), ...x })),
      createdDate: furnished,
    }),
  );
  // Creation times spread over the 120 days before the seed hour, in creation order.
  const spacing = Math.min(37 * MINUTE, Math.floor((120 * DAY) / Math.max(1, size)));
  for (let i = 0; i < size; i++) {
    const t = SERVICE_TEMPLATES[i % SERVICE_TEMPLATES.length]!;
    const round = Math.floor(i / SERVICE_TEMPLATES.length);
    const word = round === 0 ? '' : QUALIFIERS[(round - 1) % QUALIFIERS.length]!;
    // "Morning Gentle Morning Yoga" reads badly; a word no template or qualifier uses keeps names unique.
    const qualifier = word === '' ? '' : (t.name.split(' ').includes(word) ? 'Signature' : word) + ' ';
    const edition = round > QUALIFIERS.length ? ` ${Math.floor((round - 1) / QUALIFIERS.length) + 1}` : '';
    const name = `${qualifier}${t.name}${edition}`;
    const created = base - 120 * DAY + i * spacing;
    const rate = t.rate ?? 'FIXED';
    const price = rate === 'FIXED' || rate === 'VARIED' ? String(rnd.int(t.price[0], t.price[1])) : '0';
    const kept = KEPT_FREE.some((k) => k.service === name);
    // What the examples book is all at the main studio, so a chain of them (msb create) has one place to be at.
    const sampled = rnd.sample(locations, rnd.int(1, 2));
    const chosenLocations = kept ? [locations.find((l) => l.default)!] : sampled;
    const sessions = timetableOf(t, round, base);
    const slugHint = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    const imageId = rnd.uuid();
    const input: Record<string, unknown> = {
      name,
      type: t.type,
      description: t.description,
      tagLine: `${t.minutes} min · ${CATEGORY_NAMES[t.category]}`,
      hidden: rnd.next() < 0.05,
      defaultCapacity: t.capacity ? rnd.int(t.capacity[0], t.capacity[1]) : 1,
      category: { id: categories[t.category]!.id },
      form: { id: forms[t.form ?? 0]!.id },
      // What the examples book keeps the standard policy: bookable from an hour ahead, whatever the day.
      bookingPolicy: { id: policies[kept ? (rnd.next(), 0) : rnd.next() < 0.7 ? 0 : rnd.int(1, 2)]!.id },
      // Staff beyond the first eight (a larger `staff` seed) join the appointment services, round robin.
      staffMemberIds: [...t.staff.map((s) => staff[s]!.id), ...(t.type === 'APPOINTMENT' ? staff.slice(STAFF.length).filter((_, k) => k % 4 === i % 4).map((m) => m.id) : [])],
      locations: chosenLocations.map((l) => ({ type: 'BUSINESS', business: { id: l.id } })),
      payment: {
        rateType: rate,
        ...(rate === 'FIXED' ? { fixed: { price: { value: price, currency: 'USD' } } } : {}),
        ...(rate === 'VARIED' ? { varied: { defaultPrice: { value: price, currency: 'USD', formattedValue: formatMoney(price, 'USD') }, minPrice: { value: price, currency: 'USD' } } } : {}),
        ...(rate === 'CUSTOM' ? { custom: { description: 'Price on consultation' } } : {}),
        options: { online: rate !== 'NO_FEE' && rnd.next() < 0.8, inPerson: true, deposit: false, pricingPlan: false },
        pricingPlanIds: [],
      },
      onlineBooking: { enabled: rnd.next() < 0.9, requireManualApproval: t.type === 'APPOINTMENT' && rnd.next() < 0.15, allowMultipleRequests: false },
      media: {
        mainMedia: media(imageId, `services/${slugHint}`, name),
        coverMedia: media(rnd.uuid(), `services/${slugHint}-cover`, name),
        items: [media(imageId, `services/${slugHint}`, name)],
      },
      schedule: {
        ...(sessions ? { firstSessionStart: iso(sessions.first) } : {}),
        ...(sessions?.lastEnd !== undefined ? { lastSessionEnd: iso(sessions.lastEnd) } : {}),
        availabilityConstraints: { durations: [{ minutes: t.minutes }], sessionDurations: [t.minutes], timeBetweenSessions: t.type === 'APPOINTMENT' ? 15 : 0 },
      },
    };
    const at = siteCatalog(store, site, iso(created), () => rnd.uuid());
    const doc = buildService(at, input);
    at.services.insert({ ...doc, createdDate: iso(created), updatedDate: iso(created) });
  }
  if (opts.bookings > 0) {
    const cal = calendarOf({ db: (def) => store.collection(def).at(site), now: iso(base), principal: { accountId: opts.actor } }, () => rnd.uuid());
    seedBookings(cal, rnd, base, opts.bookings);
  }
}
