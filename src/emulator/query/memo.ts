/**
 * Memo of query matches (the filtered and sorted documents of one filter + sort) for one collection, valid for
 * one generation of that collection. Offset paging asks the same filter and sort for page after page; without
 * the memo every page of a 10,000-service walk would filter and sort the whole collection again
 * (docs/architecture.md "Start-up", bulk benchmark).
 */

/** Most distinct filter/sort combinations kept per generation; the least recently used goes first. */
const MAX_ENTRIES = 16;

export class MatchMemo<T> {
  private generation = -1;
  private readonly entries = new Map<string, readonly T[]>();

  /** @param currentGeneration the collection's change counter: any write must change it. */
  constructor(private readonly currentGeneration: () => number) {}

  /**
   * The matches stored under `key` for the current generation, or `compute()` stored under it. The returned
   * array is shared by later callers: never mutate it.
   */
  get(key: string, compute: () => T[]): readonly T[] {
    const generation = this.currentGeneration();
    if (generation !== this.generation) {
      this.entries.clear();
      this.generation = generation;
    }
    const hit = this.entries.get(key);
    if (hit) {
      // Re-insert so Map order is least recently used first.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const matched = compute();
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, matched);
    return matched;
  }
}
