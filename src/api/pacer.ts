/**
 * Pacing that follows the platform's rate limit (docs/wire.md §7): the platform allows about 200 requests a
 * minute per app instance (a site) and answers 429 with `Retry-After` above it. Every request the client sends
 * first takes a slot from the {@link Pacer} of its origin and site, shared by every client of the process (the bulk
 * engine's chunks, a fan-out's concurrent site runs), so sends to one site are spread evenly instead of bursting.
 *
 * A pacer knows no rate until the platform refuses one: until then it sends at once (a single call costs nothing:
 * no timer, no wait). On a 429 it learns (AIMD): every request of that site waits out the `Retry-After`, and the
 * rate becomes what the platform let through over the last second (x 0.9; that site's, or the origin's per site with
 * requests under way when that is more: a site whose 429 came while its own traffic was light), or 0.7 x the rate it had, whichever is
 * lower, but never below one request per `Retry-After` (nothing let through and no rate yet: only the pause); each reply that is not a 429 raises it again (additively, +0.01 req/s per reply: about 1 % a second), and
 * after 5 s without a 429 by 5 % a reply, so a limit that was lifted is found again; above 1,000 req/s it stops
 * pacing. A new site of an origin whose sites are paced starts at the rate of the one that heard last, so a fleet
 * run does not burst into every new site. No timer is ever kept: waits are the caller's (client.ts).
 */

/** Fewest requests a second a learned rate goes down to. */
const MIN_RATE = 0.2;
/** Above this the pacer stops pacing (the limit, if any, is far away). */
const UNPACED_ABOVE = 1000;
/** The window over which accepted replies are counted when a 429 comes, in ms. */
const WINDOW_MS = 1000;
/** After this long without a 429, the rate is probed up multiplicatively. */
const QUIET_MS = 5000;
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
  /** The learned rate in requests a second, or undefined while unpaced. */
  rate: number | undefined;
  /** The longest `Retry-After` pause still to run, in ms (0: none). */
  pausedMs: number;
}

/** The pacing of one origin and site. All times in ms of `clock`. */
export class Pacer {
  /** Learned requests a second; undefined: not paced. */
  private learned: number | undefined;
  /** When the next slot is free. */
  private nextAt = 0;
  /** No send before this (a Retry-After). */
  private pausedUntil = 0;
  private lastDecreaseAt = -Infinity;
  private lastThrottleAt = -Infinity;
  /** Times of the replies that were not 429 within the last WINDOW_MS (oldest first, from `head`). */
  private accepted: number[] = [];
  private head = 0;
  replies = 0;
  throttled = 0;
  /** Requests sent and not yet answered. */
  inFlight = 0;
  /** When the rate last changed or a reply came (for a new sibling's start). */
  touchedAt = -Infinity;

  /**
   * @param initialRate requests a second to start at (undefined: unpaced until a 429)
   * @param fairShare what the platform let through per busy site of the same origin over the last second (req/s),
   *   when known: a site whose own traffic was light when its 429 came takes that share, not its own light rate
   */
  constructor(private readonly clock: () => number = monotonicMs, initialRate?: number, private readonly fairShare?: (since: number) => number) {
    this.learned = initialRate;
  }

  /** Accepted replies within the last second (the window), as of `now`. */
  acceptedRecently(now: number): number {
    return this.acceptedSince(now - WINDOW_MS);
  }

  /** The rate in force (requests a second), or undefined while unpaced. */
  get rate(): number | undefined {
    return this.learned;
  }

  /** Time left of a `Retry-After` pause, in ms (0: none). */
  pausedFor(): number {
    return Math.max(0, this.pausedUntil - this.clock());
  }

