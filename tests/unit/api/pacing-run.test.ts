/**
 * A paced run on a fake clock (src/api/pacer.ts, docs/wire.md §7): N requests from several concurrent streams
 * against a server that answers 429 with Retry-After above R requests in a one-second window (the emulator's fault
 * limiter: a window opens at the first request after the last one ended). The streams do what the client does
 * (retry.ts): wait out the site's pause, take a slot, send, and on a 429 wait the Retry-After and send again. After
 * the first 429's pause no second holds more than R sends, and the run ends within 1.2x N / R: for one site whose
 * own limit it is, and for a fan-out whose sites share one limit (the origin's limiter takes over).
 */
import { describe, expect, it } from 'vitest';
import { Pacers } from '../../../src/api/pacer.js';

interface RunResult {
  /** Times of the sends the server counted (ms from the start). */
  sends: number[];
  /** Times of the 429s. */
  throttled: number[];
  /** When the last reply came (ms from the start). */
  endMs: number;
}

/**
 * Runs `perSite` requests on each of `sites` sites, `atOnce` sites at a time (the next starts when one ends) and
 * `streams` requests at once per site, against a fixed-window limit of `limit` a second counted over all sites
 * (`shared`) or per site; each reply takes `latencyMs`.
 */
function simulate(opts: { sites: number; atOnce: number; perSite: number; streams: number; limit: number; retryAfterS: number; shared: boolean; latencyMs: number }): RunResult {
  let now = 0;
  const pacers = new Pacers(() => now);
  const windows = new Map<string, { start: number; count: number }>();
  const result: RunResult = { sends: [], throttled: [], endMs: 0 };
  /** A stream's next step and when it is due; `check`: its booked slot came, see whether a pause began meanwhile. */
  type Step = { at: number; seq: number; site: number; kind: 'pace' | 'check' | 'reply'; status?: number };
  const queue: Step[] = [];
  let seq = 0;
  const push = (s: Omit<Step, 'seq'>) => queue.push({ ...s, seq: seq++ });
  const left = Array.from({ length: opts.sites }, () => opts.perSite);
  const done = Array.from({ length: opts.sites }, () => 0);
  let started = 0;
  const pacerOf = (site: number) => pacers.get('http://127.0.0.1:1', `site:s${site}`);
  const startNext = (site: number) => {
    if (left[site]! <= 0) return;
    left[site]! -= 1;
    push({ at: now, site, kind: 'pace' });
  };
  const startSite = () => {
    if (started >= opts.sites) return;
    const site = started++;
    for (let i = 0; i < opts.streams; i++) startNext(site);
  };
  const send = (site: number) => {
    const key = opts.shared ? '' : String(site);
    let w = windows.get(key);
    if (!w || now - w.start >= 1000) windows.set(key, (w = { start: now, count: 0 }));
    const refused = ++w.count > opts.limit;
    result.sends.push(now);
    pacerOf(site).sending();
    push({ at: now + opts.latencyMs, site, kind: 'reply', status: refused ? 429 : 200 });
  };
  for (let i = 0; i < opts.atOnce; i++) startSite();
  while (queue.length) {
    queue.sort((a, b) => a.at - b.at || a.seq - b.seq);
    const step = queue.shift()!;
    now = step.at;
    const pacer = pacerOf(step.site);
    if (step.kind === 'reply') {
      if (step.status === 429) {
        result.throttled.push(now);
        pacer.replied(429, opts.retryAfterS * 1000);
        // The client waits the Retry-After, then takes a slot again.
        push({ at: now + opts.retryAfterS * 1000, site: step.site, kind: 'pace' });
      } else {
        pacer.replied(200);
        result.endMs = now;
        startNext(step.site);
        if (++done[step.site]! === opts.perSite) startSite();
      }
      continue;
    }
    // As retry.ts `paced` does: out the pause, then a slot; after waiting for a slot, a pause begun meanwhile is waited.
    const paused = pacer.pausedFor();
    if (paused > 0) {
      push({ at: now + paused, site: step.site, kind: 'pace' });
      continue;
    }
    if (step.kind === 'check') {
      send(step.site);
      continue;
    }
    const ms = pacer.reserve();
    if (ms <= 0) send(step.site);
    else push({ at: now + ms, site: step.site, kind: 'check' });
  }
  return result;
}

