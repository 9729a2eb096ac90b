/**
 * `services clone --to-site` fanned out to several sites through the built CLI
 * (docs/catalogue.md "Diff and apply"): killed with SIGKILL in the middle of the fan-out, then each site's journal
 * `--resume`d, every site ends holding the catalogue once (no service created twice), and a re-run plans nothing.
 * The sites' plans wait on disk until each site runs (memory flat in the sites); a killed run's are swept.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binPath, cliEnv, createCliSandbox, repoRoot, runCli, startTestEmulator, type CliSandbox, type TestEmulator } from '../../helpers/index.js';
import { setFaults } from './support.js';

let emu: TestEmulator;
let sandbox: CliSandbox;
const sites: { id: string; name: string }[] = [];

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 60, bookings: 0 });
  sandbox = createCliSandbox();
  sites.push(emu.emulator.sites.find((s) => s.name === 'Uptown')!);
  for (const name of ['Mission Bay', 'Nob Hill', 'Sunset', 'Richmond', 'Marina', 'Presidio', 'Dogpatch']) sites.push((await emu.request('POST', '/__emulator/sites', { name })).body.site);
});
afterAll(async () => {
  await emu?.close();
  sandbox?.cleanup();
});

/** The main slugs of a site's services (one entry per service). */
async function slugsOf(siteId: string): Promise<string[]> {
  const out: string[] = [];
  for (let offset = 0; ; offset += 100) {
    const res = await fetch(`${emu.url}/_api/bookings/v2/services/query`, {
      method: 'POST',
      headers: { authorization: emu.apiKey, 'wix-site-id': siteId, 'content-type': 'application/json' },
      body: JSON.stringify({ query: { paging: { limit: 100, offset } } }),
    });
    const body = (await res.json()) as { services: { mainSlug?: { name: string } }[] };
    out.push(...body.services.map((s) => s.mainSlug?.name ?? '?'));
    if (body.services.length < 100) return out;
  }
}

const journalsDir = () => join(sandbox.stateDir, 'journals');
function resultLines(): number {
  if (!existsSync(journalsDir())) return 0;
  let n = 0;
  // A journal's header is written to a .tmp file and linked into place: skip those, and any that vanish meanwhile.
  for (const f of readdirSync(journalsDir()).filter((x) => x.endsWith('.ndjson'))) {
    try {
      n += readFileSync(join(journalsDir(), f), 'utf8').split('\n').filter((l) => l.includes('"kind":"result"')).length;
    } catch {
      // gone between the listing and the read
    }
  }
  return n;
}

describe('services clone --to-site, fanned out', () => {
  it('killed with SIGKILL mid fan-out, then --resume per site: every site complete, nothing duplicated', async () => {
    const source = (await slugsOf(emu.siteId)).sort();
    expect(source.length).toBe(60);
    const targets = sites.flatMap((s) => ['--to-site', s.name]);
    await setFaults(emu, { latencyMs: 40 });
    // Eight sites, four at a time, on a slow emulator: the kill lands with sites done, in flight and not started.
    const child = spawn(process.execPath, [binPath, 'services', 'clone', ...targets, '--filter', '{}', '--yes', '--concurrency', '1'], {
      cwd: repoRoot,
      env: cliEnv(sandbox, emu),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    try {
      const deadline = Date.now() + 40_000;
      while (resultLines() < 1 && Date.now() < deadline) await new Promise((res) => setTimeout(res, 10));
    } finally {
      child.kill('SIGKILL');
    }
    expect(await exited, stderr).toBe('SIGKILL');
    // The sites not started yet still had their plans on disk (only counts were in memory), under names history skips.
    const spilled = () => readdirSync(journalsDir()).filter((f) => /\.site-.+\.\d+\.planning$/.test(f));
    expect(spilled().length).toBeGreaterThan(0);
    await setFaults(emu, { latencyMs: 0 });
    const journals = readdirSync(journalsDir()).filter((f) => f.endsWith('.ndjson'));
    expect(journals.length).toBeGreaterThan(0);
    const partial = await Promise.all(sites.map((s) => slugsOf(s.id)));
    expect(partial.some((slugs) => slugs.length < source.length)).toBe(true);

    for (const j of journals) {
      const r = await runCli(['services', 'apply', '--resume', join(journalsDir(), j), '--yes', '--json'], { emulator: emu, sandbox, timeoutMs: 60_000 });
      // Killed before its plan was complete, a run changed nothing and says to start again (the clone below does).
      if (!readFileSync(join(journalsDir(), j), 'utf8').includes('"kind":"planned-all"')) {
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toMatch(/stopped while planning; nothing was changed/);
      } else expect(r.code, r.stderr).toBe(0);
    }
    // A site whose run had not started is completed by running the clone again; the others plan nothing.
    const again = await runCli(['services', 'clone', ...targets, '--filter', '{}', '--yes', '--json'], { emulator: emu, sandbox, timeoutMs: 60_000 });
    expect(again.code, again.stderr).toBe(0);
    const report = JSON.parse(again.stdout) as { sites: { siteName: string; counts: Record<string, number> }[] };
    for (const s of report.sites) expect(s.counts.updated, s.siteName).toBe(0);
    // The killed run's plans were swept by the next fan-out, which removed its own.
    expect(spilled()).toEqual([]);
    for (const s of sites) {
      const slugs = await slugsOf(s.id);
      expect(slugs.length, s.name).toBe(source.length);
      expect([...slugs].sort(), s.name).toEqual(source);
    }
    const last = await runCli(['services', 'clone', ...targets, '--filter', '{}', '--yes', '--json'], { emulator: emu, sandbox, timeoutMs: 60_000 });
    expect(JSON.parse(last.stdout).sites.map((s: { status: string }) => s.status)).toEqual(sites.map(() => 'unchanged'));
  });
});
