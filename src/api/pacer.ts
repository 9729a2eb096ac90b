/**
 * Pacing that follows the platform's rate limit (docs/wire.md §7): the platform allows about 200 requests a
 * minute per app instance (a site) and answers 429 with `Retry-After` above it. Every request the client sends
 * first takes a slot from the {@link Pacer} of its origin and site, shared by every client of the process (the bulk
 * engine's chunks, a fan-out's concurrent site runs), so sends to one site are spread evenly instead of bursting.
 *
 * A pacer knows no rate until the platform refuses one: until then it sends at once (a single call costs nothing:
 * no timer, no wait). On a 429 every request of that site waits out the `Retry-After`, and the rate is learned
 * (AIMD): what the platform let through over the last second x 0.9, at most 0.9 x the rate it had, never below one
 * request per `Retry-After` (nothing let through and no rate yet: only the pause). Each reply that is not a 429
 * raises it again by +0.01 req/s, up to 0.97 x what went through before the 429, or x the rate refused when
 * lower (the limit as far as is known, so a paced run sends no more than the limit a second); after 30 s without
 * a 429 by +0.05 a reply past it (5 % a second at the paced rate), so a limit that was lifted is found again
 * without bursting into it; above 1,000 req/s it stops pacing.
 *
 * A limit shared by the sites of an origin (a proxy's, or the emulator's `rateLimitScope: all`) shows as 429s on
 * two sites within a second: from then on the origin's own limiter (one per origin, {@link Pacers}) learns the rate
 * from every site's replies and spreads the sends of all its sites, and a 429 lowers that rate instead of the
 * site's (unless the origin was sending under 0.8 x that rate: then the limit is the site's own); the refused call waits its `Retry-After` (the client's retry), while the origin's pace holds back the
 * other sends (a pause of the site would leave the others sending all the same, and idle the run when every
 * running site was refused in the same overshoot). A new site of an origin whose sites are paced starts at
 * the rate of the one that heard last, so a fleet run does not burst into every new site. No timer is ever kept:
 * waits are the caller's (client.ts).
 */

/** Fewest requests a second a learned rate goes down to. */
const MIN_RATE = 0.2;
/** Above this the pacer stops pacing (the limit, if any, is far away). */
const UNPACED_ABOVE = 1000;
/** The window over which accepted replies are counted when a 429 comes, in ms. */
const WINDOW_MS = 1000;
/** After this long without a 429, the rate is probed up past what the last 429 showed (a limit may have been lifted). */
const QUIET_MS = 30_000;
/** Share of what went through over the second before a 429 that the rate rises back to until then. */
const CEILING_SHARE = 0.97;
/** The probe's rise in req/s a reply: at the paced rate r that is 0.05 r a second, 5 % a second. */
const PROBE_STEP = 0.05;
/** A 429 while the origin's sites send less than this share of their shared rate is the site's own. */
const BUSY_SHARE = 0.8;
/** 429s within this long of the last decrease belong to the same overshoot and lower the rate once. */
const DECREASE_GAP_MS = 1000;

/** A monotonic clock in ms (process.hrtime: the global `performance` costs start-up time). */
function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** What a pacer has seen, for a fan-out's counter. */
export interface PacerStats {
  /** Replies received (any status). */
  replies: number;
  /** 429 replies. */
  throttled: number;
  /** The mean learned rate of the sites in requests a second, or undefined while none is paced. */
  rate: number | undefined;
  /** The rate the origin's sites share, in requests a second, once a limit shared by them was seen; else undefined. */
  originRate: number | undefined;
  /** The longest `Retry-After` pause still to run, in ms (0: none). */
  pausedMs: number;
}

/**
 * A rate learned from replies and the slots booked at it, all times in ms of `clock`: a site's ({@link Pacer}),
 * or an origin's when its sites share a limit.
 */
class Rate {
  /** Learned requests a second; undefined: not paced. */
  learned: number | undefined;
  /** When the next slot is free. */
  private nextAt = 0;
  private lastDecreaseAt = -Infinity;
  private lastThrottleAt = -Infinity;
  /** Until QUIET_MS after a 429, the rate rises up to this: just under what the platform let through then. */
  private ceiling = Infinity;
  /** Times of the replies that were not 429 within the last WINDOW_MS (oldest first, from `head`). */
  private accepted: number[] = [];
  private head = 0;

  constructor(readonly clock: () => number, initialRate?: number) {
    this.learned = initialRate;
  }

  /** Books the first slot at or after `from` (ms of the clock); @returns its time (`from` while unpaced). */
  book(from: number): number {
    if (this.learned === undefined) return from;
    const slot = Math.max(from, this.nextAt);
    this.nextAt = slot + 1000 / this.learned;
    return slot;
  }

