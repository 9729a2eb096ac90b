/**
 * The control plane beside the API (contracts.md "src/emulator"): `POST /__emulator/reset {seed?, size?}`,
 * `GET /__emulator/state`, `GET|PUT /__emulator/faults`, `GET /__emulator/events?after=<seq>&limit=&site=` (the
 * asking site's: its `wix-site-id`, unless `site` names another),
 * `GET|PUT /__emulator/clock`, `GET|POST /__emulator/sites`, `DELETE /__emulator/sites/{id}`, `POST
 * /__emulator/orders/{id}/pay` (orders/payment.ts). Same admin key as
 * the API; never faulted.
 */
import { randomUUID } from 'node:crypto';
import { type AdminKey, writeAdminKey } from './auth.js';
import { ApplicationFailure, ValidationFailure } from './errors.js';
import { DEFAULT_SEED_BOOKINGS } from './seed/bookings.js';
import { DEFAULT_SEED_MEMBERS, MAX_SEED_MEMBERS } from './seed/members.js';
import { DEFAULT_SEED_SIZE, furnishSite, MAX_SEED_BOOKINGS, MAX_SEED_STAFF, MAX_WINDOW_DAYS, seedStore, type SeedOptions } from './seed/index.js';
import type { EmulatedFamily } from './family.js';
import type { Store } from './store/store.js';
import type { Body, ControlHandler, ControlState } from './control-state.js';
import { oauthControlRoutes } from './oauth/control.js';
import { orderControlRoutes } from './orders/payment.js';

const MAX_EVENTS = 1000;
const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * A duration: a number of ms, or text such as `90s`, `15m`, `2h`, `3d`, `1w`, `-1h`.
 * @throws ValidationFailure (field `field`) for anything else
 */
export function parseDuration(value: unknown, field: string): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  const m = typeof value === 'string' ? /^(-?\d+(?:\.\d+)?)(ms|s|m|h|d|w)$/.exec(value.trim()) : null;
  if (!m) throw ValidationFailure.field(field, 'must be a duration such as 90s, 15m, 2h, 3d or 1w (or a number of ms)', 'INVALID');
  return Number(m[1]) * UNITS[m[2]!]!;
}

/**
 * Validates `{seed?, size?, bookings?, window?, busyWeek?, staff?, members?}` of a reset request; what it leaves
 * out is as `dflt` (the last seed) when it names no seed kind or size, else the defaults.
 * @throws ValidationFailure on a bad seed kind, size, bookings count, window, busyWeek, staff or members count
 */
export function seedOptions(body: Body, dflt: SeedOptions): Required<SeedOptions> {
  // A size without a seed kind asks for demo data, even when the store was last seeded empty.
  const seed = body?.seed ?? (body?.size !== undefined ? 'demo' : dflt.seed) ?? 'demo';
  if (seed !== 'demo' && seed !== 'empty') throw ValidationFailure.field('seed', 'must be demo or empty', 'INVALID_ENUM_VALUE');
  const size = body?.size ?? (body?.seed === undefined ? dflt.size : undefined) ?? DEFAULT_SEED_SIZE;
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 0 || size > 100_000) {
    throw ValidationFailure.field('size', 'must be an integer between 0 and 100000', 'INVALID');
  }
  const count = (name: 'bookings' | 'staff' | 'members', dfltValue: number, min: number, max: number): number => {
    const v = body?.[name] ?? (body?.seed === undefined && body?.size === undefined ? dflt[name] : undefined) ?? dfltValue;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw ValidationFailure.field(name, `must be an integer between ${min} and ${max}`, 'INVALID');
    return v;
  };
  const inherit = body?.seed === undefined && body?.size === undefined;
  const busyWeek = body?.busyWeek ?? (inherit ? dflt.busyWeek : undefined) ?? false;
  if (typeof busyWeek !== 'boolean') throw ValidationFailure.field('busyWeek', 'must be true or false', 'INVALID');
  // A window of 0 (the default) lets the seed choose: 30 days, more for large counts.
  const window = body?.window ?? (inherit ? dflt.window : undefined) ?? 0;
  if (typeof window !== 'number' || !Number.isInteger(window) || window < 0 || window > MAX_WINDOW_DAYS) {
    throw ValidationFailure.field('window', `must be a number of days between 1 and ${MAX_WINDOW_DAYS}`, 'INVALID');
  }
  return {
    seed,
    size,
    bookings: count('bookings', DEFAULT_SEED_BOOKINGS, 0, MAX_SEED_BOOKINGS),
    window,
    busyWeek,
    staff: count('staff', 8, 8, MAX_SEED_STAFF),
    members: count('members', DEFAULT_SEED_MEMBERS, 0, MAX_SEED_MEMBERS),
  };
}

