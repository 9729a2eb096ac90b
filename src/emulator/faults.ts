/**
 * Fault injection for API requests (docs/architecture.md "The emulator"; contracts.md "src/emulator"): added latency, a share of
 * 500/503 replies before or after the change is committed, dropped connections, and 429 with Retry-After above
 * a request rate. Every random decision comes from a PRNG seeded with `faults.seed` and drawn in a fixed order
 * per request, so the same request sequence gets the same faults on a rerun. The control plane is never faulted.
 * Two rule faults make the services family answer its named errors without their conditions: clone errors and a
 * resource-creation error (handlers read them from RequestContext.faults).
 */
import { CloneErrorValues, ResourceErrorValues } from '../api/schemas/service.js';
import { ValidationFailure } from './errors.js';
import { Prng } from './seed/random.js';

export interface Faults {
  /** Added to every API reply, in ms. */
  latencyMs: number;
  /** 0..1 share of API requests answered 500/503. */
  errorRate: number;
  /** 'after': the change is committed, then the 5xx is sent; 'random': chosen per request. */
  errorPhase: 'before' | 'after' | 'random';
  /** 0..1 share of connections destroyed without a reply (after the commit when the phase allows). */
  dropRate: number;
  /** 0 = off; requests above this many per second get 429 with Retry-After. */
  rateLimitPerSec: number;
  /**
   * What `rateLimitPerSec` counts: `all` the emulator's API requests together; `site` each site's (its
   * `wix-site-id`; requests without one count together), as the platform limits each app instance (docs/wire.md §7).
   */
  rateLimitScope: 'all' | 'site';
  /** Seconds sent in Retry-After on a 429. */
  retryAfterSec: number;
  /** PRNG seed so a failing run replays. */
  seed: number;
  /**
   * Clone errors every `cloneService` answers besides those its own conditions give (SDK bookings_services
   * `CloneErrors`: {@link CLONE_ERRORS}; docs/wire.md §14 "Clone and resource-creation errors"); the copy is made.
   */
  cloneErrors: CloneError[];
  /**
   * The resource-creation error every service a create, bulk create or clone makes fails with (the
   * specification's {@link RESOURCE_ERRORS}); null: only their conditions give them.
   */
  resourceError: ResourceError | null;
}

/** The SDK's clone errors (`@wix/auto_sdk_bookings_services` CloneErrors), in its order. */
export const CLONE_ERRORS = CloneErrorValues;
export type CloneError = (typeof CLONE_ERRORS)[number];
/** The specification's two resource-creation errors (docs/wire.md §14). */
export const RESOURCE_ERRORS = ResourceErrorValues;
export type ResourceError = (typeof RESOURCE_ERRORS)[number];

export const NO_FAULTS: Faults = {
  latencyMs: 0,
  errorRate: 0,
  errorPhase: 'before',
  dropRate: 0,
  rateLimitPerSec: 0,
  rateLimitScope: 'all',
  retryAfterSec: 1,
  seed: 1,
  cloneErrors: [],
  resourceError: null,
};

/** What to do with one API request. */
export interface FaultDecision {
  /** Reply 429 at once without running the handler. */
  throttle: boolean;
  /** 500 or 503 instead of the real reply; 0 = none. */
  errorStatus: 0 | 500 | 503;
  /** Destroy the socket instead of replying. */
  drop: boolean;
  /** Whether the handler runs (and commits) before the error or drop. */
  afterCommit: boolean;
  latencyMs: number;
}

/**
 * Checks and completes a partial fault setting.
 * @throws ValidationFailure (field `faults.<name>`) for rates outside 0..1, negative numbers or a bad phase.
 */