  /** An accepted reply at `now`: counted in the window, and the rate raised (see the module's doc). */
  accept(now: number): void {
    this.accepted.push(now);
    this.acceptedSince(now - WINDOW_MS);
    if (this.learned === undefined) return;
    if (now - this.lastThrottleAt > QUIET_MS) this.learned += PROBE_STEP;
    else if (this.learned < this.ceiling) this.learned = Math.min(this.ceiling, this.learned + 0.01);
    if (this.learned > UNPACED_ABOVE) this.learned = undefined;
  }

  /**
   * A 429 at `now` lowers the rate once per overshoot (429s within DECREASE_GAP_MS of the last decrease are the
   * same one). @param retryAfterMs the wait asked (sets the floor: one request per Retry-After)
   * @param spreadFrom slots booked at the old rate are spread again from this time (a site's pause end)
   */
  throttle(now: number, retryAfterMs: number | undefined, spreadFrom: number): void {
    this.lastThrottleAt = now;
    if (now - this.lastDecreaseAt < DECREASE_GAP_MS) return;
    this.lastDecreaseAt = now;
    const accepted = this.acceptedRecently(now) * (1000 / WINDOW_MS);
    const through = accepted * 0.9;
    // A Retry-After of N s lets a request through every N s at least: the rate never goes below that.
    const floor = Math.max(MIN_RATE, retryAfterMs ? Math.min(UNPACED_ABOVE, 1000 / retryAfterMs) : 0);
    const before = this.learned;
    if (this.learned === undefined) {
      // Nothing went through lately: no rate to learn from (the pause alone holds the sends back).
      if (through > 0) this.learned = Math.max(floor, through);
    } else {
      this.learned = Math.max(floor, Math.min(through > 0 ? through : Infinity, this.learned * 0.9));
    }
    // What went through is the limit as far as is known (or the rate refused, when lower: a second counted by
    // replies may straddle two of the platform's windows): sends rise back to just under it, not past it.
    const known = Math.min(accepted > 0 ? accepted : Infinity, before ?? Infinity);
    this.ceiling = known < Infinity ? Math.max(this.learned ?? 0, known * CEILING_SHARE) : Infinity;
    this.nextAt = Math.max(now, spreadFrom);
  }

  /** Accepted replies within the last second (the window), as of `now`. */
  acceptedRecently(now: number): number {
    return this.acceptedSince(now - WINDOW_MS);
  }

  /** Accepted replies since `from` (older ones are dropped). */
  private acceptedSince(from: number): number {
    while (this.head < this.accepted.length && this.accepted[this.head]! < from) this.head++;
    if (this.head > 256 && this.head * 2 > this.accepted.length) {
      this.accepted = this.accepted.slice(this.head);
      this.head = 0;
    }
    return this.accepted.length - this.head;
  }
}

/**
 * The limit of an origin's sites together: engaged once 429s came from two of its sites within a second (a
 * shared limit), then every send of the origin also takes a slot of its rate, and every 429 lowers it.
 */
class OriginLimit {
  readonly rate: Rate;
  /** Set once a shared limit was seen. */
  shared = false;
  /** The site and time of the last 429 at this origin. */
  private last: { site: Pacer; at: number } | undefined;

  constructor(clock: () => number) {
    this.rate = new Rate(clock);
  }

  /**
   * A 429 of `site` at `now`. @returns true when the origin's limit takes it (a shared limit: seen now or before),
   * false when it is the site's own
   */
  throttled(site: Pacer, now: number, retryAfterMs: number | undefined, sites: Iterable<Pacer>): boolean {
    const other = this.last && this.last.site !== site && now - this.last.at < DECREASE_GAP_MS;
    this.last = { site, at: now };
    if (!this.shared && !other) return false;
    // Refused while the origin sends well under its pace: that site's own limit (as the platform's, per site).
    if (this.shared && this.rate.learned !== undefined && this.rate.acceptedRecently(now) < BUSY_SHARE * this.rate.learned) return false;
    if (!this.shared) {
      // Seen now: the rates the sites learned from their own 429s were the shared limit's; the origin's rate rules.
      this.shared = true;
      for (const p of sites) p.forget();
    }
    this.rate.throttle(now, retryAfterMs, now);
    return true;
  }
}

/** The pacing of one origin and site. All times in ms of `clock`. */
export class Pacer {
  private readonly own: Rate;
  /** No send before this (a Retry-After). */
  private pausedUntil = 0;
  replies = 0;
  throttled = 0;
  /** Requests sent and not yet answered. */
  inFlight = 0;
  /** When the rate last changed or a reply came (for a new sibling's start). */
  touchedAt = -Infinity;

  /**
   * @param initialRate requests a second to start at (undefined: unpaced until a 429)
   * @param origin the limit this site shares with the other sites of its origin, and those sites (Pacers.get)
   */
  constructor(private readonly clock: () => number = monotonicMs, initialRate?: number, private readonly origin?: { limit: OriginLimit; sites: () => Iterable<Pacer> }) {
    this.own = new Rate(clock, initialRate);
  }

