/**
 * `services apply` and `services clone --to-site` write the services' add-on groups (docs/catalogue.md "Add-on
 * groups"; docs/wire.md §28), in process against a real emulator on port 0: add-ons are matched on the
 * target by name (and by terms among several of one name); one the target lacks is refused before any write
 * (exit 2) unless `--create-missing` creates it; a changed group is updated in place; a group the file does not
 * name is kept, and deleted with `--prune`; `sitectl undo` sets the groups back; a second run plans nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOns } from '../../../src/api/add-ons.js';
import { ApiClient } from '../../../src/api/client.js';
import { services } from '../../../src/api/services.js';
import { setFaults } from '../bulk/support.js';
import { createCliSandbox, runInProcess, startTestEmulator, type CliResult, type CliSandbox, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';
import { okJson } from '../../helpers/cli.js';

let emu: TestEmulator;
let api: ApiClient;
let sandbox: CliSandbox;
const clients: ApiClient[] = [];
beforeAll(async () => {
  sandbox = createCliSandbox();
  emu = await startTestEmulator({ seed: 'demo', size: 10, bookings: 0 });
  api = client(emu.siteId);
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await emu?.close();
  sandbox?.cleanup();
});

function client(siteId: string): ApiClient {
  const c = new ApiClient({ baseUrl: emu.url, credentials: { kind: 'apiKey', apiKey: emu.apiKey, siteId } });
  clients.push(c);
  return c;
}

const cli = (args: string[], opts: InProcessOptions = {}) => runInProcess(args, { emulator: emu, sandbox, ...opts });
const json = okJson;

/** A new, empty site of the account: its id, name and a client of it. */
async function freshSite(name: string): Promise<{ id: string; name: string; api: ApiClient }> {
  const site = (await emu.request('POST', '/__emulator/sites', { name })).body.site as { id: string; name: string };
  return { ...site, api: client(site.id) };
}

const oil = { name: 'Oil', price: { value: '4', currency: 'USD' }, maxQuantity: 3 };
const stones = { name: 'Hot stones', price: { value: '12.50', currency: 'USD' }, durationInMinutes: 15 };

