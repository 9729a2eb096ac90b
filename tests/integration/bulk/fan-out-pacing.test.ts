/**
 * A fan-out under the platform's kind of rate limit (docs/wire.md §7): `services clone` to 3 sites
 * while the emulator answers 429 with Retry-After above a few requests a second per site. The client paces each
 * site (api/pacer.ts) and retries what was refused: every site ends with the catalogue once (nothing lost, nothing
 * doubled), stdout carries only the JSON report, stderr one line per site and a last line whose count of 429s is the
 * server's. No timing is asserted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, runInProcess, startTestEmulator, type CliSandbox, type TestEmulator } from '../../helpers/index.js';
import { setFaults } from './support.js';

let emu: TestEmulator;
let sandbox: CliSandbox;
const sites: { id: string; name: string }[] = [];

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 12, bookings: 0 });
  sandbox = createCliSandbox();
  for (const name of ['Paced One', 'Paced Two', 'Paced Three']) sites.push((await emu.request('POST', '/__emulator/sites', { name })).body.site);
});
afterAll(async () => {
  await emu?.close();
  sandbox?.cleanup();
});

/** The main slugs of a site's services, sorted (one entry per service). */
async function slugsOf(siteId: string): Promise<string[]> {
  const res = await fetch(`${emu.url}/_api/bookings/v2/services/query`, {
    method: 'POST',
    headers: { authorization: emu.apiKey, 'wix-site-id': siteId, 'content-type': 'application/json' },
    body: JSON.stringify({ query: { paging: { limit: 100 } } }),
  });
  const body = (await res.json()) as { services: { mainSlug?: { name: string } }[] };
  return body.services.map((s) => s.mainSlug?.name ?? '?').sort();
}

describe('a fan-out under a per-site rate limit', () => {
  it('clones to 3 sites with nothing lost or doubled; a line per site on stderr; the 429s it counts are the server\'s', async () => {
    const source = await slugsOf(emu.siteId);
    expect(source).toHaveLength(12);
    // Three requests a second per site: planning a site alone takes more than that, so the limit is met.
    await setFaults(emu, { rateLimitPerSec: 3, rateLimitScope: 'site', retryAfterSec: 1 });
    let r: Awaited<ReturnType<typeof runInProcess>>;
    let counted: { requests: number; throttled: number };
    try {
      r = await runInProcess(['services', 'clone', ...sites.flatMap((s) => ['--to-site', s.id]), '--filter', '{}', '--yes', '--json'], { emulator: emu, sandbox });
    } finally {
      counted = (await emu.request('GET', '/__emulator/faults')).body.counted;
      await setFaults(emu, { rateLimitPerSec: 0, rateLimitScope: 'all' });
    }
    expect(r.code, r.stderr).toBe(0);
    // stdout: the report only.
    const report = JSON.parse(r.stdout) as { sites: { siteId: string; status: string; counts: Record<string, number> }[] };
    expect(report.sites.map((s) => [s.siteId, s.status, s.counts.created])).toEqual(sites.map((s) => [s.id, 'applied', 12]));
    for (const s of sites) expect(await slugsOf(s.id)).toEqual(source);
    // Off a terminal: one line per site as it ends, then the counts of the whole run.
    for (const s of sites) expect(r.stderr).toMatch(new RegExp(`^site ${s.name}: applied, 12 created \\[\\d/3 sites, \\d+ items, \\d+ rate-limited, `, 'm'));
    const last = /^applying: 3\/3 sites, 36 items, (\d+) rate-limited, [\d.]+ req\/s/m.exec(r.stderr);
    expect(last, r.stderr).not.toBeNull();
    expect(counted.throttled).toBeGreaterThan(0);
    expect(Number(last![1])).toBe(counted.throttled);
  });

  it('on a terminal, the counter is drawn on stderr (sites, items, 429s, rate) and stdout stays the report', async () => {
    const more = [];
    for (const name of ['Counter One', 'Counter Two']) more.push((await emu.request('POST', '/__emulator/sites', { name })).body.site);
    const r = await runInProcess(['services', 'clone', ...more.flatMap((s: { id: string }) => ['--to-site', s.id]), '--filter', '{}', '--yes', '--json'], { emulator: emu, sandbox, stderrTty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).sites).toHaveLength(2);
    expect(r.stderr).toMatch(/applying .*2\/2 .*24 items, \d+ rate-limited, [\d.]+ req\/s/);
    // The per-site journal lines are left to the summary while the counter owns the line.
    expect(r.stderr).not.toMatch(/^site Counter One: journal /m);
  });
});
