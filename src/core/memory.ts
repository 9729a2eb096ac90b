/**
 * Memory held flat across a long run of similar units of work (docs/architecture.md "Runtime and memory"): a
 * fan-out to hundreds of sites plans and applies site after site, and what one site leaves behind is garbage.
 * V8 lets that garbage pile up: the young generation grows with a long run of short bursts, and the old
 * generation's next full collection is set relative to its size, so a run's peak RSS grew with the number of
 * sites although its live data stayed at 16-30 MB (measured with --trace-gc at 300-400 sites).
 *
 * The same holds for one long read or bulk run (`list --all`, an export, a bulk plan and run): its live heap stays
 * at 10-25 MB whatever the count, but V8's own growth factor (up to 4x on a fast mutator) let the pages promoted
 * out of the young generation pile up to ~40 MB of garbage before the second full collection, which a 1,000-item
 * run ends before and a 10,000-item run reaches (`services list --all --ndjson`: peak RSS 90 MiB at 1k, 114-122
 * MiB at 10k; 96 MiB at 10k with {@link keepHeapFlat}, busy machine, bench/run.js streamingAtScale;
 * docs/runtime.md §4).
 *
 * Three levers, all taken from inside the process, so a command that is not a long run pays nothing and start-up
 * is untouched (no re-launch of node with `--max-semi-space-size`, which would cost a second process start and
 * the forwarding of signals, for one kind of command):
 * - `--semi-space-growth-factor=1` keeps the young generation at its starting size; V8 reads it whenever it
 *   considers growing, so setting it once the process runs takes effect (the flag given at launch,
 *   `--max-semi-space-size`, is read once at heap set-up and set later does nothing).
 * - `--heap-growing-percent` keeps the old generation's limit at {@link HEAP_GROWING_PERCENT} over what survived
 *   the last full collection (V8 still grows it by at least 8 MB, so a full collection comes once per ~8 MB
 *   promoted, ~10 ms each at a 10 MB live heap); read whenever V8 resizes, like the flag above.
 * - A full collection once the heap has grown by {@link GROWTH_BYTES} since the last one, asked between units of
 *   work. `gc` is V8's own (`--expose-gc` set at run time installs it on contexts made afterwards: a new vm
 *   context is one), checked on Node 22, 24 and 26. At 16-30 MB live a full collection takes a few ms; it runs a
 *   few times per hundred sites.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Growth of the old generation's limit after a full collection, in percent of what survived it (V8's `--heap-growing-percent`). */
export const HEAP_GROWING_PERCENT = 20;

/**
 * Keeps V8's heap near its live size for the rest of this process: the young generation at its starting size
 * and the old generation's limit at {@link HEAP_GROWING_PERCENT} over what survived the last full collection.
 * Call it before the first page of a read of every page, a bulk plan, or a fan-out's first site; calling it
 * twice costs nothing.
 */
export function keepHeapFlat(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

/**
 * Heap growth (bytes) since the last full collection that makes {@link FlatMemory.collectIfGrown} collect; half
 * the heap left by that collection when more, so a process holding much (an emulator with 100,000 bookings)
 * is not collected every time it is asked.
 */
export const GROWTH_BYTES = 16 * 1024 * 1024;

/** What a long run tells between its units of work; see {@link flatMemory}. */
export interface FlatMemory {
  /**
   * Called between units (a site planned or applied; a server's tick): collects when the heap grew by
   * {@link GROWTH_BYTES} (or half the heap after the last collection, when more) since the last collection.
   * @returns whether it collected
   */
  collectIfGrown(): boolean;
  /** Full collections made so far. */
  readonly collections: number;
}

let gcFn: (() => void) | null | undefined;

/** V8's `gc`, made available at run time; null when this V8 refuses (then only the young generation is held). */
function gc(): (() => void) | null {
  if (gcFn !== undefined) return gcFn;
  try {
    setFlagsFromString('--expose-gc');
    const fn = runInNewContext('gc') as unknown;
    gcFn = typeof fn === 'function' ? (fn as () => void) : null;
  } catch {
    gcFn = null;
  }
  return gcFn;
}

/** Options of {@link flatMemory}. */
export interface FlatMemoryOptions {
  /**
   * Keep the heap flat from now on ({@link keepHeapFlat}; default true: a CLI run's short bursts). A
   * server answering heavy queries keeps V8's default (false): a small young generation there promotes more.
   */
  holdYoungGeneration?: boolean;
  /** See {@link GROWTH_BYTES}. */
  growthBytes?: number;
  /** Reads the heap in use, in bytes (tests pass their own); default process.memoryUsage's heapUsed. */
  heapUsed?: () => number;
}

/**
 * Holds the process's memory flat over a long run of similar units (a fan-out's sites, a server's requests):
 * optionally keeps V8's young generation at its starting size, and returns the hook that collects between
 * units once the heap grew (see {@link FlatMemory.collectIfGrown}).
 */
export function flatMemory(opts: FlatMemoryOptions = {}): FlatMemory {
  const { holdYoungGeneration = true, growthBytes = GROWTH_BYTES, heapUsed = () => process.memoryUsage().heapUsed } = opts;
  if (holdYoungGeneration) keepHeapFlat();
  const collect = gc();
  let floor = heapUsed();
  let collections = 0;
  return {
    collectIfGrown() {
      if (!collect || heapUsed() - floor < Math.max(growthBytes, floor / 2)) return false;
      collect();
      collections += 1;
      floor = heapUsed();
      return true;
    },
    get collections() {
      return collections;
    },
  };
}
