/**
 * The waiting notices (src/core/waits.ts): what a wait says, when it is told, one line per wait off a terminal,
 * one line rewritten in place on one, nothing while held.
 */
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { waitNotices, waitText, type Wait } from '../../../src/core/waits.js';

const reply: Wait = { kind: 'reply', method: 'GET', path: '/_api/bookings/v2/services/abc', attempt: 1, attempts: 4, elapsedMs: 0 };
type Retry = Extract<Wait, { kind: 'retry' }>;
const rateLimit = (ms: number, elapsedMs = 0): Retry => ({ kind: 'retry', method: 'POST', path: '/x', attempt: 2, attempts: 4, elapsedMs, ms, asked: true, reason: 'rate limit' });

function sink() {
  const out = new PassThrough();
  let text = '';
  out.on('data', (c: Buffer) => (text += c.toString('utf8')));
  return { out, text: () => text };
}

describe('waitText', () => {
  it('says what is waited for, how long, which try, and how to stop it', () => {
    expect(waitText(rateLimit(59_000), 0)).toBe('the platform asks to wait 59 s (rate limit, try 2 of 4) - Ctrl-C to stop');
    expect(waitText(reply, 12_000)).toBe("waiting for the platform's reply to GET /_api/bookings/v2/services/abc (12 s, try 1 of 4) - Ctrl-C to stop");
    expect(waitText({ ...rateLimit(3500), asked: false, reason: 'no reply headers within 30 s', attempt: 3 }, 0)).toBe('trying again in 3.5 s (no reply headers within 30 s, try 3 of 4) - Ctrl-C to stop');
  });

  it('escapes control characters in a reason', () => {
    expect(waitText({ ...rateLimit(5000), reason: 'bad \u001b[2J\nthing' }, 0)).toContain('bad \\x1b[2J thing');
  });
});

describe('waitNotices', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('off a terminal: one line per wait that lasts, none for a short one', () => {
    const s = sink();
    let now = 0;
    const notice = waitNotices({ stderr: s.out, afterMs: 3000, inPlace: false, columns: 80, enabled: () => true, clock: () => now });
    expect(notice(rateLimit(2000))).toBeUndefined();
    expect(notice(rateLimit(2000, 2900))).toBeUndefined();
    // Short, but the call has taken 3 s already.
    notice(rateLimit(2000, 3000))?.();
    const end = notice(reply)!;
    now = 3000;
    vi.advanceTimersByTime(3000);
    now = 9000;
    vi.advanceTimersByTime(6000);
    end();
    expect(s.text()).toBe(
      'the platform asks to wait 2 s (rate limit, try 2 of 4) - Ctrl-C to stop\n' +
        "waiting for the platform's reply to GET /_api/bookings/v2/services/abc (3 s, try 1 of 4) - Ctrl-C to stop\n",
    );
  });

  it('a reply that comes before the threshold is never told', () => {
    const s = sink();
    const notice = waitNotices({ stderr: s.out, afterMs: 3000, inPlace: false, columns: 80, enabled: () => true });
    const end = notice(reply)!;
    vi.advanceTimersByTime(2999);
    end();
    vi.advanceTimersByTime(10_000);
    expect(s.text()).toBe('');
  });

  it('on a terminal: one line rewritten every second, erased when the wait ends', () => {
    const s = sink();
    let now = 0;
    const notice = waitNotices({ stderr: s.out, afterMs: 3000, inPlace: true, columns: 200, enabled: () => true, clock: () => now });
    const end = notice(reply)!;
    now = 3000;
    vi.advanceTimersByTime(3000);
    now = 4000;
    vi.advanceTimersByTime(1000);
    end();
    const frames = s.text().split('\r\u001b[K');
    expect(frames).toEqual(['', waitText(reply, 3000), waitText(reply, 4000), '']);
    // Nothing is drawn once it ended.
    vi.advanceTimersByTime(5000);
    expect(s.text().split('\r\u001b[K')).toHaveLength(4);
  });

  it('on a narrow terminal the line is cut so it never wraps', () => {
    const s = sink();
    const notice = waitNotices({ stderr: s.out, afterMs: 0, inPlace: true, columns: 60, enabled: () => true });
    notice(reply)!();
    const frames = s.text().split('\r\u001b[K');
    expect(frames[1]).toMatch(/^waiting for the platform's reply to GET .*…$/);
    expect(frames[1]!.length).toBe(59);
  });

  it('tells nothing while held', () => {
    const s = sink();
    let held = true;
    const notice = waitNotices({ stderr: s.out, afterMs: 0, inPlace: false, columns: 80, enabled: () => !held });
    expect(notice(rateLimit(30_000))).toBeUndefined();
    held = false;
    notice(rateLimit(30_000));
    expect(s.text()).toBe('the platform asks to wait 30 s (rate limit, try 2 of 4) - Ctrl-C to stop\n');
  });
});
