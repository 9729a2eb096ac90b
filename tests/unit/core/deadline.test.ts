/** `deadline`: a parent's abort or a timer, whichever comes first; the timer is kept alive by the controller. */
import { describe, expect, it } from 'vitest';
import { deadline } from '../../../src/core/deadline.js';

describe('deadline', () => {
  it('aborts with a TimeoutError after ms, and says it timed out', async () => {
    const parent = new AbortController();
    const d = deadline(parent.signal, 30);
    await new Promise((resolve) => d.signal.addEventListener('abort', resolve, { once: true }));
    expect(d.timedOut()).toBe(true);
    expect((d.signal.reason as DOMException).name).toBe('TimeoutError');
    expect(parent.signal.aborted).toBe(false);
    d.dispose();
  });

  it("aborts at once with the parent's reason when the parent aborts first", () => {
    const parent = new AbortController();
    const d = deadline(parent.signal, 60_000);
    parent.abort(new Error('Ctrl-C'));
    expect(d.signal.aborted).toBe(true);
    expect((d.signal.reason as Error).message).toBe('Ctrl-C');
    expect(d.timedOut()).toBe(false);
    d.dispose();
    const already = deadline(parent.signal, 60_000);
    expect(already.signal.aborted).toBe(true);
    already.dispose();
  });

  it('dispose clears the timer: the signal never aborts afterwards', async () => {
    const d = deadline(new AbortController().signal, 20);
    d.dispose();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(d.signal.aborted).toBe(false);
  });
});
