/**
 * `sitectl attendance` (docs/bookings.md "Attendance"), in process against a real emulator on port 0: a booking
 * marked attended (all its participants by default, or `--count`), not attended, not set; many at once by
 * `--ids`; the booking's extended info shows it; each mark a change in the history, undone by `sitectl undo`
 * (an attendance that did not exist is deleted again; one marked otherwise since is skipped); refusals before anything is sent; the bookings' key `a`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingKeys } from '../../../src/commands/bookings/shared/transitions.js';
import { uiActions } from '../../../src/commands/shared/ui-actions.js';
import { createContext } from '../../../src/context.js';
import { cliEnv, createCliSandbox, runInProcess, startTestEmulator, type CliSandbox, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';
import { makeStudio, type Studio } from '../../helpers/studio.js';
import { lastEventSeq } from '../bulk/support.js';

let emu: TestEmulator;
let sandbox: CliSandbox;
let studio: Studio;
let SERVICE: string;
let CLASS: string;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 8, bookings: 40, members: 10 });
  sandbox = createCliSandbox();
  studio = await makeStudio((args, o) => cli(args, o), 'attendance');
  SERVICE = (await studio.appointment()).name;
  CLASS = (await studio.klass({ capacity: 20 })).name;
});
afterAll(async () => {
  await emu?.close();
  sandbox?.cleanup();
});

const cli = (args: string[], opts: InProcessOptions = {}) => runInProcess(args, { emulator: emu, sandbox, ...opts });
const json = (r: { stdout: string }) => JSON.parse(r.stdout);
/** A confirmed booking made here: of the studio's appointment, or for several participants of its class. */
const confirmed = async (participants = 1) => (await studio.book(participants > 1 ? CLASS : SERVICE, { email: 'front-desk@example.com', confirmed: true, participants })).id;
/** The booking's attendance as its extended info gives it. */
const attendanceOf = async (id: string) => json(await cli(['bookings', 'get', id, '--json', 'attendance'])).attendance as { id?: string; status: string; numberOfAttendees: number };
const marksOf = async (id: string) => json(await cli(['attendance', 'list', '--where', `bookingId=${id}`, '--all', '--json', 'id,status,numberOfAttendees'])) as Array<{ status: string }>;

