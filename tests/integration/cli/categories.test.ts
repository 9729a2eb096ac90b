/**
 * `sitectl services categories list|count|get|update|delete|move` in process against a real emulator on port 0:
 * the count is the platform's and equals the list; a rename bumps the revision, shows on the category's services
 * and is renamed back by `sitectl undo`; a move changes the order and its undo puts it back; a delete keeps the
 * services naming the category and its undo re-creates it; bad input exits 2 with one line before anything is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, runInProcess, startTestEmulator, type CliSandbox, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';
import { expectError } from '../../helpers/expect-error.js';
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
const C = ['services', 'categories'];

/** A category made for one test (through the API: the CLI creates categories only from a catalogue file). */
async function category(name: string): Promise<{ id: string; revision: string }> {
  const r = await emu.request('POST', '/bookings/v2/categories', { category: { name } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.category;
}
const order = async (): Promise<string[]> => json(await cli([...C, 'list', '--all', '--json', 'name'])).map((c: { name: string }) => c.name);

describe('service categories', () => {
  it('list and count agree; get by name; update bumps the revision, shows on services, and is undone', async () => {
    const made = await category('Cat Rename Me');
    const all = json(await cli([...C, 'list', '--all', '--json', 'id']));
    expect(Number((await cli([...C, 'count'])).stdout.trim())).toBe(all.length);
    expect(Number((await cli([...C, 'count', '--where', 'name=Cat Rename Me'])).stdout.trim())).toBe(1);
    expect(json(await cli([...C, 'get', 'cat rename me', '--json', 'id,revision']))).toEqual({ id: made.id, revision: '1' });
    const svc = await emu.request('POST', '/bookings/v2/services', { service: { name: 'Categorised class', type: 'CLASS', defaultCapacity: 3, category: { id: made.id } } });
    expect(svc.status, JSON.stringify(svc.body)).toBe(200);

    const renamed = json(await cli([...C, 'update', made.id.slice(0, 8), '--name', 'Cat Renamed', '--json', 'id,name,revision']));
    expect(renamed).toEqual({ id: made.id, name: 'Cat Renamed', revision: '2' });
    expect((await emu.request('GET', `/bookings/v2/services/${svc.body.service.id}`)).body.service.category.name).toBe('Cat Renamed');
    expect((await cli(['undo', '--last', '--yes'])).code).toBe(0);
    expect(json(await cli([...C, 'get', made.id, '--json', 'name,revision']))).toEqual({ name: 'Cat Rename Me', revision: '3' });
  });

  it('move first, after another and last changes the order; its undo moves it back', async () => {
    await category('Cat Move A');
    await category('Cat Move B');
    await category('Cat Move C');
    const before = await order();
    expect((await cli([...C, 'move', 'Cat Move C', '--first'])).code).toBe(0);
    expect((await order())[0]).toBe('Cat Move C');
    const moved = json(await cli([...C, 'move', 'Cat Move A', '--after', 'Cat Move C', '--json', 'name,sortOrder']));
    expect(moved.name).toBe('Cat Move A');
    expect((await order()).slice(0, 2)).toEqual(['Cat Move C', 'Cat Move A']);
    // Undone newest first: A back after the one it followed, then C back after B.
    const [second, first] = json(await cli(['history', '--json', 'short,entity,action']));
    expect([second, first].map((h: { entity: string; action: string }) => `${h.entity} ${h.action}`)).toEqual(['categories move', 'categories move']);
    const u1 = await cli(['undo', second.short, '--yes']);
    expect(u1.code, u1.stderr).toBe(0);
    const u2 = await cli(['undo', first.short, '--yes']);
    expect(u2.code, u2.stderr).toBe(0);
    expect(await order()).toEqual(before);
    expect((await cli([...C, 'move', 'Cat Move B', '--last'])).code).toBe(0);
    expect((await order()).at(-1)).toBe('Cat Move B');
  });

  it('delete keeps its services naming it; the undo re-creates it by name', async () => {
    const made = await category('Cat Delete Me');
    const svc = await emu.request('POST', '/bookings/v2/services', { service: { name: 'Orphan class', type: 'CLASS', defaultCapacity: 3, category: { id: made.id } } });
    expectError(await cli([...C, 'delete', 'Cat Delete Me']), 2, /needs confirmation|--yes/);
    expect(json(await cli([...C, 'delete', 'Cat Delete Me', '--yes', '--json']))).toEqual({ id: made.id, deleted: true });
    expect(await order()).not.toContain('Cat Delete Me');
    expect((await emu.request('GET', `/bookings/v2/services/${svc.body.service.id}`)).body.service.category.id).toBe(made.id);
    const undo = await cli(['undo', '--last', '--yes']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(await order()).toContain('Cat Delete Me');
  });

  it('bad input: one line, exit 2, nothing sent', async () => {
    const made = await category('Cat Bad Input');
    expectError(await cli([...C, 'update', made.id]), 2, /nothing to change/);
    expectError(await cli([...C, 'update', made.id, '--name', ' ']), 2, /needs a name/);
    expectError(await cli([...C, 'update', made.id, '--name', 'x'.repeat(101)]), 2, /at most 100 characters/);
    expectError(await cli([...C, 'move', made.id]), 2, /one of --first, --last or --after/);
    expectError(await cli([...C, 'move', made.id, '--first', '--last']), 2, /one of --first, --last or --after/);
    expectError(await cli([...C, 'move', made.id, '--after', made.id]), 2, /after itself/);
    expectError(await cli([...C, 'get', 'No Such Category']), 2, /no category 'No Such Category'/);
    expect(json(await cli([...C, 'get', made.id, '--json', 'revision']))).toEqual({ revision: '1' });
  });
});