  /** The rate in force for this site alone (requests a second), or undefined while unpaced. */
  get rate(): number | undefined {
    return this.own.learned;
  }

  /** Time left of a `Retry-After` pause, in ms (0: none). */
  pausedFor(): number {
    return Math.max(0, this.pausedUntil - this.clock());
  }

  /**
   * Takes the next send slot: the site's, then the origin's when its sites share a limit. @returns how long to
   * wait before sending, in ms (0: send now). During a pause nothing is booked: wait the time returned and ask
   * again. After waiting for a booked slot, the caller checks {@link pausedFor} (a 429 may have come meanwhile).
   */
  reserve(): number {
    const now = this.clock();
    if (now < this.pausedUntil) return this.pausedUntil - now;
    let slot = this.own.book(now);
    if (this.origin?.limit.shared) slot = this.origin.limit.rate.book(slot);
    return slot - now;
  }

  /** A request leaves now (after its slot); {@link replied} or {@link failed} ends it. */
  sending(): void {
    this.inFlight += 1;
  }

  /** A request sent ended without a reply (a transport error). */
  failed(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
  }

  /** Drops the rate and the pause this site took from its own 429s (its origin's shared limit explains them). */
  forget(): void {
    this.own.learned = undefined;
    this.pausedUntil = 0;
  }

  /**
   * Learns from a reply: `status` 429 lowers the rate: the origin's when its sites share a limit, else the site's,
   * whose sends all pause for `retryAfterMs` (when given); any other status raises it a little.
   */
  replied(status: number, retryAfterMs?: number): void {
    const now = this.clock();
    this.replies += 1;
    this.touchedAt = now;
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (status !== 429) {
      this.own.accept(now);
      this.origin?.limit.rate.accept(now);
      return;
    }
    this.throttled += 1;
    // A limit the origin's sites share: its pace holds them all back, and the refused call waits its Retry-After.
    if (this.origin?.limit.throttled(this, now, retryAfterMs, this.origin.sites())) return;
    if (retryAfterMs !== undefined && retryAfterMs > 0) this.pausedUntil = Math.max(this.pausedUntil, now + retryAfterMs);
    // Slots booked at the old rate are spread again from the end of the pause.
    this.own.throttle(now, retryAfterMs, this.pausedUntil);
  }
}

/**
 * The pacers of a process, one per origin and site (`key`), and the shared limit of each origin. The client uses
 * {@link sharedPacers}; tests give a client its own.
 */
export class Pacers {
  private readonly byKey = new Map<string, { origin: string; pacer: Pacer }>();
  private readonly limits = new Map<string, { limit: OriginLimit; sites: Pacer[] }>();

  constructor(private readonly clock: () => number = monotonicMs) {}

  /** The pacer of `origin` and `site` (a site id, or a name of the credential's scope such as `account`), made on first use. */
  get(origin: string, site: string): Pacer {
    const key = `${origin} ${site}`;
    let entry = this.byKey.get(key);
    if (!entry) {
      let group = this.limits.get(origin);
      if (!group) this.limits.set(origin, (group = { limit: new OriginLimit(this.clock), sites: [] }));
      const sites = group.sites;
      entry = { origin, pacer: new Pacer(this.clock, this.siblingRate(origin), { limit: group.limit, sites: () => sites }) };
      sites.push(entry.pacer);
      this.byKey.set(key, entry);
    }
    return entry.pacer;
  }

  /** Totals over the pacers of `origin` (every origin when omitted): replies, 429s, the mean learned rate, the origin's, the longest pause left. */
  stats(origin?: string): PacerStats {
    let replies = 0;
    let throttled = 0;
    let pausedMs = 0;
    const rates: number[] = [];
    for (const e of this.byKey.values()) {
      if (origin !== undefined && e.origin !== origin) continue;
      replies += e.pacer.replies;
      throttled += e.pacer.throttled;
      pausedMs = Math.max(pausedMs, e.pacer.pausedFor());
      if (e.pacer.rate !== undefined) rates.push(e.pacer.rate);
    }
    const rate = rates.length ? rates.reduce((a, b) => a + b, 0) / rates.length : undefined;
    const limit = origin === undefined ? undefined : this.limits.get(origin)?.limit;
    return { replies, throttled, rate, originRate: limit?.shared ? limit.rate.learned : undefined, pausedMs };
  }

  /** The rate of the site of `origin` that heard from the platform last (paced or not), or undefined when none is paced. */
  private siblingRate(origin: string): number | undefined {
    let latest: Pacer | undefined;
    let paced = false;
    for (const e of this.byKey.values()) {
      if (e.origin !== origin) continue;
      if (e.pacer.rate !== undefined) paced = true;
      if (!latest || e.pacer.touchedAt > latest.touchedAt) latest = e.pacer;
    }
    return paced ? latest?.rate : undefined;
  }
}

/** The pacers every client of this process shares (unless given its own: ApiClientOptions.pacers). */
export const sharedPacers = new Pacers();
