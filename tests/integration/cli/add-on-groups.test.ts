/**
 * `sitectl services add-on-groups list|create|update|delete|set-add-ons` in process against a real emulator
 * (docs/manual/commands.md "Add-on groups"): each write one of the platform's group calls, seen on the service;
 * `sitectl undo` taking each back (a deleted group made again with its fields and add-ons); bad input refused with
 * one line and exit 2 (an unknown group exit 1) before anything is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOns } from '../../../src/api/add-ons.js';
import { ApiClient } from '../../../src/api/client.js';
import { createCliSandbox, runInProcess, startTestEmulator, type CliSandbox, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';
import { expectError } from '../../helpers/expect-error.js';
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
const G = ['services', 'add-on-groups'];

/** A new appointment service of its own: its id. */
async function freshService(name: string): Promise<string> {
  const r = await emu.request('POST', '/bookings/v2/services', { service: { name: `${name} ${Date.now()}`, type: 'APPOINTMENT', payment: { rateType: 'FIXED', fixed: { price: { value: '30', currency: 'USD' } } } } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.service.id;
}

/** An add-on of the site (Add-ons API): its id. */
async function addOn(name: string, value: string): Promise<string> {
  return (await addOns.createAddOn(api, { addOn: { name, price: { value, currency: 'USD' }, maxQuantity: 2 } })).addOn.id!;
}

/** The service's groups as the platform has them. */
async function groupsOf(serviceId: string): Promise<Array<{ id: string; name: string; maxNumberOfAddOns?: number; prompt?: string; addOnIds: string[] }>> {
  return (await emu.request('GET', `/bookings/v2/services/${serviceId}`)).body.service.addOnGroups ?? [];
}

describe('services add-on-groups', () => {
  it('create, list, update, set-add-ons, delete, each undone', async () => {
    const svc = await freshService('Addon CLI');
    const [mat, towel, water] = [await addOn('Mat', '3'), await addOn('Towel', '2.50'), await addOn('Water', '1')];

    const created = await cli([...G, 'create', svc, '--name', 'Gear', '--max', '2', '--prompt', 'Bring nothing', '--add-on', mat, '--add-on', towel]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toMatch(/Created add-on group 'Gear'; service .* has 1 group\(s\)/);
    const [group] = await groupsOf(svc);
    expect(group).toMatchObject({ name: 'Gear', maxNumberOfAddOns: 2, prompt: 'Bring nothing', addOnIds: [mat, towel] });

    const listed = json(await cli([...G, 'list', svc, '--json']));
    expect(listed).toEqual([expect.objectContaining({ groupId: group!.id, groupName: 'Gear', addOns: [expect.objectContaining({ addOnId: mat, name: 'Mat', price: { value: '3', currency: 'USD' } }), expect.objectContaining({ addOnId: towel })] })]);
    const table = await cli([...G, 'list', svc]);
    expect(table.stdout).toMatch(/Gear/);
    expect(table.stdout).toMatch(/Towel \(2\.50 USD\)/);

    // update: a new name and no limit; undo gives the former name and limit back.
    expect((await cli([...G, 'update', svc, group!.id, '--name', 'Kit', '--max', '0'])).code).toBe(0);
    expect((await groupsOf(svc))[0]).toMatchObject({ id: group!.id, name: 'Kit' });
    expect((await groupsOf(svc))[0]).not.toHaveProperty('maxNumberOfAddOns');
    const u = await cli(['undo', '--last', '--yes']);
    expect(u.code, u.stderr + u.stdout).toBe(0);
    expect((await groupsOf(svc))[0]).toMatchObject({ id: group!.id, name: 'Gear', maxNumberOfAddOns: 2 });

    // set-add-ons: the platform's own call, a new order and set; undo puts the former ones back.
    expect((await cli([...G, 'set-add-ons', svc, group!.id, water, mat])).code).toBe(0);
    expect((await groupsOf(svc))[0]!.addOnIds).toEqual([water, mat]);
    const again = await cli([...G, 'set-add-ons', svc, group!.id, water, mat]);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/is so already; nothing changed/);
    expect((await cli(['undo', '--last', '--yes'])).code).toBe(0);
    expect((await groupsOf(svc))[0]!.addOnIds).toEqual([mat, towel]);

    // delete asks first (no terminal: --yes needed); undo makes the group again with its fields.
    expectError(await cli([...G, 'delete', svc, group!.id]), 2, /deleting an add-on group of service .* needs confirmation/);
    expect((await groupsOf(svc))).toHaveLength(1);
    expect((await cli([...G, 'delete', svc, group!.id, '--yes'])).code).toBe(0);
    expect(await groupsOf(svc)).toEqual([]);
    expect((await cli(['undo', '--last', '--yes'])).code).toBe(0);
    expect(await groupsOf(svc)).toEqual([expect.objectContaining({ name: 'Gear', maxNumberOfAddOns: 2, prompt: 'Bring nothing', addOnIds: [mat, towel] })]);

    // create undone: the group goes.
    expect((await cli([...G, 'create', svc, '--name', 'Drinks', '--add-on', water])).code).toBe(0);
    expect((await groupsOf(svc)).map((g) => g.name)).toEqual(['Gear', 'Drinks']);
    expect((await cli(['undo', '--last', '--yes'])).code).toBe(0);
    expect((await groupsOf(svc)).map((g) => g.name)).toEqual(['Gear']);
  });

  it('refuses bad input with one line before anything is sent', async () => {
    const svc = await freshService('Addon refusals');
    const mat = await addOn('Mat', '3');
    const before = (await emu.request('GET', `/bookings/v2/services/${svc}`)).body.service.revision;
    expectError(await cli([...G, 'create', svc, '--add-on', mat]), 2, /give the new group a --name/);
    expectError(await cli([...G, 'create', svc, '--name', 'X', '--max', '9']), 2, /--max must be a whole number from 0 \(no limit\) to 7/);
    expectError(await cli([...G, 'create', svc, '--name', 'X', '--add-on', mat, '--add-on', mat]), 2, /an add-on is given twice/);
    expectError(await cli([...G, 'create', svc, '--name', 'X', '--add-on', '00000000-0000-4000-8000-000000000000']), 2, /no add-on '00000000-0000-4000-8000-000000000000' on this site; nothing was changed/);
    expectError(await cli([...G, 'update', svc, '00000000-0000-4000-8000-000000000001', '--name', 'Y']), 1, /has no add-on group/);
    expectError(await cli([...G, 'update', svc, '00000000-0000-4000-8000-000000000001']), 2, /nothing to change/);
    for (const name of ['A', 'B', 'C']) expect((await cli([...G, 'create', svc, '--name', name])).code).toBe(0);
    expectError(await cli([...G, 'create', svc, '--name', 'A']), 2, /has a group named 'A' already/);
    expectError(await cli([...G, 'create', svc, '--name', 'D']), 2, /has 3 add-on groups, the most a service may have/);
    expect((await groupsOf(svc)).map((g) => g.name)).toEqual(['A', 'B', 'C']);
    // Only the three creates changed the service.
    expect(Number((await emu.request('GET', `/bookings/v2/services/${svc}`)).body.service.revision)).toBe(Number(before) + 3);
  });
});