describe('sitectl attendance', () => {
  it('marks a booking attended (all its participants), lists it, and undo deletes the attendance it made', async () => {
    const id = await confirmed(2);
    expect((await attendanceOf(id)).status).toBe('NOT_SET');
    const marked = await cli(['attendance', 'mark', id, '--attended']);
    expect(marked.code, marked.stderr).toBe(0);
    expect(marked.stderr).toMatch(/^booking .*: ATTENDED, 2 came$/m);
    expect(await attendanceOf(id)).toMatchObject({ status: 'ATTENDED', numberOfAttendees: 2 });
    expect(await marksOf(id)).toEqual([expect.objectContaining({ status: 'ATTENDED', numberOfAttendees: 2 })]);
    // Piped, the rows carry the ids (the bookings' names are read for a terminal only): id, booking, status, came, marked.
    const tsv = (await cli(['attendance', 'list', '--where', `bookingId=${id}`])).stdout.trim().split('\t');
    expect(tsv).toHaveLength(5);
    expect(tsv.slice(1, 4)).toEqual([id, 'ATTENDED', '2']);
    const csv = (await cli(['attendance', 'list', '--where', `bookingId=${id}`, '--csv'])).stdout.trim().split('\n');
    expect(csv[0]).toBe('id,booking,status,attendees,statusUpdatedDate');
    const before = json(await cli(['history', '--json', 'action'])).length;
    const again = await cli(['attendance', 'mark', id, '--attended']);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/ATTENDED, 2 came; nothing changed$/m);
    expect(json(await cli(['history', '--json', 'action'])).length, 'a mark that changes nothing is no change').toBe(before);

    const [change] = json(await cli(['history', '--json', 'action,entity,changed']));
    expect(change).toMatchObject({ entity: 'attendance', action: 'mark', changed: 1 });
    const undone = await cli(['undo', '--last', '--yes']);
    expect(undone.code, undone.stderr).toBe(0);
    expect(await marksOf(id)).toEqual([]);
    expect((await attendanceOf(id)).status).toBe('NOT_SET');
  });

  it('--count and --not-attended replace the mark; undo sets the former one back', async () => {
    const id = await confirmed(3);
    expect((await cli(['attendance', 'mark', id, '--attended', '--count', '2'])).code).toBe(0);
    expect(await attendanceOf(id)).toMatchObject({ status: 'ATTENDED', numberOfAttendees: 2 });
    const no = await cli(['attendance', 'mark', id, '--not-attended']);
    expect(no.code, no.stderr).toBe(0);
    expect(await attendanceOf(id)).toMatchObject({ status: 'NOT_ATTENDED', numberOfAttendees: 0 });
    expect((await cli(['undo', '--last', '--yes'])).code).toBe(0);
    expect(await attendanceOf(id)).toMatchObject({ status: 'ATTENDED', numberOfAttendees: 2 });
  });

  it('undo skips a booking marked otherwise since (exit 3, "changed since") and sets the others back', async () => {
    const [a, b] = [await confirmed(), await confirmed()];
    expect((await cli(['attendance', 'mark', '--ids', `${a},${b}`, '--attended', '--yes'])).code).toBe(0);
    const [change] = json(await cli(['history', '--json', 'short,action']));
    expect(change.action).toBe('mark');
    // Someone marks one of them again, differently, before the undo.
    expect((await cli(['attendance', 'mark', b, '--not-attended'])).code).toBe(0);
    const undone = await cli(['undo', change.short, '--yes']);
    expect(undone.code, undone.stderr).toBe(3);
    expect(undone.stderr).toMatch(/changed since/);
    expect(await marksOf(a)).toEqual([]);
    expect(await attendanceOf(b)).toMatchObject({ status: 'NOT_ATTENDED', numberOfAttendees: 0 });
  });

  it('marks many bookings in one previewed, journaled run, and undoes them together', async () => {
    const ids = [await confirmed(), await confirmed(), await confirmed()];
    const dry = await cli(['attendance', 'mark', '--ids', ids.join(','), '--not-attended', '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(json(dry).map((i: { outcome: string }) => i.outcome)).toEqual(['change', 'change', 'change']);
    const run = await cli(['attendance', 'mark', '--ids', ids.join(','), '--not-attended', '--yes']);
    expect(run.code, run.stderr).toBe(0);
    for (const id of ids) expect((await attendanceOf(id)).status).toBe('NOT_ATTENDED');
    expect(json(await cli(['attendance', 'count', '--where', 'status=NOT_ATTENDED', '--json'])).count).toBeGreaterThanOrEqual(3);
    expect((await cli(['undo', '--last', '--yes'])).code).toBe(0);
    for (const id of ids) expect(await marksOf(id)).toEqual([]);
  });

  it('refuses before anything is sent: an unconfirmed booking, more attendees than booked, no status or two', async () => {
    const created = (await studio.book(SERVICE, { email: 'front-desk@example.com' })).id;
    const id = await confirmed(1);
    const seq = await lastEventSeq(emu);
    const unconfirmed = await cli(['attendance', 'mark', created, '--attended']);
    expect(unconfirmed.code).toBe(1);
    expect(unconfirmed.stderr).toMatch(/attendance is marked for confirmed bookings/);
    const many = await cli(['attendance', 'mark', id, '--attended', '--count', '4']);
    expect(many.code).toBe(1);
    expect(many.stderr).toMatch(/4 came but it was booked for 1/);
    expect(many.stderr).toMatch(/--walk-ins/);
    for (const argv of [['attendance', 'mark', id], ['attendance', 'mark', id, '--attended', '--not-set'], ['attendance', 'mark', id, '--not-attended', '--count', '2']]) {
      const r = await cli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).not.toMatch(/unexpected/);
    }
    expect(await lastEventSeq(emu)).toBe(seq);
    const walkIns = await cli(['attendance', 'mark', id, '--attended', '--count', '4', '--walk-ins']);
    expect(walkIns.code, walkIns.stderr).toBe(0);
    expect(await attendanceOf(id)).toMatchObject({ status: 'ATTENDED', numberOfAttendees: 4 });
  });

  it("the bookings' key `a` marks one row attended, a change of the attendance noun in the history", async () => {
    const id = await confirmed(2);
    const { ctx } = createContext({ env: cliEnv(sandbox, emu), signal: new AbortController().signal });
    const api = await ctx.api();
    const key = uiActions(ctx, api, await bookingKeys()).find((a) => a.key === 'a')!;
    expect(key.label).toMatch(/Attended/);
    expect(await key.run([id], { confirm: async () => true, progress: () => {} })).toMatch(/marked/);
    expect(await attendanceOf(id)).toMatchObject({ status: 'ATTENDED', numberOfAttendees: 2 });
    const [change] = json(await cli(['history', '--json', 'action,entity,command']));
    expect(change).toMatchObject({ entity: 'attendance', action: 'mark' });
    expect(change.command).toContain(`attendance mark ${id}`);
  });
});
