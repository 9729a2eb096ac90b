/**
 * Deterministic demo data (docs/architecture.md "The emulator"), made by each family's seed step (family.ts
 * `EmulatedFamily.seed`) in the order of the family list, site by site: the staff members (seed/staff.ts), the
 * services and their furniture (seed/services.ts), the bookings (seed/bookings.ts), the members
 * (seed/members.ts), the plans and orders (seed/orders.ts). One random sequence per site, shared by the steps in
 * that order, so the same options always give the same ids, names and prices. Classes and courses keep a weekly
 * timetable on the site's clock (catalog.ts `weekly`) whatever the hour the seed runs; every other timestamp is an
 * offset from the hour the seed ran (the emulator clock's time), so the data is deterministic relative to when it
 * was seeded, and what the examples book (catalog.ts `KEPT_FREE`) is open on every seed. `empty` keeps the site
 * furniture and creates no services. Runs in one transaction: 10,000 services take a second or two.
 */
import type { AdminKey } from '../auth.js';
import type { EmulatedFamily, SeedStep } from '../family.js';
import { STAFF_MEMBERS } from '../staff/model.js';
import type { Store } from '../store/store.js';
import { DEFAULT_SEED_BOOKINGS, MAX_WINDOW_DAYS } from './bookings.js';
import { STAFF } from './catalog.js';
import { DEFAULT_SEED_MEMBERS, MAX_SEED_MEMBERS } from './members.js';
import { Prng } from './random.js';
import { HOUR, iso } from './shared.js';

export const DEFAULT_SEED_SIZE = 60;
const PRNG_SEED = 20250106;

export interface SeedOptions {
  seed?: 'demo' | 'empty';
  /** Services in the demo seed (default 60). */
  size?: number;
  /** Bookings in the demo seed (default 500), over `window` days either side of the seed hour. */
  bookings?: number;
  /**
   * Days either side of the seed hour the bookings cover, 1-365; 0 or none: 30, widened for counts a month cannot
   * hold (35 a day, up to 365).
   */
  window?: number;
  /** Also fill the next 7 days: 90 % of the staff's appointment time booked, every class session full. */
  busyWeek?: boolean;
  /** Staff members per site (default 8, at least 8): more spread the appointment services over more people. */
  staff?: number;
  /** Members of the default site (default 300, at most 1,000,000): every status, see seed/members.ts. */
  members?: number;
}

/** Most bookings and staff members a seed may ask for. */
export const MAX_SEED_BOOKINGS = 100_000;
export const MAX_SEED_STAFF = 200;
export { MAX_WINDOW_DAYS } from './bookings.js';

/** Runs every family's seed step on one site, in the order of the list. */
function seedSite(families: readonly EmulatedFamily[], step: Omit<SeedStep, 'made'>): void {
  const made = new Map();
  for (const family of families) {
    if (typeof family.seed !== 'function') continue;
    family.seed({ ...step, made });
    if (step.main && step.progress) step.progress(`${family.name} seeded`);
  }
}

/**
 * Seeds every site of the account with the steps of `families`: the furniture on each, the demo services,
 * bookings, members, plans and orders on the default site, in one transaction (a failure leaves nothing of it).
 * Meta `seed`, `seedSize`, `seedBookings`, `seedWindow`, `seedBusyWeek`, `seedStaff`, `seedMembers` and
 * `seededAt` record what was seeded. The store's data must be empty. `progress` is told how it goes, a line at a
 * time (each family's step on the default site, every tenth of a large bookings count, the busy week).
 * @throws Error when size, bookings, window, staff or members is out of range.
 */
export function seedStore(store: Store, key: AdminKey, families: readonly EmulatedFamily[], opts: SeedOptions = {}, progress?: (line: string) => void): void {
  const kind = opts.seed ?? 'demo';
  const size = kind === 'empty' ? 0 : (opts.size ?? DEFAULT_SEED_SIZE);
  if (!Number.isInteger(size) || size < 0 || size > 100_000) throw new Error(`seed size must be an integer between 0 and 100000, got ${size}`);
  const bookings = kind === 'empty' ? 0 : (opts.bookings ?? DEFAULT_SEED_BOOKINGS);
  if (!Number.isInteger(bookings) || bookings < 0 || bookings > MAX_SEED_BOOKINGS) throw new Error(`seed bookings must be an integer between 0 and ${MAX_SEED_BOOKINGS}, got ${bookings}`);
  const staff = Math.max(STAFF.length, opts.staff ?? STAFF.length);
  if (!Number.isInteger(staff) || staff > MAX_SEED_STAFF) throw new Error(`seed staff must be an integer between ${STAFF.length} and ${MAX_SEED_STAFF}, got ${opts.staff}`);
  const members = kind === 'empty' ? 0 : (opts.members ?? DEFAULT_SEED_MEMBERS);
  if (!Number.isInteger(members) || members < 0 || members > MAX_SEED_MEMBERS) throw new Error(`seed members must be an integer between 0 and ${MAX_SEED_MEMBERS}, got ${members}`);
  const window = opts.window ?? 0;
  if (!Number.isInteger(window) || window < 0 || window > MAX_WINDOW_DAYS) throw new Error(`seed window must be an integer between 1 and ${MAX_WINDOW_DAYS} days, got ${window}`);
  const busyWeek = kind === 'demo' && Boolean(opts.busyWeek);
  store.withoutEvents(() => store.tx(() => {
    const base = Math.floor(store.clock.nowMs() / HOUR) * HOUR;
    if (!store.hasSite(key.siteId)) store.addSite({ id: key.siteId, name: key.sites.find((s) => s.id === key.siteId)?.name ?? 'Downtown' });
    for (const site of store.sites()) {
      const main = site.id === key.siteId;
      const counts = { services: main ? size : 0, bookings: main ? bookings : 0, staff, members: main ? members : 0 };
      const bookingsAt = { windowDays: window || undefined, busyWeek: main && busyWeek };
      seedSite(families, { store, site: site.id, main, kind, base, counts, actor: key.accountId, rnd: new Prng(main ? PRNG_SEED : siteSeed(site.id)), bookings: bookingsAt, progress });
    }
    store.setMeta('seed', kind);
    store.setMeta('seedSize', String(size));
    store.setMeta('seedBookings', String(bookings));
    store.setMeta('seedWindow', String(window));
    store.setMeta('seedBusyWeek', busyWeek ? '1' : '0');
    store.setMeta('seedStaff', String(staff));
    store.setMeta('seedMembers', String(members));
    store.setMeta('seededAt', iso(base));
  }));
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
export function furnishSite(store: Store, key: AdminKey, siteId: string, families: readonly EmulatedFamily[]): void {
  const base = Date.parse(store.getMeta('seededAt') ?? new Date(Math.floor(store.clock.nowMs() / HOUR) * HOUR).toISOString());
  const staff = Number(store.getMeta('seedStaff') ?? STAFF.length);
  store.tx(() => {
    const counts = { services: 0, bookings: 0, staff, members: 0 };
    store.withoutEvents(() => seedSite(families, { store, site: siteId, main: false, kind: 'demo', base, counts, actor: key.accountId, rnd: new Prng(siteSeed(siteId)) }));
    for (const { workingHours: _hours, timeOff: _off, ...member } of store.collection(STAFF_MEMBERS).at(siteId).all()) {
      store.appendEvent(siteId, 'staff.created', member.id, JSON.stringify(member));
    }
  });
}
