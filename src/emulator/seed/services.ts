/**
 * The services of the demo and the site furniture they refer to (docs/architecture.md "The emulator"): per site 3
 * business locations with geocodes, 6 categories, 3 booking policies, 2 booking forms and, for the default site,
 * `counts.services` services of all three types, given the staff members the staff step made. Classes and courses
 * keep a weekly timetable on the site's clock (catalog.ts `weekly`), and what the examples book (catalog.ts
 * `KEPT_FREE`) keeps the standard policy and the main studio. The services family's seed step.
 */
import type { SeedStep } from '../family.js';
import { addLocalWeeks, atLocalTime, localDays, weekdayOf } from '../bookings/time.js';
import { type BookingPolicyDoc, catalogOf, type Catalog } from '../services/model.js';
import { withPolicyDefaults } from '../services/policy-rules.js';
import { buildService, formatMoney } from '../services/rules.js';
import type { StaffMemberDoc } from '../staff/model.js';
import type { Store } from '../store/store.js';
import { BUSINESS_LOCATIONS as LOCATION_DATA, CATEGORIES as CATEGORY_NAMES, FORMS, KEPT_FREE, POLICIES, QUALIFIERS, SERVICE_TEMPLATES, STAFF, type ServiceTemplate, type TimetableDay } from './catalog.js';
import { DAY, DEMO_ZONE, furnishedAt, HOUR, iso, media, MINUTE } from './shared.js';

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

/** The catalog of one site, for seeding (`now` and ids come from the seed). */
function siteCatalog(store: Store, site: string, now: string, newId: () => string): Catalog {
  return catalogOf({ db: (def) => store.collection(def).at(site), now }, newId);
}

/** Seeds the furniture of `step.site` and, on the default site, its services. */
export function seedServices(step: SeedStep): void {
  const { store, site, rnd, base } = step;
  const size = step.counts.services;
  const furnished = furnishedAt(base);
  const cat = siteCatalog(store, site, furnished, () => rnd.uuid());
  const staff = (step.made.get('staffMembers') ?? []) as StaffMemberDoc[];
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
  const categories = CATEGORY_NAMES.map((name, i) => cat.categories.insert({ id: rnd.uuid(), name, sortOrder: i, createdDate: furnished }));
  // Each seed policy as a client would create it: the rules it sets, every other field at the SDK's default.
  const policies = POLICIES.map((p) =>
    cat.policies.insert({
      id: rnd.uuid(),
      name: p.name,
      default: p.default,
      createdDate: furnished,
      ...withPolicyDefaults({
        customPolicyDescription: { enabled: true, description: p.description },
        limitEarlyBookingPolicy: { enabled: true, earliestBookingInMinutes: p.earliest },
        limitLateBookingPolicy: p.latest > 0 ? { enabled: true, latestBookingInMinutes: p.latest } : { enabled: false },
        bookAfterStartPolicy: { enabled: false },
        cancellationPolicy: { enabled: true, limitLatestCancellation: true, latestCancellationInMinutes: p.cancellation },
        reschedulePolicy: { enabled: true, limitLatestReschedule: true, latestRescheduleInMinutes: p.cancellation },
        waitlistPolicy: p.waitlist > 0 ? { enabled: true, capacity: p.waitlist } : { enabled: false },
        participantsPolicy: { maxParticipantsPerBooking: p.maxParticipants },
      }),
    } as BookingPolicyDoc),
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
}
