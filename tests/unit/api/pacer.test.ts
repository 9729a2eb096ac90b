/**
 * The pacer (src/api/pacer.ts) on a fake clock: it sends at once until a 429, then spreads sends evenly at the rate
 * the platform let through, waits out Retry-After, probes back up, and a new site of the same origin starts at
 * the rate its siblings learned.
 */
import { describe, expect, it } from 'vitest';
import { Pacer, Pacers } from '../../../src/api/pacer.js';
import { API_KEY, harness, on, ORIGIN, SITE_ID } from './helpers.js';

/** A clock that moves only when told. */
function fakeClock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/** `n` sends that reply 200 one after the other at `everyMs`; returns the waits reserve() asked for. */
function sendAll(pacer: Pacer, clock: ReturnType<typeof fakeClock>, n: number): number[] {
  const waits: number[] = [];
  for (let i = 0; i < n; i++) {
    const ms = pacer.reserve();
    waits.push(ms);
    clock.advance(ms);
    pacer.replied(200);
  }
  return waits;
}

describe('Pacer', () => {
  it('sends at once while no 429 has come (a single call waits for nothing)', () => {
    const clock = fakeClock();
    const pacer = new Pacer(clock.now);
    expect(sendAll(pacer, clock, 50)).toEqual(new Array(50).fill(0));
    expect(pacer.rate).toBeUndefined();
  });

  it('learns from a 429 what went through in the last second, waits out Retry-After, then spreads the sends evenly', () => {
    const clock = fakeClock();
    const pacer = new Pacer(clock.now);
    // 50 replies accepted within the last second (20 ms apart), then a 429 asking for 2 s.
    for (let i = 0; i < 50; i++) {
      expect(pacer.reserve()).toBe(0);
      clock.advance(20);
      pacer.replied(200);
    }
    pacer.replied(429, 2000);
    expect(pacer.rate).toBeCloseTo(45, 0);
    expect(pacer.throttled).toBe(1);
    // Nothing goes out during the pause; reserve() books nothing then.
    expect(pacer.pausedFor()).toBe(2000);
    expect(pacer.reserve()).toBe(2000);
    clock.advance(2000);
    expect(pacer.pausedFor()).toBe(0);
    // Ten concurrent requests now get slots 1/45 s apart instead of all at once.
    const slots = Array.from({ length: 10 }, () => pacer.reserve());
    const gaps = slots.slice(1).map((s, i) => s - slots[i]!);
    expect(slots[0]).toBe(0);
    for (const g of gaps) expect(g).toBeCloseTo(1000 / 45, 5);
  });

  it('one overshoot lowers the rate once, however many 429s it brought', () => {
    const clock = fakeClock();
    const pacer = new Pacer(clock.now, 20);
    sendAll(pacer, clock, 20);
    const before = pacer.rate!;
    pacer.replied(429, 1000);
    const once = pacer.rate!;
    // What went through over the last second (20) x 0.9, and at least 10 % below the rate it had.
    expect(once).toBeCloseTo(18, 5);
    expect(once).toBeLessThanOrEqual(before * 0.9);
    for (let i = 0; i < 4; i++) pacer.replied(429, 1000);
    expect(pacer.rate).toBe(once);
    expect(pacer.throttled).toBe(5);
    // A second later, another 429 is another overshoot.
    clock.advance(1000);
    pacer.replied(429, 1000);
    expect(pacer.rate!).toBeLessThan(once);
  });

  it('never goes below one request per Retry-After, and a 429 with nothing let through only pauses', () => {
    const clock = fakeClock();
    const fresh = new Pacer(clock.now);
    fresh.replied(429, 500);
    expect(fresh.rate).toBeUndefined();
    expect(fresh.pausedFor()).toBe(500);
    const paced = new Pacer(clock.now, 1);
    paced.replied(429, 100);
    expect(paced.rate).toBe(10);
  });

  it('probes back up: slowly right after a 429, by 5 % a second after 30 s without one, and stops pacing far above', () => {
    const clock = fakeClock();
    const pacer = new Pacer(clock.now, 10);
    pacer.replied(429);
    const learned = pacer.rate!;
    sendAll(pacer, clock, 10);
    // Right after the 429: +0.01 a reply.
    expect(pacer.rate).toBeCloseTo(learned + 0.1, 5);
    clock.advance(30_001);
    // Then +0.05 a reply: at the paced rate, 5 % a second (never a burst: 10 replies raise it by 0.5).
    sendAll(pacer, clock, 10);
    expect(pacer.rate).toBeCloseTo(learned + 0.6, 5);
    // A lifted limit is found again: sent at the paced rate for 100 s of the clock, it goes past 1,000 req/s and stops pacing.
    const start = clock.now();
    while (pacer.rate !== undefined && clock.now() - start < 100_000) sendAll(pacer, clock, 1);
    expect(pacer.rate).toBeUndefined();
    expect(pacer.reserve()).toBe(0);
  });
});