/** What the store was seeded with last (the defaults of a reset). */
export function lastSeed(store: Store): SeedOptions {
  return {
    seed: (store.getMeta('seed') as SeedOptions['seed']) ?? 'demo',
    size: Number(store.getMeta('seedSize') ?? DEFAULT_SEED_SIZE),
    bookings: Number(store.getMeta('seedBookings') ?? DEFAULT_SEED_BOOKINGS),
    window: Number(store.getMeta('seedWindow') ?? 0),
    busyWeek: store.getMeta('seedBusyWeek') === '1',
    staff: Number(store.getMeta('seedStaff') ?? 8),
    members: Number(store.getMeta('seedMembers') ?? DEFAULT_SEED_MEMBERS),
  };
}

/** Deletes every site's data and seeds the account again, in one transaction (`progress`: see seedStore). Sites, key and clock are kept. */
export function resetStore(store: Store, key: AdminKey, families: readonly EmulatedFamily[], opts: Required<SeedOptions>, progress?: (line: string) => void): void {
  store.tx(() => {
    store.clearData();
    seedStore(store, key, families, opts, progress);
  });
}

function state(emu: ControlState) {
  const counts = emu.store.counts();
  return {
    url: emu.url(),
    dataDir: emu.dataDir,
    pid: process.pid,
    accountId: emu.key.accountId,
    siteId: emu.key.siteId,
    sites: emu.store.sites().map((s) => ({ ...s, counts: counts.sites[s.id] ?? {} })),
    startedAt: emu.startedAt,
    clock: emu.store.clock.state(),
    seed: { kind: emu.store.getMeta('seed') ?? null, size: Number(emu.store.getMeta('seedSize') ?? 0) },
    events: { count: counts.events, lastSeq: counts.lastEventSeq },
    faults: emu.faults.current,
  };
}

/** Stores with a reset under way: a second reset, and a site added or removed meanwhile (the new file has the old sites), get 409. */
const resetting = new WeakSet<Store>();

function refuseDuringReset(emu: ControlState): void {
  if (resetting.has(emu.store)) throw new ApplicationFailure(409, 'RESET_IN_PROGRESS', 'a reset is under way: add or remove sites once it has ended');
}

/** Longest site name. */
export const MAX_SITE_NAME = 100;

/** The account's sites as the control plane lists them (the default one marked). */
function sitesOf(emu: ControlState) {
  return emu.store.sites().map((s) => ({ id: s.id, name: s.name, createdDate: s.createdDate, default: s.id === emu.key.siteId }));
}

/** Writes the key file again with the store's sites (the CLI reads names from it). */
function syncKey(emu: ControlState): void {
  emu.key.sites = emu.store.sites().map((s) => ({ id: s.id, name: s.name }));
  writeAdminKey(emu.dataDir, emu.key);
}

/**
 * Adds a site to the account, furnished like the demo's second site (locations, staff, policies, forms,
 * categories; no services). @throws ValidationFailure for a missing or long name; 409 SITE_ALREADY_EXISTS, or
 * RESET_IN_PROGRESS while a reset seeds
 */
function createSite(emu: ControlState, body: Body) {
  refuseDuringReset(emu);
  const name = typeof body?.name === 'string' ? body.name.trim() : '';
  if (!name) throw ValidationFailure.field('name', 'a site needs a name', 'REQUIRED_FIELD');
  if (name.length > MAX_SITE_NAME) throw ValidationFailure.field('name', `must be at most ${MAX_SITE_NAME} characters`, 'MAX_LENGTH');
  if (emu.store.sites().some((s) => s.name.toLowerCase() === name.toLowerCase())) {
    throw new ApplicationFailure(409, 'SITE_ALREADY_EXISTS', `the account has a site named "${name}" already`, { name });
  }
  const site = emu.store.tx(() => {
    const added = emu.store.addSite({ id: randomUUID(), name });
    furnishSite(emu.store, emu.key, added.id, emu.families);
    return added;
  });
  syncKey(emu);
  return { site: { id: site.id, name: site.name, createdDate: site.createdDate, default: false } };
}

