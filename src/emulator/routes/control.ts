/**
 * The control plane beside the API (contracts.md "src/emulator"): `POST /__emulator/reset {seed?, size?}`,
 * `GET /__emulator/state`, `GET|PUT /__emulator/faults`, `GET /__emulator/events?after=<seq>&limit=`.
 * Same admin key as the API; never faulted.
 */
import { ValidationFailure } from '../errors.js';
import type { FaultInjector } from '../faults.js';
import { DEFAULT_SEED_SIZE, seedStore, type SeedOptions } from '../seed/index.js';
import type { Store } from '../store.js';
import type { Body, HandlerContext } from './types.js';

export interface ControlState {
  store: Store;
  faults: FaultInjector;
  dataDir: string;
  url: () => string;
  siteId: string;
  startedAt: string;
}

type ControlHandler = (emu: ControlState, body: Body, ctx: HandlerContext) => object;

const MAX_EVENTS = 1000;

/** Validates `{seed?, size?}` of a reset request. @throws ValidationFailure on a bad seed kind or size. */
export function seedOptions(body: Body, dflt: SeedOptions): SeedOptions {
  // A size without a seed kind asks for demo data, even when the store was last seeded empty.
  const seed = body?.seed ?? (body?.size !== undefined ? 'demo' : dflt.seed) ?? 'demo';
  if (seed !== 'demo' && seed !== 'empty') throw ValidationFailure.field('seed', 'must be demo or empty', 'INVALID_ENUM_VALUE');
  const size = body?.size ?? (body?.seed === undefined ? dflt.size : undefined) ?? DEFAULT_SEED_SIZE;
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 0 || size > 100_000) {
    throw ValidationFailure.field('size', 'must be an integer between 0 and 100000', 'INVALID');
  }
  return { seed, size };
}

/** Deletes everything in the store and seeds it again, in one transaction. */
export function resetStore(store: Store, opts: SeedOptions): void {
  store.tx(() => {
    store.clearAll();
    seedStore(store, opts);
  });
}

function state(emu: ControlState) {
  return {
    url: emu.url(),
    dataDir: emu.dataDir,
    pid: process.pid,
    siteId: emu.siteId,
    startedAt: emu.startedAt,
    seed: { kind: emu.store.getMeta('seed') ?? null, size: Number(emu.store.getMeta('seedSize') ?? 0) },
    counts: emu.store.counts(),
    faults: emu.faults.current,
  };
}

export const controlRoutes: Record<string, ControlHandler> = {
  'POST /__emulator/reset': (emu, body) => {
    const opts = seedOptions(body, {
      seed: (emu.store.getMeta('seed') as SeedOptions['seed']) ?? 'demo',
      size: Number(emu.store.getMeta('seedSize') ?? DEFAULT_SEED_SIZE),
    });
    resetStore(emu.store, opts);
    return state(emu);
  },
  'GET /__emulator/state': (emu) => state(emu),
  'GET /__emulator/faults': (emu) => ({ faults: emu.faults.current }),
  'PUT /__emulator/faults': (emu, body) => {
    const input = body && typeof body === 'object' && 'faults' in body ? body.faults : body;
    return { faults: emu.faults.set(input ?? {}) };
  },
  'GET /__emulator/events': (emu, _body, ctx) => {
    const after = Number(ctx.query.get('after') ?? 0);
    const limit = Number(ctx.query.get('limit') ?? 100);
    if (!Number.isInteger(after) || after < 0) throw ValidationFailure.field('after', 'must be a non-negative integer');
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_EVENTS) throw ValidationFailure.field('limit', `must be an integer between 1 and ${MAX_EVENTS}`);
    const events = emu.store.listEvents(after, limit);
    return { events, lastSeq: events.length ? events[events.length - 1].seq : after };
  },
};
