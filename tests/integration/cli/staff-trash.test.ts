/**
 * `sitectl staff count|search|deleted|restore` and the undo of `staff delete`, in process against a real emulator
 * on port 0: the count is the platform's and equals what `staff list` lists; the search finds by name; a deleted
 * staff member is in the trash bin (listed, read), restored with its id, its own hours and the service it left,
 * by `staff restore` and by `sitectl undo`; bad input exits 2 with one line before anything is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, runInProcess, startTestEmulator, type CliSandbox, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';
import { expectError } from '../../helpers/expect-error.js';
import { eventsAfter, lastEventSeq } from '../bulk/support.js';
import { okJson } from '../../helpers/cli.js';

let emu: TestEmulator;
/** One history for the file's runs, so `sitectl undo --last` finds the change before it. */
let sandbox: CliSandbox;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 10, bookings: 0 });
  sandbox = createCliSandbox();
});
afterAll(async () => {
  await emu?.close();
  sandbox?.cleanup();
});

const cli = (args: string[], opts: InProcessOptions = {}) => runInProcess(args, { emulator: emu, sandbox, ...opts });
const json = okJson;

/** A staff member made for one test, with its own Monday hours, given by a new class service. */
async function staffOnService(name: string): Promise<{ id: string; serviceId: string }> {
  const id = (await cli(['staff', 'create', '--name', name, '--email', `${name.toLowerCase().replace(/\W+/g, '.')}@example.com`])).stdout.trim();
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  expect((await cli(['staff', 'hours', 'set', id, '--day', 'mon', '--from', '09:00', '--to', '12:00', '--yes'])).code).toBe(0);
  const svc = await emu.request('POST', '/bookings/v2/services', { service: { name: `${name} class`, type: 'CLASS', defaultCapacity: 3, staffMemberIds: [id] } });
  expect(svc.status, JSON.stringify(svc.body)).toBe(200);
  return { id, serviceId: svc.body.service.id };
}

const staffOfService = async (serviceId: string): Promise<string[]> => (await emu.request('GET', `/bookings/v2/services/${serviceId}`)).body.service.staffMemberIds ?? [];

describe('staff count, search and the trash bin', () => {
  it('count is the platform count and equals the list; search finds by name, with a filter', async () => {
    const a = (await cli(['staff', 'create', '--name', 'Quillon Search'])).stdout.trim();
    (await cli(['staff', 'create', '--name', 'Quillon Other', '--email', 'qo@example.com'])).stdout.trim();
    const all = json(await cli(['staff', 'list', '--all', '--json', 'id']));
    expect(Number((await cli(['staff', 'count'])).stdout.trim())).toBe(all.length);
    expect(Number((await cli(['staff', 'count', '--where', 'name=Quillon Search'])).stdout.trim())).toBe(1);
    const found = json(await cli(['staff', 'search', 'quillon', '--json', 'id,name']));
    expect(found.map((s: { name: string }) => s.name).sort()).toEqual(['Quillon Other', 'Quillon Search']);
    expect(json(await cli(['staff', 'search', 'quillon', '--where', 'email=qo@example.com', '--json', 'name']))).toEqual([{ name: 'Quillon Other' }]);
    expect(json(await cli(['staff', 'search', 'quillon', '--limit', '1', '--json', 'id']))).toHaveLength(1);
    expect(json(await cli(['staff', 'search', 'nobody-has-this-name', '--json']))).toEqual([]);
    expect(found.map((s: { id: string }) => s.id)).toContain(a);
  });

  it('delete puts it in the trash bin; restore brings back its id, hours and service; undo deletes it again', async () => {
    const seq = await lastEventSeq(emu);
    const { id, serviceId } = await staffOnService('Trash Bin Tess');
    expect((await cli(['staff', 'delete', id, '--yes'])).code).toBe(0);
    expect(await staffOfService(serviceId)).not.toContain(id);
    expect(json(await cli(['staff', 'list', '--all', '--json', 'id'])).map((s: { id: string }) => s.id)).not.toContain(id);
    const trash = json(await cli(['staff', 'deleted', 'list', '--all', '--json', 'id,name']));
    expect(trash).toContainEqual({ id, name: 'Trash Bin Tess' });
    expect(json(await cli(['staff', 'deleted', 'get', id, '--json', 'id,name']))).toEqual({ id, name: 'Trash Bin Tess' });
    expect(json(await cli(['staff', 'deleted', 'list', '--where', `id=${id}`, '--json', 'id']))).toEqual([{ id }]);

    const restored = json(await cli(['staff', 'restore', id.slice(0, 8), '--json', 'id,name,resource']));
    expect(restored).toMatchObject({ id, name: 'Trash Bin Tess', resource: { usesDefaultWorkingHours: false } });
    expect(await staffOfService(serviceId)).toContain(id);
    const hours = json(await cli(['staff', 'hours', 'show', id, '--json']));
    expect(JSON.stringify(hours)).toMatch(/09:00/);
    expect(json(await cli(['staff', 'deleted', 'list', '--all', '--json', 'id'])).map((s: { id: string }) => s.id)).not.toContain(id);

    // The undo of the restore deletes it again (to the trash bin).
    expect((await cli(['undo', '--last', '--yes'])).code).toBe(0);
    expect(json(await cli(['staff', 'deleted', 'list', '--all', '--json', 'id'])).map((s: { id: string }) => s.id)).toContain(id);
    const types = (await eventsAfter(emu, seq)).filter((e) => e.entityId === id).map((e) => e.type);
    expect(types.filter((t) => t === 'staff.deleted' || t === 'staff.created')).toEqual(['staff.created', 'staff.deleted', 'staff.created', 'staff.deleted']);
  });

  it('the undo of staff delete restores it from the trash bin, same id and service', async () => {
    const { id, serviceId } = await staffOnService('Undo Ulla');
    expect((await cli(['staff', 'delete', 'Undo Ulla', '--yes'])).code).toBe(0);
    const undo = await cli(['undo', '--last', '--yes']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(json(await cli(['staff', 'get', id, '--json', 'id,name']))).toEqual({ id, name: 'Undo Ulla' });
    expect(await staffOfService(serviceId)).toContain(id);
  });

  it('bad input: one line, exit 2, nothing sent', async () => {
    const seq = await lastEventSeq(emu);
    expectError(await cli(['staff', 'search', '  ']), 2, /the search text is empty/);
    expectError(await cli(['staff', 'search', 'x'.repeat(101)]), 2, /at most 100 characters/);
    expectError(await cli(['staff', 'search', 'a', '--limit', '1', '--all']), 2, /either --limit or --all/);
    expectError(await cli(['staff', 'deleted', 'list', '--where', 'name=Someone']), 2, /name/);
    expect(await eventsAfter(emu, seq)).toEqual([]);
    expect((await cli(['staff', 'restore', '00000000-0000-4000-8000-00000000dead'])).code).not.toBe(0);
  });
});
