/**
 * The emulator's clock (docs/architecture.md "The emulator"): every rule that reads the time (createdDate, updatedDate, booking
 * windows, order periods, token expiry) asks this clock, never `Date.now()`. The control plane can move it
 * forward, set it, or freeze it (`/__emulator/clock`, `sitectl emulator clock`), so a test can see an order end
 * or a booking window close without waiting. The offset from the real time (and the frozen instant) is kept in
 * the store, so a restart keeps the emulated time.
 */

/** What `/__emulator/clock` reports and accepts. */
export interface ClockState {
  /** The emulated time now, ISO-8601. */
  now: string;
  /** Emulated minus real time, in ms. */
  offsetMs: number;
  /** True when time stands still at `now`. */
  frozen: boolean;
}

/** Where the clock keeps its settings (the store's meta table). */
export interface ClockPersistence {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}

const OFFSET_KEY = 'clockOffsetMs';
const FROZEN_KEY = 'clockFrozenAt';

export class Clock {
  private offsetMs: number;
  private frozenAt: number | undefined;

  /** @param realNow the real time source (ms since the epoch); tests pass a fake. */
  constructor(
    private readonly persistence?: ClockPersistence,
    private readonly realNow: () => number = Date.now,
  ) {
    this.offsetMs = Number(persistence?.get(OFFSET_KEY) ?? 0) || 0;
    const frozen = persistence?.get(FROZEN_KEY);
    this.frozenAt = frozen ? Number(frozen) : undefined;
  }

  /** The emulated time in ms since the epoch. */
  nowMs(): number {
    return this.frozenAt ?? this.realNow() + this.offsetMs;
  }

  /** The emulated time as an ISO-8601 string (what createdDate and friends hold). */
  nowIso(): string {
    return new Date(this.nowMs()).toISOString();
  }

  state(): ClockState {
    return { now: this.nowIso(), offsetMs: this.offsetMs, frozen: this.frozenAt !== undefined };
  }

  /**
   * Applies a change: `set` jumps to an instant, `advanceMs` moves forward (or back, when negative), `frozen`
   * stops or restarts time (a restarted clock runs on from the instant it was frozen at).
   * @throws RangeError for a non-finite instant or amount
   */
  change(change: { set?: number; advanceMs?: number; frozen?: boolean }): ClockState {
    const current = this.nowMs();
    let target = current;
    if (change.set !== undefined) {
      if (!Number.isFinite(change.set)) throw new RangeError('set must be a valid instant');
      target = change.set;
    }
    if (change.advanceMs !== undefined) {
      if (!Number.isFinite(change.advanceMs)) throw new RangeError('advanceMs must be a number');
      target += change.advanceMs;
    }
    const frozen = change.frozen ?? this.frozenAt !== undefined;
    this.frozenAt = frozen ? target : undefined;
    this.offsetMs = target - this.realNow();
    this.persist();
    return this.state();
  }

  /** Writes the offset and the frozen instant to the persistence (again: a store that changed its file). */
  persist(): void {
    this.persistence?.set(OFFSET_KEY, String(this.offsetMs));
    this.persistence?.set(FROZEN_KEY, this.frozenAt === undefined ? '' : String(this.frozenAt));
  }
}
