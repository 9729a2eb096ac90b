/**
 * History and undo (issue 18 section 4), in process against a real emulator on port 0, with one state directory
 * (the journals) across the runs: the README's main job undone exactly, an edit in between skipped (exit 3),
 * changes that cannot be undone listed (exit 1), deletes re-created, clones removed, members unblocked, and
 * `--no-history` keeping no record.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, runInProcess, startTestEmulator, type CliSandbox, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';

let emu: TestEmulator;
let sandbox: CliSandbox;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', bookings: 60, members: 40 });
  sandbox = createCliSandbox();
});
afterAll(async () => {
  await emu?.close();
  sandbox?.cleanup();
});

const cli = (args: string[], opts: InProcessOptions = {}) => runInProcess(args, { emulator: emu, sandbox, ...opts });
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const json = (r: { stdout: string }): any => JSON.parse(r.stdout);

async function classPrices(): Promise<Record<string, string | undefined>> {
  const list = json(await cli(['services', 'list', '--where', 'type=CLASS', '--all', '--json', 'id,payment']));
  return Object.fromEntries(list.map((s: { id: string; payment?: { fixed?: { price?: { value?: string } } } }) => [s.id, s.payment?.fixed?.price?.value]));
}

describe('history and undo', () => {
  it('undoes the README main job exactly: every class price restored; the history says so; the undo can be undone', async () => {
    const before = await classPrices();
    const job = await cli(['services', 'update', '--filter', '{"type":"CLASS"}', '--set', 'payment.fixed.price.value=25', '--yes', '--json']);
    expect(job.code, job.stderr).toBe(0);
    expect(Object.values(await classPrices()).every((v) => v === '25')).toBe(true);

    const history = json(await cli(['history', '--json']));
    expect(history[0]).toMatchObject({ entity: 'services', action: 'update', changed: json(job).counts.updated, failed: 0, undone: '' });
    expect(history[0].command).toContain("services update --filter '{\"type\":\"CLASS\"}' --set payment.fixed.price.value=25 --yes --json");

    const preview = await cli(['undo', '--last', '--dry-run', '--json']);
    expect(preview.code, preview.stderr).toBe(0);
    expect(json(await cli(['services', 'list', '--where', 'type=CLASS', '--all', '--json', 'id,payment'])).length).toBe(Object.keys(before).length);

    const offTerminal = await cli(['undo', '--last']);
    expect(offTerminal.code).toBe(2);
    expect(offTerminal.stderr).toContain('--yes');

    const undo = await cli(['undo', '--last', '--yes']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(await classPrices()).toEqual(before);

    const after = json(await cli(['history', '--json', 'short,action,undone,undoOf,undoneBy']));
    expect(after[0].undone).toBe(`(undoes ${history[0].short})`);
    expect(after[1].undone).toBe(`by ${after[0].short}`);
    const again = await cli(['undo', history[0].short, '--yes']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('was undone already');

    // The undo is a change too: undoing it puts the 25s back.
    expect((await cli(['undo', after[0].short, '--yes'])).code).toBe(0);
    expect(Object.values(await classPrices()).every((v) => v === '25')).toBe(true);
    expect((await cli(['undo', '--last', '--yes'])).code).toBe(0);
    expect(await classPrices()).toEqual(before);
  });

  it('skips a service changed since (exit 3) and restores the others', async () => {
    const before = await classPrices();
    const ids = Object.keys(before).slice(0, 3);
    expect((await cli(['services', 'update', '--ids', ids.join(','), '--set', 'payment.fixed.price.value=99', '--yes'])).code).toBe(0);
    const [bulk] = json(await cli(['history', '--json', 'short']));
    // A single update is a change of its own, the newest: the bulk one is undone by its id.
    expect((await cli(['services', 'update', ids[0]!, '--set', 'payment.fixed.price.value=77'])).code).toBe(0);
    expect(json(await cli(['history', '--json', 'short']))[0].short).not.toBe(bulk.short);
    const undo = await cli(['undo', bulk.short, '--yes']);
    expect(undo.code, undo.stderr).toBe(3);
    expect(undo.stderr).toMatch(/1 of 3 services were changed since/);
    const now = await classPrices();
    expect(now[ids[0]!]).toBe('77');
    expect(now[ids[1]!]).toBe(before[ids[1]!]);
    expect(now[ids[2]!]).toBe(before[ids[2]!]);
  });

  it('undoes a change of one service at once, without --yes off a terminal (the rule of its inverse, an update)', async () => {
    const [id] = Object.keys(await classPrices());
    const before = (await classPrices())[id!];
    expect((await cli(['services', 'update', '--ids', id!, '--set', 'payment.fixed.price.value=61', '--yes'])).code).toBe(0);
    const undo = await cli(['undo', '--last']);
    expect(undo.code, undo.stderr).toBe(0);
    expect((await classPrices())[id!]).toBe(before);
  });

  it('lists a bulk cancel of bookings as not undoable (exit 1), and changes nothing', async () => {
    const r = await cli(['bookings', 'cancel', '--where', 'status=CONFIRMED', '--yes', '--ignore-policy', '--json']);
    expect([0, 3]).toContain(r.code);
    const undo = await cli(['undo', '--last', '--yes']);
    expect(undo.code).toBe(1);
    expect(undo.stderr).toMatch(/nothing to undo in change \w+ \(bookings cancel\): a booking canceled cannot be taken back/);
  });

  it('re-creates deleted services (new ids, said so) and deletes the copies a clone made', async () => {
    const count = json(await cli(['services', 'count']));
    const [victim] = json(await cli(['services', 'list', '--where', 'type=APPOINTMENT', '--limit', '1', '--json', 'id,name']));
    expect((await cli(['services', 'delete', '--ids', victim.id, '--yes'])).code).toBe(0);
    expect(json(await cli(['services', 'count']))).toBe(count - 1);
    const undo = await cli(['undo', '--last', '--yes']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stderr).toContain('new ids');
    expect(json(await cli(['services', 'count']))).toBe(count);
    const back = json(await cli(['services', 'list', '--where', `name=${victim.name}`, '--json', 'id']));
    expect(back).toHaveLength(1);
    expect(back[0].id).not.toBe(victim.id);

    const clone = await cli(['services', 'clone', back[0].id, '--count', '3', '--yes']);
    expect(clone.code, clone.stderr).toBe(0);
    expect(json(await cli(['services', 'count']))).toBe(count + 3);
    expect((await cli(['undo', '--last', '--yes'])).code).toBe(0);
    expect(json(await cli(['services', 'count']))).toBe(count);
  });

  it('unblocks members with the opposite verb, and keeps no record with --no-history', async () => {
    const approved = json(await cli(['members', 'list', '--status', 'APPROVED', '--limit', '2', '--json', 'id']));
    const ids = approved.map((m: { id: string }) => m.id);
    expect((await cli(['members', 'block', '--ids', ids.join(','), '--yes'])).code).toBe(0);
    const undo = await cli(['undo', '--last', '--yes']);
    expect(undo.code, undo.stderr).toBe(0);
    for (const id of ids) expect(json(await cli(['members', 'get', id, '--json', 'status'])).status).toBe('APPROVED');

    const seen = json(await cli(['history', '--json', 'id'])).length;
    expect((await cli(['members', 'block', '--ids', ids[0], '--yes', '--no-history'])).code).toBe(0);
    expect(json(await cli(['history', '--json', 'id'])).length).toBe(seen);
    expect((await cli(['history', '--noun', 'memebrs'])).stderr).toMatch(/did you mean "members"/);
  });
});