/** The most sends in any one-second window opening at or after `from`. */
function mostInASecond(sends: number[], from: number): number {
  const after = sends.filter((t) => t >= from);
  let most = 0;
  for (let i = 0, j = 0; i < after.length; i++) {
    while (after[i]! - after[j]! >= 1000) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

describe('a paced run against a limit of R requests a second with Retry-After', () => {
  const R = 50;

  it('one site, its own limit, 4 requests at once: at most R a second after the first 429, within 1.2x N / R', () => {
    const N = 600;
    const run = simulate({ sites: 1, atOnce: 1, perSite: N, streams: 4, limit: R, retryAfterS: 2, shared: false, latencyMs: 5 });
    expect(run.sends.length - run.throttled.length).toBe(N);
    expect(run.throttled.length).toBeGreaterThan(0);
    const resumed = run.throttled[0]! + 2000;
    expect(mostInASecond(run.sends, resumed)).toBeLessThanOrEqual(R);
    expect(run.endMs).toBeLessThanOrEqual(1.2 * (N / R) * 1000);
    // Learned once: no burst of 429s after the first overshoot.
    expect(run.throttled.filter((t) => t >= resumed).length).toBeLessThanOrEqual(2);
  });

  it('a fan-out to 100 sites, 4 at a time, sharing one limit: the origin paces them all, within 1.2x N / R', () => {
    // 100 sites of 10 requests, 4 sites at a time as `services clone` runs them, 2 requests at once in each.
    const N = 1000;
    const run = simulate({ sites: 100, atOnce: 4, perSite: 10, streams: 2, limit: R, retryAfterS: 2, shared: true, latencyMs: 5 });
    expect(run.sends.length - run.throttled.length).toBe(N);
    const resumed = run.throttled[0]! + 2000;
    expect(mostInASecond(run.sends, resumed)).toBeLessThanOrEqual(R);
    expect(run.endMs).toBeLessThanOrEqual(1.2 * (N / R) * 1000);
    expect(run.throttled.filter((t) => t >= resumed).length).toBeLessThanOrEqual(4);
  });

  it("two sites of one origin refused within a second hand the rate to the origin's limiter; sites of two origins do not", () => {
    let now = 0;
    const pacers = new Pacers(() => now);
    const sites = [0, 1, 2, 3].map((i) => pacers.get(`http://127.0.0.1:${i}`, 'site:x'));
    // Two sites refused within a second at the same origin take the origin's limiter; at different origins they do not.
    sites[0]!.replied(200);
    sites[0]!.replied(429, 2000);
    now += 10;
    sites[1]!.replied(429, 2000);
    expect(pacers.stats('http://127.0.0.1:0').originRate).toBeUndefined();
    const one = new Pacers(() => now);
    const a = one.get('http://o', 'site:a');
    const b = one.get('http://o', 'site:b');
    for (let i = 0; i < 40; i++) (i % 2 ? a : b).replied(200);
    a.replied(429, 2000);
    expect(one.stats('http://o').originRate).toBeUndefined();
    b.replied(429, 2000);
    expect(one.stats('http://o').originRate).toBeCloseTo(36, 5);
    // The rate and the pause a site took alone are dropped: the origin's pace rules, the refused calls wait their Retry-After.
    expect(a.rate).toBeUndefined();
    expect(a.pausedFor()).toBe(0);
    expect(b.pausedFor()).toBe(0);
  });
});

describe('a fan-out against a limit of each site (the platform: per app instance)', () => {
  it("sites refused together are paced at their limits together, within 1.2x of the sites' minimum", () => {
    // 8 sites of 100 requests, 4 at a time, each site allowed 10 a second: the minimum is 800 / 40 = 20 s.
    const run = simulate({ sites: 8, atOnce: 4, perSite: 100, streams: 2, limit: 10, retryAfterS: 2, shared: false, latencyMs: 5 });
    expect(run.sends.length - run.throttled.length).toBe(800);
    expect(run.endMs).toBeLessThanOrEqual(1.2 * 20_000);
  });
});