/** Removes a site and all its data. @throws 404 SITE_NOT_FOUND; 409 DEFAULT_SITE for the default site, RESET_IN_PROGRESS while a reset seeds */
function removeSite(emu: ControlState, id: string) {
  refuseDuringReset(emu);
  const site = emu.store.sites().find((s) => s.id === id);
  if (!site) throw new ApplicationFailure(404, 'SITE_NOT_FOUND', `the account has no site ${id}`, { id });
  if (id === emu.key.siteId) throw new ApplicationFailure(409, 'DEFAULT_SITE', `"${site.name}" is the account's default site and cannot be removed`, { id });
  emu.store.removeSite(id);
  syncKey(emu);
  return { site: { id: site.id, name: site.name } };
}

/**
 * The handler of a control request and its `{name}` path values; undefined when no route matches.
 */
export function matchControlRoute(method: string, path: string): { handler: ControlHandler; params: Record<string, string> } | undefined {
  const exact = `${method} ${path}`;
  if (Object.hasOwn(controlRoutes, exact)) return { handler: controlRoutes[exact]!, params: {} };
  const parts = path.split('/');
  for (const [key, handler] of Object.entries(controlRoutes)) {
    const [m, template] = key.split(' ') as [string, string];
    if (m !== method || !template.includes('{')) continue;
    const tparts = template.split('/');
    if (tparts.length !== parts.length) continue;
    const params: Record<string, string> = {};
    if (tparts.every((t, i) => (t.startsWith('{') ? ((params[t.slice(1, -1)] = decodeURIComponent(parts[i]!)), parts[i] !== '') : t === parts[i]))) return { handler, params };
  }
  return undefined;
}

export const controlRoutes: Record<string, ControlHandler> = {
  ...oauthControlRoutes,
  ...orderControlRoutes,
  'GET /__emulator/sites': (emu) => ({ sites: sitesOf(emu) }),
  'POST /__emulator/sites': (emu, body) => createSite(emu, body),
  'DELETE /__emulator/sites/{id}': (emu, _body, req) => removeSite(emu, req.params.id!),
  'POST /__emulator/reset': async (emu, body) => {
    const opts = seedOptions(body, lastSeed(emu.store));
    if (resetting.has(emu.store)) throw new ApplicationFailure(409, 'RESET_IN_PROGRESS', 'a reset is under way already: wait for it to end');
    if (!emu.reseed) resetStore(emu.store, emu.key, emu.families, opts);
    else {
      resetting.add(emu.store);
      try {
        await emu.reseed(opts);
      } finally {
        resetting.delete(emu.store);
      }
    }
    return state(emu);
  },
  'GET /__emulator/state': (emu) => state(emu),
  // `counted`: API requests since the faults were last set, and the 429s among them (tests and the bench).
  'GET /__emulator/faults': (emu) => ({ faults: emu.faults.current, counted: emu.faults.requests }),
  'PUT /__emulator/faults': (emu, body) => {
    const input = body && typeof body === 'object' && Object.hasOwn(body, 'faults') ? body.faults : body;
    return { faults: emu.faults.set(input ?? {}) };
  },
  'GET /__emulator/events': (emu, _body, req) => {
    const after = Number(req.query.get('after') ?? 0);
    const limit = Number(req.query.get('limit') ?? 100);
    // The asking site's events only (its wix-site-id, or ?site=); an account-level call without one sees them all.
    const site = req.query.get('site') ?? req.siteId;
    if (!Number.isInteger(after) || after < 0) throw ValidationFailure.field('after', 'must be a non-negative integer');
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_EVENTS) throw ValidationFailure.field('limit', `must be an integer between 1 and ${MAX_EVENTS}`);
    const all = emu.store.listEvents(after, limit);
    const events = site ? all.filter((e) => e.siteId === site) : all;
    return { events, lastSeq: all.length ? all[all.length - 1]!.seq : after };
  },
  'GET /__emulator/clock': (emu) => ({ clock: emu.store.clock.state() }),
  'PUT /__emulator/clock': (emu, body) => {
    const input = body && typeof body === 'object' && !Array.isArray(body) ? body : {};
    let set: number | undefined;
    if (input.now !== undefined) {
      set = typeof input.now === 'string' ? Date.parse(input.now) : NaN;
      if (Number.isNaN(set)) throw ValidationFailure.field('now', 'must be an ISO-8601 date-time', 'INVALID');
    }
    const advanceMs = input.advance === undefined ? undefined : parseDuration(input.advance, 'advance');
    if (input.frozen !== undefined && typeof input.frozen !== 'boolean') throw ValidationFailure.field('frozen', 'must be true or false');
    return { clock: emu.store.tx(() => emu.store.clock.change({ set, advanceMs, frozen: input.frozen })) };
  },
};
