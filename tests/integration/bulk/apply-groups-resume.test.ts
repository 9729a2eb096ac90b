/**
 * The add-on group run of `services apply` (docs/catalogue.md "Add-on groups") killed with SIGKILL part way
 * through, through the built CLI against a real emulator on port 0: `services apply --resume` of its journal
 * finishes it, every service holding its groups once (none made twice), and a second apply plans nothing.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binPath, cliEnv, createCliSandbox, repoRoot, runCli, startTestEmulator, type CliSandbox, type TestEmulator } from '../../helpers/index.js';
import { setFaults } from './support.js';

let emu: TestEmulator;
let sandbox: CliSandbox;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 5, bookings: 0 });
  sandbox = createCliSandbox();
});
afterAll(async () => {
  await emu?.close();
  sandbox?.cleanup();
});

/** An API call on a site (the emulator's own, with the test's key). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function call(siteId: string, path: string, body: unknown): Promise<any> {
  const res = await fetch(`${emu.url}${path}`, { method: 'POST', headers: { authorization: emu.apiKey, 'wix-site-id': siteId, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = await res.json();
  expect(res.status, JSON.stringify(json)).toBe(200);
  return json;
}

/** The add-on groups of the site's services named `Resume Groups ...`, by main slug: [group name, add-on ids]. */
async function groupsOn(siteId: string): Promise<Map<string, [string, string[]][]>> {
  const { services } = await call(siteId, '/_api/bookings/v2/services/query', { query: { filter: { name: { $startsWith: 'Resume Groups' } }, paging: { limit: 100 } } });
  return new Map((services as { mainSlug: { name: string }; addOnGroups?: { name: string; addOnIds: string[] }[] }[]).map((s) => [s.mainSlug.name, (s.addOnGroups ?? []).map((g): [string, string[]] => [g.name, g.addOnIds]).sort()]));
}

const journalsDir = () => join(sandbox.stateDir, 'journals');
/** The journal of the group run (its planned lines are groups steps), once it is there. */
function groupJournal(): string | undefined {
  if (!existsSync(journalsDir())) return undefined;
  for (const f of readdirSync(journalsDir()).filter((x) => x.endsWith('.ndjson'))) {
    try {
      if (readFileSync(join(journalsDir(), f), 'utf8').includes('"op":"groups"')) return join(journalsDir(), f);
    } catch {
      // gone between the listing and the read
    }
  }
  return undefined;
}

describe('services apply of add-on groups, killed', () => {
  it('killed with SIGKILL in the group run, then --resume: every service holds its groups once; a re-run plans nothing', async () => {
    const oil = { name: 'Oil', price: { value: '4', currency: 'USD' }, maxQuantity: 3 };
    const towel = { name: 'Towel', price: { value: '2', currency: 'USD' }, maxQuantity: 1 };
    const a = (await call(emu.siteId, '/addons/v1/add-ons', { addOn: oil })).addOn.id;
    const b = (await call(emu.siteId, '/addons/v1/add-ons', { addOn: towel })).addOn.id;
    const count = 12;
    for (let n = 1; n <= count; n++) {
      const { service } = await call(emu.siteId, '/bookings/v2/services', { service: { name: `Resume Groups ${n}`, type: 'APPOINTMENT', payment: { rateType: 'FIXED', fixed: { price: { value: '30', currency: 'USD' } } } } });
      await call(emu.siteId, '/bookings/v2/services/add-on-groups/create', { serviceId: service.id, addOnGroup: { name: 'Extras', addOnIds: [a, b] } });
      await call(emu.siteId, '/bookings/v2/services/add-on-groups/create', { serviceId: service.id, addOnGroup: { name: 'Towels', maxNumberOfAddOns: 1, addOnIds: [b] } });
    }
    const exported = await runCli(['services', 'export', '--filter', JSON.stringify({ name: { $startsWith: 'Resume Groups' } })], { emulator: emu, sandbox });
    expect(exported.code, exported.stderr).toBe(0);
    const file = join(sandbox.root, 'groups.json');
    writeFileSync(file, exported.stdout);
    const site = (await emu.request('POST', '/__emulator/sites', { name: 'Resume Groups Site' })).body.site as { id: string; name: string };
    const oilThere = (await call(site.id, '/addons/v1/add-ons', { addOn: oil })).addOn.id;
    const towelThere = (await call(site.id, '/addons/v1/add-ons', { addOn: towel })).addOn.id;
    const wanted: [string, string[]][] = [
      ['Extras', [oilThere, towelThere]],
      ['Towels', [towelThere]],
    ];

    // A slow emulator: the kill lands after some services got their groups and before all did.
    await setFaults(emu, { latencyMs: 30 });
    const child = spawn(process.execPath, [binPath, 'services', 'apply', '-f', file, '--to-site', site.name, '--yes'], { cwd: repoRoot, env: cliEnv(sandbox, emu), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    try {
      const deadline = Date.now() + 60_000;
      const someDone = async () => [...(await groupsOn(site.id)).values()].some((g) => g.length > 0);
      while (!(groupJournal() && (await someDone())) && Date.now() < deadline) await new Promise((res) => setTimeout(res, 5));
    } finally {
      child.kill('SIGKILL');
    }
    expect(await exited, stderr).toBe('SIGKILL');
    await setFaults(emu, { latencyMs: 0 });
    const partial = await groupsOn(site.id);
    expect(partial.size).toBe(count);
    expect([...partial.values()].filter((g) => JSON.stringify(g) === JSON.stringify(wanted)).length).toBeLessThan(count);

    const journal = groupJournal()!;
    const resumed = await runCli(['services', 'apply', '--resume', journal, '--yes'], { emulator: emu, sandbox, timeoutMs: 60_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    const after = await groupsOn(site.id);
    for (const [slug, groups] of after) expect(groups, slug).toEqual(wanted);
    const again = await runCli(['services', 'apply', '-f', file, '--to-site', site.name, '--dry-run'], { emulator: emu, sandbox });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/already up to date/);
  });
});