  /**
   * Takes the next send slot. @returns how long to wait before sending, in ms (0: send now). During a pause
   * nothing is booked: wait the time returned and ask again. After waiting for a booked slot, the caller checks
   * {@link pausedFor} (a 429 may have come meanwhile).
   */
  reserve(): number {
    const now = this.clock();
    if (now < this.pausedUntil) return this.pausedUntil - now;
    if (this.learned === undefined) return 0;
    const slot = Math.max(now, this.nextAt);
    this.nextAt = slot + 1000 / this.learned;
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

  /**
   * Learns from a reply: `status` 429 lowers the rate and pauses every send for `retryAfterMs` (when given);
   * any other status raises it a little.
   */
  replied(status: number, retryAfterMs?: number): void {
    const now = this.clock();
    this.replies += 1;
    this.touchedAt = now;
    // Counted under way until its reply is learned from (the origin's share counts this site as busy).
    if (status !== 429) {
      this.inFlight = Math.max(0, this.inFlight - 1);
      return this.accept(now);
    }
    try {
      this.throttle(now, retryAfterMs);
    } finally {
      this.inFlight = Math.max(0, this.inFlight - 1);
    }
  }

  private throttle(now: number, retryAfterMs: number | undefined): void {
    this.throttled += 1;
    this.lastThrottleAt = now;
    if (retryAfterMs !== undefined && retryAfterMs > 0) this.pausedUntil = Math.max(this.pausedUntil, now + retryAfterMs);
    if (now - this.lastDecreaseAt < DECREASE_GAP_MS) return;
    this.lastDecreaseAt = now;
    const own = this.acceptedSince(now - WINDOW_MS) * (1000 / WINDOW_MS);
    const through = Math.max(own, this.fairShare?.(now) ?? 0) * 0.9;
    // A Retry-After of N s lets a request through every N s at least: the rate never goes below that.
    const floor = Math.max(MIN_RATE, retryAfterMs ? Math.min(UNPACED_ABOVE, 1000 / retryAfterMs) : 0);
    if (this.learned === undefined) {
      // Nothing went through lately: no rate to learn from (the pause alone holds the sends back).
      if (through > 0) this.learned = Math.max(floor, through);
    } else {
      this.learned = Math.max(floor, Math.min(through > 0 ? through : Infinity, this.learned * 0.7));
    }
    // Slots booked at the old rate are spread again from the end of the pause.
    this.nextAt = Math.max(now, this.pausedUntil);
  }

  private accept(now: number): void {
    this.accepted.push(now);
    this.acceptedSince(now - WINDOW_MS);
    if (this.learned === undefined) return;
    this.learned = now - this.lastThrottleAt > QUIET_MS ? this.learned * 1.05 : this.learned + 0.01;
    if (this.learned > UNPACED_ABOVE) this.learned = undefined;
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
 * The pacers of a process, one per origin and site (`key`). The client uses {@link sharedPacers}; tests give a
 * client its own.
 */
export class Pacers {
  private readonly byKey = new Map<string, { origin: string; pacer: Pacer }>();

  constructor(private readonly clock: () => number = monotonicMs) {}

  /** The pacer of `origin` and `site` (a site id, or a name of the credential's scope such as `account`), made on first use. */
  get(origin: string, site: string): Pacer {
    const key = `${origin} ${site}`;
    let entry = this.byKey.get(key);
    if (!entry) {
      entry = { origin, pacer: new Pacer(this.clock, this.siblingRate(origin), (now) => this.share(origin, now)) };
      this.byKey.set(key, entry);
    }
    return entry.pacer;
  }

  /** Totals over the pacers of `origin` (every origin when omitted): replies, 429s, the mean learned rate, the longest pause left. */
  stats(origin?: string): PacerStats {
    let replies = 0;
    let throttled = 0;
    let rate: number | undefined;
    let pausedMs = 0;
    for (const e of this.byKey.values()) {
      if (origin !== undefined && e.origin !== origin) continue;
      replies += e.pacer.replies;
      throttled += e.pacer.throttled;
      pausedMs = Math.max(pausedMs, e.pacer.pausedFor());
    }
    const rates = this.rates(origin);
    if (rates.length) rate = rates.reduce((a, b) => a + b, 0) / rates.length;
    return { replies, throttled, rate, pausedMs };
  }

  /** Accepted replies a second at `origin` over the last second, per site with requests under way now. */
  private share(origin: string, now: number): number {
    let accepted = 0;
    let busy = 0;
    for (const e of this.byKey.values()) {
      if (e.origin !== origin) continue;
      accepted += e.pacer.acceptedRecently(now);
      if (e.pacer.inFlight > 0) busy += 1;
    }
    return busy ? (accepted * 1000) / WINDOW_MS / busy : 0;
  }

  private rates(origin: string | undefined): number[] {
    const out: number[] = [];
    for (const e of this.byKey.values()) if ((origin === undefined || e.origin === origin) && e.pacer.rate !== undefined) out.push(e.pacer.rate);
    return out;
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
