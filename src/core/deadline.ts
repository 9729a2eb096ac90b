/**
 * A signal that aborts when `parent` does or after `ms` milliseconds, whichever comes first (a `TimeoutError`
 * DOMException as the reason). Built from an AbortController and a timer rather than
 * `AbortSignal.any([parent, AbortSignal.timeout(ms)])`: on Node 20 the timeout signal inside `any()` can be
 * garbage-collected and then never fires, so a wait meant to end after `ms` could last forever.
 *
 * ```ts
 * const d = deadline(ctx.signal, 30_000);
 * try { await fetch(url, { signal: d.signal }); } finally { d.dispose(); }
 * ```
 * @returns the signal, whether it ended by the timer (`timedOut()`), and `dispose()` to clear the timer
 */
export function deadline(parent: AbortSignal, ms: number): { signal: AbortSignal; timedOut(): boolean; dispose(): void } {
  const controller = new AbortController();
  let expired = false;
  const onAbort = () => controller.abort(parent.reason);
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new DOMException(`timed out after ${ms} ms`, 'TimeoutError'));
  }, ms);
  // The timer alone must not keep the process alive after the work is done.
  timer.unref?.();
  if (parent.aborted) onAbort();
  else parent.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => expired,
    dispose() {
      clearTimeout(timer);
      parent.removeEventListener('abort', onAbort);
    },
  };
}