describe('Pacers', () => {
  it('one pacer per origin and site, shared; a new site starts at the mean rate its origin learned', () => {
    const clock = fakeClock();
    const pacers = new Pacers(clock.now);
    const a = pacers.get('http://127.0.0.1:1', 'site:a');
    expect(pacers.get('http://127.0.0.1:1', 'site:a')).toBe(a);
    expect(pacers.get('http://127.0.0.1:1', 'site:b').rate).toBeUndefined();
    for (let i = 0; i < 10; i++) {
      clock.advance(50);
      a.replied(200);
    }
    a.replied(429, 1000);
    expect(a.rate).toBe(9);
    expect(pacers.get('http://127.0.0.1:1', 'site:c').rate).toBe(9);
    // Another origin learns nothing from it.
    expect(pacers.get('http://127.0.0.1:2', 'site:a').rate).toBeUndefined();
    expect(pacers.stats('http://127.0.0.1:1')).toMatchObject({ replies: 11, throttled: 1, rate: 9, pausedMs: 1000 });
  });
});

describe('the client takes its slots from the pacer of its origin and site', () => {
  it("a 429 holds every client of the site for its Retry-After, and a call's budget starts when it leaves that wait", async () => {
    const pacers = new Pacers();
    const a = harness({ pacers, budgetMs: 5000, retries: 0 });
    // Another client of the same site, whose whole budget is shorter than the pause.
    const b = harness({ pacers, budgetMs: 200 });
    const other = harness({ pacers, credentials: { kind: 'apiKey', apiKey: API_KEY, siteId: 'another-site' }, budgetMs: 200 });
    try {
      on(a, 'GET', '/t', () => ({ status: 429, headers: { 'retry-after': '0.3' } }));
      on(b, 'GET', '/t', () => ({ status: 200, data: { ok: true } }));
      on(other, 'GET', '/t', () => ({ status: 200, data: { ok: true } }));
      await expect(a.api.request({ method: 'GET', path: '/t' })).rejects.toMatchObject({ status: 429 });
      expect(pacers.stats().throttled).toBe(1);
      // Another site is not held.
      await expect(other.api.request({ method: 'GET', path: '/t' })).resolves.toEqual({ ok: true });
      expect(pacers.get(ORIGIN, `site:${SITE_ID}`).pausedFor()).toBeGreaterThan(0);
      await expect(b.api.request({ method: 'GET', path: '/t' })).resolves.toEqual({ ok: true });
      expect(pacers.get(ORIGIN, `site:${SITE_ID}`).pausedFor()).toBe(0);
      // The client's own retry waits are its sleep's (none here): the pause was the pacer's.
      expect(b.delays).toEqual([]);
    } finally {
      await Promise.all([a.agent.close(), b.agent.close(), other.agent.close()]);
    }
  });
});

describe('Pacer after a 429', () => {
  it('rises back to just under what the platform let through, and past it only after 30 s without a 429', () => {
    const clock = fakeClock();
    const pacer = new Pacer(clock.now);
    // 50 accepted within the last second, then a 429: 45 req/s, rising by 0.01 a reply up to 0.97 x 50.
    for (let i = 0; i < 50; i++) {
      clock.advance(20);
      pacer.replied(200);
    }
    pacer.replied(429, 1000);
    expect(pacer.rate).toBeCloseTo(45, 5);
    clock.advance(1000);
    sendAll(pacer, clock, 1000);
    expect(pacer.rate).toBeCloseTo(48.5, 5);
    clock.advance(30_000);
    sendAll(pacer, clock, 10);
    expect(pacer.rate).toBeCloseTo(49, 5);
  });

  it('refused again at a rate it learned, it rises back to just under that rate, whatever a second of replies counted', () => {
    const clock = fakeClock();
    const pacer = new Pacer(clock.now);
    // 57 replies within a second (two of the platform's windows straddled), then a 429: 51.3 req/s learned.
    for (let i = 0; i < 57; i++) {
      clock.advance(17);
      pacer.replied(200);
    }
    pacer.replied(429, 1000);
    expect(pacer.rate).toBeCloseTo(51.3, 5);
    clock.advance(1000);
    sendAll(pacer, clock, 100);
    const refusedAt = pacer.rate!;
    // Refused after a quiet second (no replies to count): the rate refused is the limit as far as is known.
    clock.advance(1000);
    pacer.replied(429, 1000);
    clock.advance(1000);
    sendAll(pacer, clock, 1000);
    expect(pacer.rate!).toBeLessThanOrEqual(refusedAt * 0.97 + 1e-9);
  });
});
