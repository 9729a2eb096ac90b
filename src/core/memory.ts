/**
 * The heap of a long streaming run (`list --all`, `export`, a bulk plan and run): V8's sizing tuned so that peak
 * memory does not grow with the number of items (docs/runtime.md §4).
 */
import v8 from 'node:v8';

/**
 * Growth of the old generation's limit after a full collection, in percent of what survived it (V8's
 * `--heap-growing-percent`): the live heap of a streaming run stays at 10-25 MB whatever the count, but V8's own
 * factor (up to 4x on a fast mutator) let the pages promoted out of the young generation pile up to ~40 MB of
 * garbage before the second full collection, which a 1,000-item run ends before and a 10,000-item run reaches
 * (`services list --all --ndjson`: peak RSS 90 MiB at 1k, 114-122 MiB at 10k; 96 MiB at 10k with this, busy
 * machine, bench/run.js streamingAtScale). V8 still grows the limit by at least 8 MB, so a full collection
 * comes once per ~8 MB promoted (~10 ms each at a 10 MB live heap).
 */
const HEAP_GROWING_PERCENT = 20;

/**
 * Keeps V8's heap near its live size for the rest of this process: the young generation at its starting size
 * (a long run of short parse-and-write bursts otherwise grows it up to 16 MB per semi-space) and the old
 * generation's limit at {@link HEAP_GROWING_PERCENT} over what survived the last full collection. Both flags
 * are read whenever V8 resizes, so setting them once the process runs takes effect. Call it before the first
 * page of a read of every page; it costs nothing to call twice.
 */
export function keepHeapFlat(): void {
  v8.setFlagsFromString('--semi-space-growth-factor=1');
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
