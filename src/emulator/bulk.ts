/**
 * The platform's bulk reply for any family (docs/wire.md §7): `{results:[{itemMetadata:{id,
 * originalIndex, success, error?}, item?}], bulkActionMetadata:{totalSuccesses, totalFailures,
 * undetailedFailures}}`. Each item runs in a savepoint of its own, so a failing item leaves nothing behind and
 * the others go on; its error carries the same code, description and data the single call would.
 */
import { toItemError } from './errors.js';
import type { Store } from './store/store.js';

// Type aliases, not interfaces: the reply must be assignable to the schema's loose (index-signature) types.
export type BulkItemResult<T> = {
  itemMetadata: {
    id?: string;
    originalIndex: number;
    success: boolean;
    error?: { code: string; description: string; data: Record<string, unknown> };
  };
  item?: T;
};

export type BulkReply<T> = {
  results: BulkItemResult<T>[];
  bulkActionMetadata: { totalSuccesses: number; totalFailures: number; undetailedFailures: number };
};

/**
 * Runs `fn` for each item and reports each outcome.
 * @param returnEntity include the resulting entity as `item` (never for deletes: pass false)
 * @param idOf the id to report for an item that failed (its id when the request named one)
 * @throws whatever `fn` throws that is not an emulator error (a bug: the whole request fails with 500)
 */
export function bulkReply<I, T extends { id: string }>(
  store: Store,
  items: readonly I[],
  returnEntity: boolean,
  idOf: (item: I) => string | undefined,
  fn: (item: I, index: number) => T,
): BulkReply<T> {
  const results: BulkItemResult<T>[] = [];
  let failures = 0;
  items.forEach((item, originalIndex) => {
    try {
      const doc = store.tx(() => fn(item, originalIndex));
      results.push({ itemMetadata: { id: doc.id, originalIndex, success: true }, ...(returnEntity ? { item: doc } : {}) });
    } catch (err) {
      failures++;
      const id = idOf(item);
      results.push({ itemMetadata: { ...(id ? { id } : {}), originalIndex, success: false, error: toItemError(err) } });
    }
  });
  return {
    results,
    bulkActionMetadata: { totalSuccesses: items.length - failures, totalFailures: failures, undetailedFailures: 0 },
  };
}