/** A service of the site in use with a group of two add-ons (made here), exported: the file's text and slug. */
async function sourceService(name: string): Promise<{ id: string; slug: string; text: string }> {
  const r = await emu.request('POST', '/bookings/v2/services', { service: { name, type: 'APPOINTMENT', payment: { rateType: 'FIXED', fixed: { price: { value: '30', currency: 'USD' } } } } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const { id, mainSlug } = r.body.service as { id: string; mainSlug: { name: string } };
  const a = (await addOns.createAddOn(api, { addOn: oil })).addOn.id!;
  const b = (await addOns.createAddOn(api, { addOn: stones })).addOn.id!;
  const made = await cli(['services', 'add-on-groups', 'create', id, '--name', 'Extras', '--max', '2', '--prompt', 'Pick up to two', '--add-on', a, '--add-on', b, '--yes']);
  expect(made.code, made.stderr).toBe(0);
  const text = (await cli(['services', 'export', '--where', `mainSlug.name=${mainSlug.name}`])).stdout;
  expect(JSON.parse(text).services[0].addOnGroups).toHaveLength(1);
  return { id, slug: mainSlug.name, text };
}

/** The service of `slug` on a site (or undefined) and its groups. */
async function serviceOn(site: ApiClient, slug: string) {
  const { services: found } = await services.queryServices(site, { query: { filter: { 'mainSlug.name': slug } } });
  return found[0];
}

describe('add-on groups in services apply', () => {
  it('refuses an add-on the site lacks (exit 2, no write); creates groups with add-ons matched by name and terms; updates in place; prune; undo sets them back', async () => {
    const src = await sourceService('Apply Groups Massage');
    const site = await freshSite('Apply Groups A');
    // Two add-ons named Oil on the target: the terms tell which one the file means.
    await addOns.createAddOn(site.api, { addOn: { ...oil, price: { value: '9', currency: 'USD' } } });
    const oilThere = (await addOns.createAddOn(site.api, { addOn: oil })).addOn.id!;

    // Hot stones is not on the target: one line, exit 2, naming the add-on and the service; nothing written.
    const refused = await cli(['services', 'apply', '-f', '-', '--to-site', site.name, '--yes'], { input: src.text });
    expect(refused.code, refused.stderr).toBe(2);
    const errors = refused.stderr.split('\n').filter((l) => l.startsWith('error:'));
    expect(errors, refused.stderr).toHaveLength(1);
    expect(errors[0]).toMatch(new RegExp(`service ${src.slug}: add-on "Hot stones" \\(12.50 USD, 15 min\\) is not on site Apply Groups A`));
    expect(await serviceOn(site.api, src.slug)).toBeUndefined();

    const stonesThere = (await addOns.createAddOn(site.api, { addOn: stones })).addOn.id!;
    // The preview shows the group to create; nothing is written.
    const dry = await cli(['services', 'apply', '-f', '-', '--to-site', site.name, '--dry-run', '--json'], { input: src.text });
    const rows = json(dry).sites[0].items as { action: string; slug: string; fields: string }[];
    expect(rows).toContainEqual({ site: site.name, action: 'create add-on group', slug: src.slug, fields: 'Extras' });
    expect(await serviceOn(site.api, src.slug)).toBeUndefined();

    const applied = await cli(['services', 'apply', '-f', '-', '--to-site', site.name, '--yes', '--json'], { input: src.text });
    const outcome = json(applied).sites[0];
    expect(outcome).toMatchObject({ status: 'applied', counts: { created: 1 }, addOnGroups: { updated: 1 } });
    const made = (await serviceOn(site.api, src.slug))!;
    expect(made.addOnGroups).toHaveLength(1);
    const group = made.addOnGroups![0]!;
    expect(group).toMatchObject({ name: 'Extras', maxNumberOfAddOns: 2, prompt: 'Pick up to two', addOnIds: [oilThere, stonesThere] });
    // The site now holds the file: diff finds nothing, a second run plans nothing.
    expect((await cli(['services', 'diff', '-f', '-', '--site', site.name, '--exit-code'], { input: src.text })).code).toBe(0);
    const again = await cli(['services', 'apply', '-f', '-', '--to-site', site.name, '--dry-run'], { input: src.text });
    expect(again.stderr).toMatch(/already up to date/);

    // A changed limit and one add-on fewer: the same group updated in place; a group the site has and the file
    // does not name is kept without --prune.
    const extra = await cli(['services', 'add-on-groups', 'create', made.id!, '--name', 'Site only', '--site', site.name, '--yes']);
    expect(extra.code, extra.stderr).toBe(0);
    const changed = JSON.parse(src.text);
    changed.services[0].addOnGroups[0].maxNumberOfAddOns = 1;
    changed.services[0].addOnGroups[0].addOns = [stones];
    const update = await cli(['services', 'apply', '-f', '-', '--to-site', site.name, '--yes', '--json'], { input: JSON.stringify(changed) });
    expect(json(update).sites[0]).toMatchObject({ status: 'applied', counts: { updated: 0 }, addOnGroups: { updated: 1 } });
    const updated = (await serviceOn(site.api, src.slug))!;
    expect(updated.addOnGroups?.map((g) => g.name).sort()).toEqual(['Extras', 'Site only']);
    expect(updated.addOnGroups!.find((g) => g.name === 'Extras')).toMatchObject({ id: group.id, maxNumberOfAddOns: 1, addOnIds: [stonesThere] });

    // undo of that apply: the group as it was, the same id.
    const undo = await cli(['undo', '--last', '--yes']);
    expect(undo.code, undo.stderr).toBe(0);
    const back = (await serviceOn(site.api, src.slug))!;
    expect(back.addOnGroups!.find((g) => g.name === 'Extras')).toMatchObject({ id: group.id, maxNumberOfAddOns: 2, addOnIds: [oilThere, stonesThere] });

    // --prune deletes the group the file does not name (and the dry run says so first).
    const pruneDry = await cli(['services', 'apply', '-f', '-', '--to-site', site.name, '--prune', '--dry-run', '--json'], { input: src.text });
    expect(json(pruneDry).sites[0].items).toContainEqual({ site: site.name, action: 'delete add-on group', slug: src.slug, fields: 'Site only' });
    const pruned = await cli(['services', 'apply', '-f', '-', '--to-site', site.name, '--prune', '--yes'], { input: src.text });
    expect(pruned.code, pruned.stderr).toBe(0);
    expect((await serviceOn(site.api, src.slug))!.addOnGroups?.map((g) => g.name)).toEqual(['Extras']);
  });

  it('--create-missing creates the add-ons a site lacks in the same run; undo deletes the service and keeps the add-ons, saying so', async () => {
    const src = await sourceService('Apply Groups Facial');
    const site = await freshSite('Apply Groups B');
    const dry = await cli(['services', 'apply', '-f', '-', '--to-site', site.name, '--create-missing', '--dry-run', '--json'], { input: src.text });
    const rows = json(dry).sites[0].items as { action: string; slug: string }[];
    expect(rows.filter((r) => r.action === 'create add-on').map((r) => r.slug).sort()).toEqual(['Hot stones', 'Oil']);
    expect((await addOns.queryAddOns(site.api, { query: {} })).addOns).toEqual([]);

    const applied = await cli(['services', 'apply', '-f', '-', '--to-site', site.name, '--create-missing', '--yes', '--json'], { input: src.text });
    expect(json(applied).sites[0]).toMatchObject({ status: 'applied', createdFurniture: ['add-on "Oil"', 'add-on "Hot stones"'], addOnGroups: { updated: 1 } });
    const there = (await addOns.queryAddOns(site.api, { query: {} })).addOns;
    const idOf = (name: string) => there.find((a) => a.name === name)!.id;
    expect(there).toHaveLength(2);
    expect(there.find((a) => a.name === 'Oil')).toMatchObject({ price: { value: '4', currency: 'USD' }, maxQuantity: 3 });
    const made = (await serviceOn(site.api, src.slug))!;
    expect(made.addOnGroups).toEqual([expect.objectContaining({ name: 'Extras', addOnIds: [idOf('Oil'), idOf('Hot stones')] })]);
    // A second run plans nothing (the add-ons are there now).
    expect((await cli(['services', 'apply', '-f', '-', '--to-site', site.name, '--create-missing', '--dry-run'], { input: src.text })).stderr).toMatch(/already up to date/);

    // history lists the change once; its undo deletes the service (its groups with it) and keeps the add-ons.
    const history = json(await cli(['history', '--json']));
    expect(history[0].command).toMatch(/services apply .*--create-missing/);
    const undo = await cli(['undo', '--last', '--yes']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stderr).toMatch(/the 2 add-ons change \S+ created are kept: the Add-ons API has no delete/);
    expect(await serviceOn(site.api, src.slug)).toBeUndefined();
    expect((await addOns.queryAddOns(site.api, { query: {} })).addOns).toHaveLength(2);
  });

  it('services clone --to-site copies a service with its groups onto another site', async () => {
    const src = await sourceService('Clone Groups Wrap');
    const site = await freshSite('Clone Groups C');
    const oilThere = (await addOns.createAddOn(site.api, { addOn: oil })).addOn.id!;
    const stonesThere = (await addOns.createAddOn(site.api, { addOn: stones })).addOn.id!;
    const cloned = await cli(['services', 'clone', src.id, '--to-site', site.name, '--yes', '--json']);
    expect(json(cloned).sites[0]).toMatchObject({ status: 'applied', counts: { created: 1 }, addOnGroups: { updated: 1 } });
    const copy = (await serviceOn(site.api, src.slug))!;
    expect(copy.addOnGroups).toEqual([expect.objectContaining({ name: 'Extras', maxNumberOfAddOns: 2, prompt: 'Pick up to two', addOnIds: [oilThere, stonesThere] })]);
    // The source's groups are untouched; a second clone changes nothing.
    expect((await services.getService(api, { serviceId: src.id })).service.addOnGroups).toHaveLength(1);
    expect(json(await cli(['services', 'clone', src.id, '--to-site', site.name, '--yes', '--json'])).sites[0].status).toBe('unchanged');
  });

  it('under lost replies and 5xx (some after the commit), every service ends with its groups once', async () => {
    const a = (await addOns.createAddOn(api, { addOn: oil })).addOn.id!;
    const b = (await addOns.createAddOn(api, { addOn: stones })).addOn.id!;
    for (let n = 1; n <= 6; n++) {
      const r = await emu.request('POST', '/bookings/v2/services', { service: { name: `Faulty Groups ${n}`, type: 'APPOINTMENT', payment: { rateType: 'FIXED', fixed: { price: { value: '30', currency: 'USD' } } } } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      await services.createAddOnGroup(api, { serviceId: r.body.service.id, addOnGroup: { name: 'Extras', addOnIds: [a, b] } });
      await services.createAddOnGroup(api, { serviceId: r.body.service.id, addOnGroup: { name: 'Towels', maxNumberOfAddOns: 1, addOnIds: [a] } });
    }
    const text = (await cli(['services', 'export', '--filter', JSON.stringify({ name: { $startsWith: 'Faulty Groups' } })])).stdout;
    const slugs = (JSON.parse(text).services as { slug: string }[]).map((x) => x.slug);
    expect(slugs).toHaveLength(6);
    const site = await freshSite('Faulty Groups D');
    const oilThere = (await addOns.createAddOn(site.api, { addOn: oil })).addOn.id!;
    const stonesThere = (await addOns.createAddOn(site.api, { addOn: stones })).addOn.id!;
    await setFaults(emu, { errorRate: 0.15, errorPhase: 'random', dropRate: 0.05, seed: 11 });
    let applied: CliResult;
    try {
      applied = await cli(['services', 'apply', '-f', '-', '--to-site', site.name, '--yes', '--json'], { input: text });
    } finally {
      await setFaults(emu, { errorRate: 0, dropRate: 0 });
    }
    expect(applied.code, applied.stderr).toBe(0);
    for (const slug of slugs) {
      const there = (await serviceOn(site.api, slug))!;
      expect(there.addOnGroups?.map((g) => [g.name, g.addOnIds]).sort(), slug).toEqual([
        ['Extras', [oilThere, stonesThere]],
        ['Towels', [oilThere]],
      ]);
    }
    expect((await cli(['services', 'apply', '-f', '-', '--to-site', site.name, '--dry-run'], { input: text })).stderr).toMatch(/already up to date/);
  });
});
