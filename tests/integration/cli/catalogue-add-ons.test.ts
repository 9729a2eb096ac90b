/**
 * Add-on groups in the services catalogue (docs/catalogue.md "Add-on groups"), in process against a real emulator
 * on port 0: `services export` writes a service's groups with their add-ons by name and terms (no ids), byte-stable;
 * `services diff` shows a changed group; a file with a bad group is refused (exit 2) before any read; what
 * `services apply` writes diffs as nothing (its group writes: apply-add-on-groups.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOns } from '../../../src/api/add-ons.js';
import { ApiClient } from '../../../src/api/client.js';
import { createCliSandbox, runInProcess, startTestEmulator, type CliSandbox, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';
import { okJson } from '../../helpers/cli.js';

let emu: TestEmulator;
let api: ApiClient;
let sandbox: CliSandbox;
beforeAll(async () => {
  sandbox = createCliSandbox();
  emu = await startTestEmulator({ seed: 'demo', size: 10, bookings: 0 });
  api = new ApiClient({ baseUrl: emu.url, credentials: { kind: 'apiKey', apiKey: emu.apiKey, siteId: emu.siteId } });
});
afterAll(async () => {
  await api?.close();
  await emu?.close();
  sandbox?.cleanup();
});

const cli = (args: string[], opts: InProcessOptions = {}) => runInProcess(args, { emulator: emu, sandbox, ...opts });
const json = okJson;

/** A new appointment service of its own: its id and main slug. */
async function freshService(name: string): Promise<{ id: string; slug: string }> {
  const r = await emu.request('POST', '/bookings/v2/services', { service: { name, type: 'APPOINTMENT', payment: { rateType: 'FIXED', fixed: { price: { value: '30', currency: 'USD' } } } } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { id: r.body.service.id, slug: r.body.service.mainSlug.name };
}

describe('add-on groups in the catalogue', () => {
  it('exports groups with add-ons by name and terms, stable; diff shows a changed group; an applied file diffs as nothing', async () => {
    const svc = await freshService('Catalogue Addons Massage');
    const mat = (await addOns.createAddOn(api, { addOn: { name: 'Hot stones', price: { value: '12.50', currency: 'USD' }, durationInMinutes: 15 } })).addOn.id!;
    const oil = (await addOns.createAddOn(api, { addOn: { name: 'Oil', price: { value: '4', currency: 'USD' }, maxQuantity: 3 } })).addOn.id!;
    // The Add-ons API's query (what export reads the site's add-ons with) filters on the add-on's fields.
    const found = await addOns.queryAddOns(api, { query: { filter: { name: 'Oil' }, cursorPaging: { limit: 100 } } });
    expect(found.addOns.map((a) => a.id)).toContain(oil);
    expect(found.addOns.map((a) => a.id)).not.toContain(mat);
    const made = await cli(['services', 'add-on-groups', 'create', svc.id, '--name', 'Extras', '--max', '2', '--prompt', 'Pick up to two', '--add-on', oil, '--add-on', mat, '--yes']);
    expect(made.code, made.stderr).toBe(0);
    expect((await cli(['services', 'add-on-groups', 'create', svc.id, '--name', 'Aaa empty', '--yes'])).code).toBe(0);

    const where = ['--where', `mainSlug.name=${svc.slug}`];
    const text = (await cli(['services', 'export', ...where])).stdout;
    const catalogue = JSON.parse(text);
    expect(catalogue.services).toHaveLength(1);
    // Groups sorted by name, add-ons in display order, each by name and terms: no site-specific ids.
    expect(catalogue.services[0].addOnGroups).toEqual([
      { name: 'Aaa empty' },
      {
        name: 'Extras',
        maxNumberOfAddOns: 2,
        prompt: 'Pick up to two',
        addOns: [
          { name: 'Oil', price: { value: '4', currency: 'USD' }, maxQuantity: 3 },
          { name: 'Hot stones', price: { value: '12.50', currency: 'USD' }, durationInMinutes: 15 },
        ],
      },
    ]);
    expect(text).not.toContain(mat);
    expect(text).not.toContain(oil);
    expect(Object.keys(catalogue.services[0]).at(-1)).toBe('addOnGroups');
    // Byte-stable, and the file reads back as the same catalogue.
    expect((await cli(['services', 'export', ...where])).stdout).toBe(text);
    const same = await cli(['services', 'diff', '-f', '-', '--exit-code', '--json'], { input: text });
    expect(same.code, same.stderr).toBe(0);
    expect(json(same).sites[0]).toMatchObject({ update: [], unchanged: 1 });

    // A service without groups carries no addOnGroups key.
    const plain = await freshService('Catalogue Addons Plain');
    expect(JSON.parse((await cli(['services', 'export', '--where', `mainSlug.name=${plain.slug}`])).stdout).services[0]).not.toHaveProperty('addOnGroups');

    // A changed limit in the file is a difference of the service's addOnGroups.
    const changed = structuredClone(catalogue);
    changed.services[0].addOnGroups[1].maxNumberOfAddOns = 1;
    const diff = await cli(['services', 'diff', '-f', '-', '--exit-code'], { input: JSON.stringify(changed) });
    expect(diff.code).toBe(1);
    expect(diff.stdout.trim().split('\t')).toEqual(['update', svc.slug, 'addOnGroups']);

    // apply to another site (its add-ons made by --create-missing): the service and its groups; diff then finds nothing.
    const applied = await cli(['services', 'apply', '-f', '-', '--to-site', 'Uptown', '--create-missing', '--yes'], { input: text });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr).not.toMatch(/not applied/);
    const there = await cli(['services', 'diff', '-f', '-', '--site', 'Uptown', '--json'], { input: text });
    expect(json(there).sites[0]).toMatchObject({ create: [], update: [], unchanged: 1 });
    const again = await cli(['services', 'apply', '-f', '-', '--to-site', 'Uptown', '--dry-run'], { input: text });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/already up to date/);
  });

  it('refuses a file with a bad group before reading the site (exit 2, one line naming the field)', async () => {
    const base = { slug: 'addon-bad', name: 'Addon bad', type: 'APPOINTMENT' };
    const cases: [unknown, RegExp][] = [
      [[{ name: 'G', addOns: [{ name: 'A', price: { value: '1', currency: 'USD' }, maxQuantity: 2, durationInMinutes: 5 }] }], /addOnGroups\[0\]\.addOns\[0\].*exactly one of durationInMinutes and maxQuantity/],
      [[{ name: 'G', addOnIds: ['x'] }], /unknown field 'addOnIds'|addOnIds/],
      [[{ name: 'G' }, { name: 'G' }], /two groups have the same name/],
      [[{ name: 'G', maxNumberOfAddOns: 9 }], /addOnGroups\[0\]\.maxNumberOfAddOns/],
      [[{ name: 'G', addOns: [{ name: 'A', price: { value: '1', currency: 'XXQ' }, maxQuantity: 1 }] }], /currency/],
    ];
    for (const [groups, message] of cases) {
      const r = await cli(['services', 'diff', '-f', '-'], { input: JSON.stringify({ kind: 'sitectl/services-catalogue', version: 1, services: [{ ...base, addOnGroups: groups }] }) });
      expect(r.code, JSON.stringify(groups)).toBe(2);
      const errors = r.stderr.split('\n').filter((l) => l.startsWith('error:'));
      expect(errors, r.stderr).toHaveLength(1);
      expect(errors[0]).toMatch(message);
    }
  });
});