export function validateFaults(input: unknown, base: Faults = NO_FAULTS): Faults {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw ValidationFailure.field('faults', 'must be an object');
  const f = { ...base, ...(input as Partial<Faults>) };
  const num = (k: keyof Faults, min: number, max: number) => {
    const v = f[k];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) {
      throw ValidationFailure.field(`faults.${k}`, `must be a number between ${min} and ${max}`);
    }
  };
  num('latencyMs', 0, 60_000);
  num('errorRate', 0, 1);
  num('dropRate', 0, 1);
  num('rateLimitPerSec', 0, 1_000_000);
  num('retryAfterSec', 0, 3_600);
  num('seed', 0, 2 ** 32 - 1);
  if (!['before', 'after', 'random'].includes(f.errorPhase)) {
    throw ValidationFailure.field('faults.errorPhase', 'must be before, after or random', 'INVALID_ENUM_VALUE');
  }
  if (!['all', 'site'].includes(f.rateLimitScope)) {
    throw ValidationFailure.field('faults.rateLimitScope', 'must be all or site', 'INVALID_ENUM_VALUE');
  }
  if (!Array.isArray(f.cloneErrors) || f.cloneErrors.some((e) => !(CLONE_ERRORS as readonly unknown[]).includes(e))) {
    throw ValidationFailure.field('faults.cloneErrors', `must be a list of ${CLONE_ERRORS.join(', ')}`, 'INVALID_ENUM_VALUE');
  }
  f.cloneErrors = CLONE_ERRORS.filter((e) => f.cloneErrors.includes(e));
  if (f.resourceError !== null && !(RESOURCE_ERRORS as readonly unknown[]).includes(f.resourceError)) {
    throw ValidationFailure.field('faults.resourceError', `must be ${RESOURCE_ERRORS.join(' or ')}, or null`, 'INVALID_ENUM_VALUE');
  }
  for (const k of Object.keys(f)) {
    if (!(k in NO_FAULTS)) throw ValidationFailure.field(`faults.${k}`, 'unknown fault setting');
  }
  return f;
}

/** Holds the current settings and the PRNG; `set` replaces both (so a reseeded run replays from its start). */
export class FaultInjector {
  private faults: Faults;
  private rnd: Prng;
  /** The current one-second window of each rate-limited scope (`''`: all requests): its start and count. */
  private windows = new Map<string, { start: number; count: number }>();
  /** API requests decided since the settings were last set, and how many of them were answered 429. */
  private counted = { requests: 0, throttled: 0 };

  constructor(initial: Partial<Faults> = {}, private readonly clock: () => number = Date.now) {
    this.faults = validateFaults(initial);
    this.rnd = new Prng(this.faults.seed);
  }

  get current(): Faults {
    return { ...this.faults };
  }

  /** API requests since the settings were last set (`PUT /__emulator/faults`) and how many got 429. */
  get requests(): { requests: number; throttled: number } {
    return { ...this.counted };
  }

  /** Merges `partial` into the settings and restarts the PRNG from the (possibly new) seed. */
  set(partial: unknown): Faults {
    this.faults = validateFaults(partial, this.faults);
    this.rnd = new Prng(this.faults.seed);
    this.windows.clear();
    this.counted = { requests: 0, throttled: 0 };
    return this.current;
  }

  /**
   * Draws the decision for the next API request (always four draws, whatever the settings).
   * @param siteId the request's `wix-site-id`, counted apart under `rateLimitScope: 'site'`
   */
  decide(siteId?: string): FaultDecision {
    const f = this.faults;
    const rError = this.rnd.next();
    const rPhase = this.rnd.next();
    const rStatus = this.rnd.next();
    const rDrop = this.rnd.next();
    let throttle = false;
    if (f.rateLimitPerSec > 0) {
      const now = this.clock();
      const key = f.rateLimitScope === 'site' ? (siteId ?? '') : '';
      let w = this.windows.get(key);
      if (!w || now - w.start >= 1000) this.windows.set(key, (w = { start: now, count: 0 }));
      throttle = ++w.count > f.rateLimitPerSec;
    }
    this.counted.requests += 1;
    if (throttle) this.counted.throttled += 1;
    const drop = !throttle && rDrop < f.dropRate;
    const errorStatus = !throttle && !drop && rError < f.errorRate ? (rStatus < 0.5 ? 500 : 503) : 0;
    const afterCommit = f.errorPhase === 'after' || (f.errorPhase === 'random' && rPhase < 0.5);
    return { throttle, errorStatus, drop, afterCommit, latencyMs: f.latencyMs };
  }
}
