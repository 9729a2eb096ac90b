/**
 * Waits the bulk engine makes (backoff between attempts, a server's Retry-After, a read retried) end at once on
 * Ctrl-C (docs/architecture.md "Bulk runs, the journal, history and undo": "every wait is interruptible").
 */
import { setTimeout as delay } from 'node:timers/promises';

/**
 * Resolves after `ms`, or rejects with the signal's reason (an AbortError) as soon as `signal` aborts.
 * @throws the abort reason when `signal` is (or becomes) aborted
 */
export async function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  signal?.throwIfAborted();
  await delay(Math.max(0, ms), undefined, signal ? { signal } : undefined);
}
