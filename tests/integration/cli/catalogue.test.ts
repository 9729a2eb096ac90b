/**
 * An account with several sites, and the services catalogue as a file (docs/catalogue.md "Sites of an account",
 * docs/catalogue.md "The catalogue file"), in process against a real emulator on port 0: `--site`, `sites list`,
 * the control plane's sites, `services export` and `services diff` with its exit codes.
 */
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answering, createCliSandbox, runInProcess, startTestEmulator, type CliResult, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';

let emu: TestEmulator;
const dir = mkdtempSync(join(tmpdir(), 'sitectl-catalogue-'));
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', bookings: 0 });
});
afterAll(async () => {
  await emu?.close();
});

const cli = (args: string[], opts: InProcessOptions = {}) => runInProcess(args, { emulator: emu, ...opts });
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const json = (r: CliResult): any => JSON.parse(r.stdout);
const uptown = () => emu.emulator.sites.find((s) => s.name === 'Uptown')!;

describe('an account with several sites', () => {
  it('has Downtown (demo data) and Uptown (same furniture names, its own ids, no services)', async () => {
    expect(emu.emulator.sites.map((s) => s.name)).toEqual(['Downtown', 'Uptown']);
    const sites = await cli(['sites', 'list', '--json']);
    expect(sites.code, sites.stderr).toBe(0);
    expect(json(sites)).toEqual([
      { id: emu.siteId, name: 'Downtown', current: true },
      { id: uptown().id, name: 'Uptown', current: false },
    ]);
    const here = json(await cli(['services', 'business-locations', 'list', '--json', 'id,name']));
    const there = json(await cli(['services', 'business-locations', 'list', '--json', 'id,name', '--site', 'uptown']));
    expect(there.map((l: { name: string }) => l.name).sort()).toEqual(here.map((l: { name: string }) => l.name).sort());
    expect(there.map((l: { id: string }) => l.id)).not.toEqual(expect.arrayContaining([here[0].id]));
    expect((await cli(['services', 'count', '--site', uptown().id])).stdout.trim()).toBe('0');
    expect(Number((await cli(['services', 'count'])).stdout.trim())).toBeGreaterThan(0);
  });

  it('takes --site before the noun too, with or without =', async () => {
    for (const args of [['--site', 'Uptown', 'services', 'count'], ['--site=Uptown', 'services', 'count'], ['--timeout', '30', '--site', 'Uptown', 'services', 'count']]) {
      const r = await cli(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stdout.trim()).toBe('0');
    }
    const sites = await cli(['--site', 'Uptown', 'sites', 'list', '--json']);
    expect(sites.code, sites.stderr).toBe(0);
    expect(json(sites).find((s: { current: boolean }) => s.current).name).toBe('Uptown');
  });

  it('refuses a site the account does not have (exit 2, listing its sites), on the wire too', async () => {
    const r = await cli(['services', 'count', '--site', 'Nowhere']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/error: --site: the account has no site 'Nowhere'/);
    expect(r.stderr).toMatch(/hint: its sites: Downtown \(.*\), Uptown/);
    const foreign = await emu.request('POST', '/_api/bookings/v2/services/count', {});
    expect(foreign.status).toBe(200);
    const res = await fetch(`${emu.url}/_api/bookings/v2/services/count`, {
      method: 'POST',
      headers: { authorization: emu.apiKey, 'wix-site-id': '00000000-0000-4000-8000-000000000000', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(403);
    // An account-level header reaches the sites query only, not a site's data.
    const accountOnly = await fetch(`${emu.url}/_api/bookings/v2/services/count`, {
      method: 'POST',
      headers: { authorization: emu.apiKey, 'wix-account-id': emu.accountId, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(accountOnly.status).toBe(401);
  });

  it('creates and removes sites through the control plane; the default site cannot be removed', async () => {
    const made = await emu.request('POST', '/__emulator/sites', { name: 'Mission Bay' });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = made.body.site.id;
    expect((await emu.request('POST', '/__emulator/sites', { name: 'mission bay' })).status).toBe(409);
    const key = JSON.parse(readFileSync(join(emu.dataDir, 'admin-key.json'), 'utf8'));
    expect(key.sites.map((s: { name: string }) => s.name)).toEqual(['Downtown', 'Uptown', 'Mission Bay']);
    const staff = json(await cli(['services', 'business-locations', 'list', '--json', 'name', '--site', 'Mission Bay']));
    expect(staff.length).toBeGreaterThan(0);
    expect((await emu.request('DELETE', `/__emulator/sites/${emu.siteId}`)).status).toBe(409);
    expect((await emu.request('DELETE', `/__emulator/sites/${id}`)).status).toBe(200);
    expect((await emu.request('DELETE', `/__emulator/sites/${id}`)).status).toBe(404);
    expect((await cli(['services', 'count', '--site', 'Mission Bay'])).code).toBe(2);
  });
});

describe('services export and diff', () => {
  it('exports a stable catalogue with references by name, as JSON or YAML, and diffs it against a site', async () => {
    const file = join(dir, 'classes.yaml');
    const r = await cli(['services', 'export', '--where', 'type=CLASS', '-o', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const catalogue = parseYaml(readFileSync(file, 'utf8'));
    expect(catalogue.kind).toBe('sitectl/services-catalogue');
    const slugs = catalogue.services.map((s: { slug: string }) => s.slug);
    expect(slugs).toEqual([...slugs].sort());
    expect(catalogue.services.every((s: { type: string }) => s.type === 'CLASS')).toBe(true);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toMatch(/\b(revision|createdDate|formattedValue|staffMemberIds)\b/);
    expect(text).not.toContain(emu.siteId);
    const one = catalogue.services[0];
    expect(typeof one.category).toBe('string');
    expect(one.locations[0]).toEqual({ business: expect.any(String) });
    // Stable: the same site exports the same text, and JSON holds the same catalogue.
    expect((await cli(['services', 'export', '--where', 'type=CLASS', '--format', 'yaml'])).stdout).toBe(text);
    expect(JSON.parse((await cli(['services', 'export', '--where', 'type=CLASS'])).stdout)).toEqual(catalogue);

    const same = await cli(['services', 'diff', '-f', file, '--exit-code', '--json']);
    expect(same.code, same.stderr).toBe(0);
    expect(json(same).sites[0]).toMatchObject({ siteId: emu.siteId, create: [], update: [], delete: [], unchanged: slugs.length, missing: [] });

    const there = await cli(['services', 'diff', '-f', file, '--site', 'Uptown', '--exit-code', '--json']);
    expect(there.code).toBe(1);
    expect(json(there).sites[0]).toMatchObject({ siteId: uptown().id, siteName: 'Uptown', create: slugs, update: [], unchanged: 0, missing: [] });

    // A changed field shows as one update with its path; --prune lists the site's services of the file's selection
    // (the classes) that the file no longer holds, and nothing outside it.
    catalogue.services[0].defaultCapacity = Number(catalogue.services[0].defaultCapacity) + 1;
    catalogue.services[0].payment.fixed = { price: { value: '99', currency: 'USD' } };
    const dropped = catalogue.services.pop().slug;
    writeFileSync(file, JSON.stringify(catalogue));
    const changed = await cli(['services', 'diff', '-f', file, '--prune']);
    expect(changed.code, changed.stderr).toBe(0);
    const rows = changed.stdout.trim().split('\n').map((l) => l.split('\t'));
    expect(rows).toEqual([
      ['update', slugs[0], 'defaultCapacity, payment.fixed.price.value'],
      ['delete', dropped],
    ]);
  });

  it('names references the target site lacks, and refuses bad files with exit 2', async () => {
    const file = join(dir, 'odd.json');
    const r = await cli(['services', 'export', '--where', 'type=APPOINTMENT']);
    const catalogue = JSON.parse(r.stdout);
    catalogue.services[0].staff = ['Nobody Here'];
    writeFileSync(file, JSON.stringify(catalogue));
    const d = await cli(['services', 'diff', '-f', file, '--json', 'sites']);
    expect(json(d).sites[0].missing).toEqual(['staff member "Nobody Here"']);
    expect(d.stderr).toContain('has no staff member "Nobody Here": apply would refuse the site');

    writeFileSync(file, JSON.stringify({ kind: 'other' }));
    const bad = await cli(['services', 'diff', '-f', file]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/is not a services catalogue/);
    writeFileSync(file, JSON.stringify({ ...catalogue, services: [catalogue.services[0], catalogue.services[0]] }));
    expect((await cli(['services', 'diff', '-f', file])).stderr).toMatch(/appears twice/);
    writeFileSync(file, JSON.stringify({ ...catalogue, services: [{ ...catalogue.services[0], colour: 'red' }] }));
    expect((await cli(['services', 'diff', '-f', file])).stderr).toMatch(/unknown field 'colour'/);
    writeFileSync(file, `{"kind":"sitectl/services-catalogue","version":1,"services":[{"slug":"a","name":"A","type":"CLASS","payment":{"__proto__":{"x":1}}}]}`);
    expect((await cli(['services', 'diff', '-f', file])).stderr).toMatch(/"services\[0\]\.payment\.__proto__" is not an allowed field name/);
    expect((await cli(['services', 'diff'])).code).toBe(2);
    expect((await cli(['services', 'export', '--format', 'xml'])).code).toBe(2);
  });
});

describe('catalogue files with mistakes', () => {
  // Each mistake is refused when the file is read, by every verb that reads one, with the same one-line error
  // naming the file, the service and the field, exit 2, before anything is read from or written to a site.
  const mistakes: Array<[string, (s: Record<string, unknown>) => void, RegExp]> = [
    ['an unknown key in a location', (s) => (s.locations = [{ busines: 'Downtown Studio' }]), /locations\[0\]: unknown field 'busines'; did you mean 'business'\?$/m],
    ['staff as text', (s) => (s.staff = 'Maya Chen'), /staff: must be a list of staff member names, such as \[Maya Chen\]$/m],
    ['locations as text', (s) => (s.locations = 'Downtown Studio'), /locations: must be a list of locations, each \{business: NAME\}/],
    ['pricing plans as text', (s) => (s.pricingPlans = 'Gold'), /pricingPlans: must be a list of pricing plan names/],
    ['a number for a booking policy', (s) => (s.bookingPolicy = 5), /bookingPolicy: must be the name of a booking policy \(text\)$/m],
    ['a number for a staff member', (s) => (s.staff = ['Maya Chen', 3]), /staff\[1\]: must be the name of a staff member \(text\)$/m],
    ['an object for a category', (s) => (s.category = { name: 'Yoga & Mindfulness' }), /category: must be the name of a category \(text\)$/m],
    ['a location in two forms at once', (s) => (s.locations = [{ business: 'Downtown Studio', type: 'CUSTOMER' }]), /locations\[0\]: must be exactly one of/],
    ['plan ids in payment', (s) => ((s.payment as Record<string, unknown>).pricingPlanIds = ['4f1c']), /payment\.pricingPlanIds: plan ids are not portable/],
  ];

  it.each(mistakes)('refuses %s in diff, apply and apply --dry-run alike (exit 2), before any write', async (_what, spoil, message) => {
    const made = await emu.request('POST', '/__emulator/sites', { name: 'Typo Site' });
    const site = made.body.site.id;
    try {
      // The whole demo catalogue with one mistake in one service: nothing of it may reach the site.
      const catalogue = JSON.parse((await cli(['services', 'export'])).stdout);
      const victim = catalogue.services[7];
      spoil(victim);
      const file = join(dir, 'mistake.json');
      writeFileSync(file, JSON.stringify(catalogue));
      const seq = (await emu.request('GET', '/__emulator/state')).body.events.lastSeq;
      const runs = {
        diff: await cli(['services', 'diff', '-f', file, '--site', 'Typo Site']),
        dryRun: await cli(['services', 'apply', '-f', file, '--to-site', 'Typo Site', '--dry-run']),
        apply: await cli(['services', 'apply', '-f', file, '--to-site', 'Typo Site', '--yes']),
      };
      const lines = new Set<string>();
      for (const [verb, r] of Object.entries(runs)) {
        expect(r.code, `${verb}: ${r.stderr}`).toBe(2);
        expect(r.stderr, verb).not.toMatch(/unexpected|is not a function|this is a bug/);
        const errors = r.stderr.split('\n').filter((l) => l.startsWith('error:'));
        expect(errors, `${verb}: ${r.stderr}`).toHaveLength(1);
        expect(errors[0]).toContain(`error: ${file}: service ${victim.slug}: `);
        expect(errors[0]).toMatch(message);
        lines.add(errors[0]!);
      }
      expect(lines.size, 'the same message in every verb').toBe(1);
      expect((await emu.request('GET', '/__emulator/state')).body.events.lastSeq).toBe(seq);
      expect((await cli(['services', 'count', '--site', 'Typo Site'])).stdout.trim()).toBe('0');
    } finally {
      await emu.request('DELETE', `/__emulator/sites/${site}`);
    }
  });

  it('still takes every location form the export writes', async () => {
    const catalogue = JSON.parse((await cli(['services', 'export', '--where', 'type=APPOINTMENT'])).stdout);
    catalogue.services[0].locations = [{ business: 'Downtown Studio' }, { custom: { address: { formatted: '1 Pier, San Francisco' } } }, { type: 'CUSTOMER' }];
    const file = join(dir, 'forms.json');
    writeFileSync(file, JSON.stringify(catalogue));
    const r = await cli(['services', 'diff', '-f', file, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(json(r).sites[0].update).toEqual([{ slug: catalogue.services[0].slug, fields: ['locations'] }]);
  });
});

describe('services apply and clone --to-site', () => {
  /** Services of a site by slug (id, revision, name). */
  async function siteServices(siteId: string): Promise<Map<string, { id: string; revision: string; name: string; defaultCapacity?: number }>> {
    const res = await fetch(`${emu.url}/_api/bookings/v2/services/query`, {
      method: 'POST',
      headers: { authorization: emu.apiKey, 'wix-site-id': siteId, 'content-type': 'application/json' },
      body: JSON.stringify({ query: { paging: { limit: 100 } } }),
    });
    const body = (await res.json()) as { services: Array<{ id: string; revision: string; name: string; defaultCapacity?: number; mainSlug?: { name: string } }> };
    return new Map(body.services.map((s) => [s.mainSlug!.name, s]));
  }

  it('clones the classes to Uptown with references mapped; a second run plans nothing', async () => {
    const r = await cli(['services', 'clone', '--to-site', 'Uptown', '--where', 'type=CLASS', '--yes', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const [site] = json(r).sites;
    expect(site).toMatchObject({ siteName: 'Uptown', status: 'applied' });
    const classes = json(await cli(['services', 'list', '--where', 'type=CLASS', '--json', 'id']));
    expect(site.counts.created).toBe(classes.length);
    const there = await siteServices(uptown().id);
    expect(there.size).toBe(classes.length);
    // Mapped: Uptown's services name Uptown's own locations and staff, never Downtown's ids.
    const one = json(await cli(['services', 'list', '--site', 'Uptown', '--json', 'locations,staffMemberIds,bookingPolicy']))[0];
    const upLocations = json(await cli(['services', 'business-locations', 'list', '--site', 'Uptown', '--json', 'id'])).map((l: { id: string }) => l.id);
    expect(upLocations).toEqual(expect.arrayContaining(one.locations.map((l: { business: { id: string } }) => l.business.id)));
    const again = await cli(['services', 'clone', '--to-site', 'Uptown', '--where', 'type=CLASS', '--yes', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(json(again).sites[0]).toMatchObject({ status: 'unchanged', counts: { created: 0, updated: 0, unchanged: classes.length } });
    const dry = await cli(['services', 'clone', '--to-site', 'Uptown', '--where', 'type=CLASS', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toMatch(/dry run: 1 site already up to date; nothing was changed/);
    expect((await cli(['services', 'diff', '-f', '-', '--site', 'Uptown', '--exit-code'], { input: (await cli(['services', 'export', '--where', 'type=CLASS'])).stdout })).code).toBe(0);
    // A field changed on the source propagates as one update of that service, and nothing else.
    const [src] = json(await cli(['services', 'list', '--where', 'type=CLASS', '--json', 'id,mainSlug', '--limit', '1']));
    expect((await cli(['services', 'update', src.id, '--set', 'tagLine=Now with live music'])).code).toBe(0);
    const third = await cli(['services', 'clone', '--to-site', 'Uptown', '--where', 'type=CLASS', '--yes', '--json']);
    expect(third.code, third.stderr).toBe(0);
    expect(json(third).sites[0].counts).toMatchObject({ created: 0, updated: 1, unchanged: classes.length - 1 });
    const copy = json(await cli(['services', 'list', '--site', 'Uptown', '--where', `mainSlug.name=${src.mainSlug.name}`, '--json', 'tagLine']));
    expect(copy).toEqual([{ tagLine: 'Now with live music' }]);
  });

  it('propagates a changed field as one update, and reports a service edited meanwhile as a conflict, not overwritten', async () => {
    const file = join(dir, 'apply.json');
    const catalogue = JSON.parse((await cli(['services', 'export', '--where', 'type=CLASS'])).stdout);
    const [first, second] = catalogue.services;
    first.defaultCapacity = 3;
    second.defaultCapacity = 4;
    writeFileSync(file, JSON.stringify(catalogue));
    const before = await siteServices(uptown().id);
    const edited = before.get(second.slug)!;
    // Someone edits the second service on Uptown while the prompt is up (after the plan was made).
    const prompter = answering(true);
    const ask = prompter.confirm.bind(prompter);
    prompter.confirm = async (q: string) => {
      const res = await fetch(`${emu.url}/_api/bookings/v2/services/${edited.id}`, {
        method: 'PATCH',
        headers: { authorization: emu.apiKey, 'wix-site-id': uptown().id, 'content-type': 'application/json' },
        body: JSON.stringify({ service: { id: edited.id, revision: edited.revision, tagLine: 'edited by hand' }, mask: 'tagLine' }),
      });
      expect(res.status).toBe(200);
      return ask(q);
    };
    const r = await cli(['services', 'apply', '-f', file, '--to-site', 'Uptown', '--json'], { tty: true, env: { CI: undefined }, prompter });
    expect(r.code, r.stderr).toBe(3);
    expect(prompter.asked[0]).toBe('Apply 2 changes (0 to create, 2 to update) to 1 site (Uptown)?');
    const [site] = json(r).sites;
    expect(site.counts).toMatchObject({ updated: 1, conflict: 1 });
    expect(site.problems[0]).toMatchObject({ id: second.slug, outcome: 'conflict' });
    const after = await siteServices(uptown().id);
    expect(after.get(first.slug)!.defaultCapacity).toBe(3);
    expect(Number(after.get(first.slug)!.revision)).toBe(Number(before.get(first.slug)!.revision) + 1);
    expect(after.get(second.slug)!.defaultCapacity).toBe(edited.defaultCapacity);
  });

  it('refuses a site that lacks a referenced staff member before any write, listing it', async () => {
    const made = await emu.request('POST', '/__emulator/sites', { name: 'Empty Lot' });
    const id = made.body.site.id;
    const file = join(dir, 'stranger.json');
    const catalogue = JSON.parse((await cli(['services', 'export', '--where', 'type=APPOINTMENT'])).stdout);
    catalogue.services[0].staff = ['Nobody Here'];
    writeFileSync(file, JSON.stringify(catalogue));
    const seq = (await emu.request('GET', '/__emulator/state')).body.events.lastSeq;
    // A refused site exits 3 (README, CI section), whether it is the only target or one of several.
    const r = await cli(['services', 'apply', '-f', file, '--to-site', 'Empty Lot', '--yes']);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/error: site Empty Lot lacks staff member "Nobody Here"; nothing was changed/);
    expect((await cli(['services', 'apply', '-f', file, '--to-site', 'Empty Lot', '--dry-run'])).code).toBe(3);
    // With several targets each refused site is in the summary (no site has that staff member), exit 3.
    const both = await cli(['services', 'apply', '-f', file, '--to-site', 'Empty Lot', '--to-site', 'Uptown', '--yes', '--json']);
    expect(both.code, both.stderr).toBe(3);
    expect(json(both).sites.map((s: { siteName: string; status: string; missing: string[] }) => [s.siteName, s.status, s.missing])).toEqual([
      ['Empty Lot', 'refused', ['staff member "Nobody Here"']],
      ['Uptown', 'refused', ['staff member "Nobody Here"']],
    ]);
    expect(both.stderr).toMatch(/error: 2 refused \(missing references\) of 2 sites/);
    const dry = await cli(['services', 'apply', '-f', file, '--to-site', 'Empty Lot', '--to-site', 'Uptown', '--dry-run']);
    expect(dry.code).toBe(3);
    expect(dry.stderr).toMatch(/2 of 2 sites would be refused \(missing references\): Empty Lot, Uptown/);
    expect((await emu.request('GET', '/__emulator/state')).body.events.lastSeq).toBe(seq);
    expect((await siteServices(id)).size).toBe(0);
    await emu.request('DELETE', `/__emulator/sites/${id}`);
  });

  it('checks its flags before reading anything', async () => {
    expect((await cli(['services', 'clone', '--to-site', 'Uptown'])).stderr).toMatch(/which services\?/);
    expect((await cli(['services', 'clone', '--to-site', 'Nowhere', '--where', 'type=CLASS', '--yes'])).code).toBe(2);
    expect((await cli(['services', 'clone', '--to-site', 'Uptown', '--where', 'type=CLASS', '--count', '2'])).code).toBe(2);
    expect((await cli(['services', 'clone', 'a', 'b'])).stderr).toMatch(/pass one id, or --to-site/);
    expect((await cli(['services', 'apply', '-f', join(dir, 'apply.json'), '--to-site', 'Uptown'])).stderr).toMatch(/needs confirmation.*no terminal/);
  });
});

describe('pricing plans in the catalogue', () => {
  it('writes linked plans by name, refuses a site without them, and links the site’s own plan of that name', async () => {
    const plans = json(await cli(['plans', 'list', '--json', 'id,name']));
    expect(plans.length).toBeGreaterThan(0);
    const [svc] = json(await cli(['services', 'list', '--where', 'type=APPOINTMENT', '--json', 'id,mainSlug', '--limit', '1']));
    expect((await cli(['services', 'pricing-plans', 'add', svc.id, plans[0].id])).code).toBe(0);
    const catalogue = JSON.parse((await cli(['services', 'export', '--where', `mainSlug.name=${svc.mainSlug.name}`])).stdout);
    expect(catalogue.services[0].pricingPlans).toEqual([plans[0].name]);
    expect(catalogue.services[0].payment.pricingPlanIds).toBeUndefined();
    // Uptown has no plans: refused, naming the plan.
    const refused = await cli(['services', 'clone', svc.id, '--to-site', 'Uptown', '--yes']);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(`pricing plan "${plans[0].name}"`);
    // Once Uptown has a plan of that name, the clone links Uptown's plan.
    const made = await fetch(`${emu.url}/pricing-plans/v2/plans`, {
      method: 'POST',
      headers: { authorization: emu.apiKey, 'wix-site-id': uptown().id, 'content-type': 'application/json' },
      body: JSON.stringify({ plan: { name: plans[0].name, pricing: { singlePaymentUnlimited: true, price: { value: '10', currency: 'USD' } } } }),
    });
    expect(made.status, await made.clone().text()).toBe(200);
    const upPlan = ((await made.json()) as { plan: { id: string } }).plan.id;
    const r = await cli(['services', 'clone', svc.id, '--to-site', 'Uptown', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    const copy = json(await cli(['services', 'list', '--site', 'Uptown', '--where', `mainSlug.name=${svc.mainSlug.name}`, '--json', 'payment']));
    expect(copy[0].payment.pricingPlanIds).toEqual([upPlan]);
    expect((await cli(['services', 'diff', '-f', '-', '--site', 'Uptown', '--exit-code'], { input: JSON.stringify(catalogue) })).code).toBe(0);
  });
});

describe('--create-missing', () => {
  it('creates the categories and booking policies a site lacks, then applies; never staff', async () => {
    const file = join(dir, 'new-furniture.json');
    const catalogue = JSON.parse((await cli(['services', 'export', '--where', 'type=CLASS'])).stdout);
    const svc = catalogue.services[0];
    svc.category = 'Outdoor Classes';
    svc.bookingPolicy = 'Rain Check Policy';
    writeFileSync(file, JSON.stringify({ ...catalogue, services: [svc] }));
    const without = await cli(['services', 'apply', '-f', file, '--to-site', 'Uptown', '--yes']);
    expect(without.code).toBe(3);
    expect(without.stderr).toMatch(/lacks booking policy "Rain Check Policy", category "Outdoor Classes"; nothing was changed/);
    const dry = await cli(['services', 'apply', '-f', file, '--to-site', 'Uptown', '--create-missing', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout.split('\n').filter(Boolean).map((l) => l.split('\t').slice(1, 3))).toEqual([
      ['create booking policy', 'Rain Check Policy'],
      ['create category', 'Outdoor Classes'],
      ['update', svc.slug],
    ]);
    // One state folder for the apply, its history and its undo.
    const sandbox = createCliSandbox();
    const r = await cli(['services', 'apply', '-f', file, '--to-site', 'Uptown', '--create-missing', '--yes', '--json'], { sandbox });
    expect(r.code, r.stderr).toBe(0);
    expect(json(r).sites[0]).toMatchObject({ status: 'applied', createdFurniture: ['booking policy "Rain Check Policy"', 'category "Outdoor Classes"'], counts: { updated: 1 } });
    const there = json(await cli(['services', 'list', '--site', 'Uptown', '--where', `mainSlug.name=${svc.slug}`, '--json', 'category,bookingPolicy']))[0];
    expect(there.category.name).toBe('Outdoor Classes');
    expect(there.bookingPolicy.name).toBe('Rain Check Policy');
    const again = await cli(['services', 'apply', '-f', file, '--to-site', 'Uptown', '--create-missing', '--yes', '--json']);
    expect(json(again).sites[0]).toMatchObject({ status: 'unchanged' });
    expect(json(again).sites[0].createdFurniture).toBeUndefined();
    svc.staff = ['Nobody Here'];
    writeFileSync(file, JSON.stringify({ ...catalogue, services: [svc] }));
    expect((await cli(['services', 'apply', '-f', file, '--to-site', 'Uptown', '--create-missing', '--yes'])).stderr).toMatch(/lacks staff member "Nobody Here"/);

    // The policy and category were made through the engine, as parts of the apply's change: one change in the
    // history, named by the apply; its undo puts the service back and deletes the policy and the category.
    const [change] = json(await cli(['history', '--json', 'short,entity,action,parts'], { sandbox }));
    expect(change).toMatchObject({ entity: 'services', action: 'apply' });
    expect(change.parts.map((p: { entity: string; action: string }) => `${p.entity} ${p.action}`).sort()).toEqual(['booking policies create', 'categories create', 'services apply']);
    const undo = await cli(['undo', change.short, '--yes'], { sandbox });
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stderr).toMatch(/deleted 1 booking policy/);
    expect(undo.stderr).toMatch(/deleted 1 category/);
    const back = json(await cli(['services', 'list', '--site', 'Uptown', '--where', `mainSlug.name=${svc.slug}`, '--json', 'category,bookingPolicy']))[0];
    expect(back.bookingPolicy.name).not.toBe('Rain Check Policy');
    expect(back.category.name).not.toBe('Outdoor Classes');
    const policies = json(await cli(['services', 'booking-policies', 'list', '--site', 'Uptown', '--json', 'name']));
    expect(policies.map((p: { name: string }) => p.name)).not.toContain('Rain Check Policy');
    const categories = json(await cli(['services', 'categories', 'list', '--site', 'Uptown', '--json', 'name']));
    expect(categories.map((c: { name: string }) => c.name)).not.toContain('Outdoor Classes');
  });
});

describe('the catalogue across renames, selections and faults', () => {
  it('follows a rename on the source (one update, no second copy); --prune deletes only within the exported selection', async () => {
    const r = await cli(['services', 'clone', '--to-site', 'Uptown', '--where', 'type=COURSE', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    const [course] = json(await cli(['services', 'list', '--where', 'type=COURSE', '--json', 'id,name,mainSlug', '--limit', '1']));
    expect((await cli(['services', 'update', course.id, '--set', `name=${course.name} Deluxe`])).code).toBe(0);
    const file = join(dir, 'courses.json');
    expect((await cli(['services', 'export', '--where', 'type=COURSE', '-o', file])).code).toBe(0);
    const exported = JSON.parse(readFileSync(file, 'utf8'));
    expect(exported.selection).toEqual({ filter: { type: 'COURSE' } });
    const renamed = exported.services.find((s: { name: string }) => s.name === `${course.name} Deluxe`);
    expect(renamed.previousSlugs).toContain(course.mainSlug.name);
    const uptownBefore = json(await cli(['services', 'count', '--site', 'Uptown']));
    const applied = await cli(['services', 'apply', '-f', file, '--to-site', 'Uptown', '--prune', '--yes', '--json']);
    expect(applied.code, applied.stderr).toBe(0);
    // One update (the name), nothing created, and --prune touched no class or appointment of Uptown.
    expect(json(applied).sites[0].counts, applied.stdout).toMatchObject({ created: 0, updated: 1, deleted: 0 });
    expect(json(await cli(['services', 'count', '--site', 'Uptown']))).toBe(uptownBefore);
    const copies = json(await cli(['services', 'list', '--site', 'Uptown', '--where', `name=${course.name} Deluxe`, '--json', 'id']));
    expect(copies).toHaveLength(1);
    const after = await cli(['services', 'diff', '-f', file, '--site', 'Uptown', '--prune', '--exit-code']);
    expect(after.code, after.stdout + after.stderr).toBe(0);
  });

  it('keeps a service renamed on the site: an earlier export diffs as an update of its name and applies back onto it', async () => {
    const file = join(dir, 'appointments-before.yaml');
    expect((await cli(['services', 'export', '--where', 'type=APPOINTMENT', '-o', file])).code).toBe(0);
    const [svc] = json(await cli(['services', 'list', '--where', 'type=APPOINTMENT', '--json', 'id,name,mainSlug', '--limit', '1']));
    const count = json(await cli(['services', 'count']));
    expect((await cli(['services', 'update', svc.id, '--set', `name=${svc.name} Renamed`])).code).toBe(0);
    const moved = json(await cli(['services', 'get', svc.id, '--json', 'mainSlug']));
    expect(moved.mainSlug.name).not.toBe(svc.mainSlug.name);

    const diff = await cli(['services', 'diff', '-f', file, '--json']);
    expect(diff.code, diff.stderr).toBe(0);
    const [site] = json(diff).sites;
    expect(site.create).toEqual([]);
    expect(site.update).toEqual([{ slug: svc.mainSlug.name, fields: ['name'], renamedFrom: moved.mainSlug.name }]);

    const applied = await cli(['services', 'apply', '-f', file, '--to-site', 'Downtown', '--yes', '--json']);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(json(applied).sites[0].counts).toMatchObject({ created: 0, updated: 1 });
    expect(json(await cli(['services', 'count']))).toBe(count);
    expect(json(await cli(['services', 'get', svc.id, '--json', 'name'])).name).toBe(svc.name);
    expect((await cli(['services', 'diff', '-f', file, '--exit-code'])).code).toBe(0);
  });

  it('refuses, before any write, --prune with an empty catalogue and values the platform would refuse (exit 2)', async () => {
    const seq = (await emu.request('GET', '/__emulator/state')).body.events.lastSeq;
    const empty = join(dir, 'empty.json');
    writeFileSync(empty, JSON.stringify({ kind: 'sitectl/services-catalogue', version: 1, services: [] }));
    const r = await cli(['services', 'apply', '-f', empty, '--to-site', 'Uptown', '--prune', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/empty catalogue would delete every service/);
    const bad = join(dir, 'bad.json');
    const catalogue = JSON.parse((await cli(['services', 'export', '--where', 'type=CLASS'])).stdout);
    catalogue.services[0].defaultCapacity = 'lots';
    writeFileSync(bad, JSON.stringify(catalogue));
    const refused = await cli(['services', 'apply', '-f', bad, '--to-site', 'Uptown', '--yes']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(new RegExp(`error: ${bad}: service ${catalogue.services[0].slug}: defaultCapacity: `));
    expect((await emu.request('GET', '/__emulator/state')).body.events.lastSeq).toBe(seq);
  });

  it('never creates a service twice under faults, even when its slug is not the one its name gives', async () => {
    const made = await emu.request('POST', '/__emulator/sites', { name: 'Faulty Site' });
    const site = made.body.site.id;
    const catalogue = JSON.parse((await cli(['services', 'export', '--where', 'type=CLASS'])).stdout);
    const picked = catalogue.services.slice(0, 8).map((s: { slug: string }, i: number) => ({ ...s, slug: `zz-custom-${i}`, previousSlugs: undefined }));
    const file = join(dir, 'custom-slugs.json');
    writeFileSync(file, JSON.stringify({ ...catalogue, selection: undefined, services: picked }));
    await emu.request('PUT', '/__emulator/faults', { errorRate: 0.3, errorPhase: 'random', seed: 3 });
    try {
      for (let attempt = 0; attempt < 4; attempt++) {
        const r = await cli(['services', 'apply', '-f', file, '--to-site', 'Faulty Site', '--yes']);
        if (r.code === 0) break;
      }
    } finally {
      await emu.request('PUT', '/__emulator/faults', { errorRate: 0 });
    }
    const final = await cli(['services', 'apply', '-f', file, '--to-site', 'Faulty Site', '--yes', '--json']);
    expect(final.code, final.stderr).toBe(0);
    const res = await fetch(`${emu.url}/_api/bookings/v2/services/query`, {
      method: 'POST',
      headers: { authorization: emu.apiKey, 'wix-site-id': site, 'content-type': 'application/json' },
      body: JSON.stringify({ query: { paging: { limit: 100 } } }),
    });
    const services = ((await res.json()) as { services: { name: string; mainSlug: { name: string } }[] }).services;
    expect(services.map((s) => s.mainSlug.name).sort()).toEqual(picked.map((s: { slug: string }) => s.slug).sort());
    expect(json(final).sites[0].status).toBe('unchanged');
  });
});
