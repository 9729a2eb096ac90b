/**
 * The browser's source link, as a hook: while the view is open its source is probed every half second (the
 * command's short read, which gives up within 2 s), so a source that stops answering shows as "disconnected —
 * retrying (Ns)" within 2 s, whatever the panes' own reads are doing. While down, the probe is tried again after
 * 1, 2, 3, then every 5 seconds, each time after the address was looked up again (the local emulator started
 * on another port); `r` tries now. When it answers again, every pane is read again.
 */
import { type Dispatch, useEffect, useRef } from 'react';
import type { BrowserAction } from './browser-state.js';
import type { SourceLink } from './browser-spec.js';
import { errorText } from './browser-layout.js';

/** Time between probes while the source answers (ms). */
export const PROBE_EVERY_MS = 500;
/** Seconds before each retry while it does not; the last repeats. */
export const RETRY_SECONDS = [1, 2, 3, 5] as const;

/**
 * Runs the link of a view. `relink` is the state's counter bumped by `r` (try now, looking the address up
 * again); `failed` changes when a pane's read fails (probe now rather than at the next tick).
 */
export function useSourceLink(link: SourceLink | undefined, dispatch: Dispatch<BrowserAction>, relink: number, failed: string): void {
  // Ends the current wait early (r, a failed read); replaced by each wait.
  const wake = useRef<() => void>(() => undefined);
  const forced = useRef(false);

  useEffect(() => {
    if (!link) return;
    const stop = new AbortController();
    const sleep = (ms: number) =>
      new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          stop.signal.removeEventListener('abort', done);
          wake.current = () => undefined;
          resolve();
        };
        const timer = setTimeout(done, ms);
        stop.signal.addEventListener('abort', done);
        wake.current = done;
      });
    void (async () => {
      let down = 0;
      while (!stop.signal.aborted) {
        const force = forced.current;
        forced.current = false;
        if (down > 0 || force) await link.relink().catch(() => undefined);
        try {
          await link.probe(stop.signal);
          if (stop.signal.aborted) return;
          if (down > 0 || force) dispatch({ type: 'link-up', refresh: true });
          down = 0;
          await sleep(PROBE_EVERY_MS);
        } catch (err) {
          if (stop.signal.aborted) return;
          down++;
          const reason = errorText(err);
          for (let wait: number = RETRY_SECONDS[Math.min(down, RETRY_SECONDS.length) - 1]!; wait > 0 && !forced.current && !stop.signal.aborted; wait--) {
            dispatch({ type: 'link-down', reason, retryIn: wait });
            await sleep(1000);
          }
          if (!stop.signal.aborted) dispatch({ type: 'link-down', reason, retryIn: 0 });
        }
      }
    })();
    return () => stop.abort();
  }, [link, dispatch]);

  useEffect(() => {
    if (relink === 0) return;
    forced.current = true;
    wake.current();
  }, [relink]);

  useEffect(() => {
    if (failed) wake.current();
  }, [failed]);
}
