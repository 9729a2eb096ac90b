/**
 * `sitectl availability time-slots` and `availability time-slot` (docs/manual/commands.md "availability";
 * docs/wire.md "Time slots"), in process against a real emulator on port 0, on a studio of the file's own (staff
 * who work around the clock): the time slots of a window start where the availability calendar's entries start,
 * a booking takes a staff member out of a slot and the second one takes the slot, every page is fetched, `--staff`
 * narrows, the table names its zone, and bad input exits 2 with one line. The emulator's
 * clock is frozen, so both lists are computed at the same instant.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess, startTestEmulator, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';
import { expectError } from '../../helpers/expect-error.js';
import { makeStudio, type Studio } from '../../helpers/studio.js';
import { okJson } from '../../helpers/cli.js';

let emu: TestEmulator;
let studio: Studio;
/** A 45-minute appointment both studio staff members give. */
let cut: { name: string; id: string };
const HOUR = 3_600_000;

const cli = (args: string[], opts: InProcessOptions = {}) => runInProcess(args, { emulator: emu, ...opts });
const json = okJson;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 10, bookings: 0 });
  await emu.request('PUT', '/__emulator/clock', { frozen: true });
  studio = await makeStudio((args, o) => cli(args, o), 'time-slots');
  cut = await studio.appointment({ minutes: 45 });
});
afterAll(async () => {
  await emu?.close();
});

interface Row {
  localStartDate: string;
  localEndDate: string;
  remainingCapacity: number;
  totalCapacity: number;
  bookable: boolean;
  timeZone: string;
  availableResources: Array<{ resources: Array<{ id: string }> }>;
}
/** The instant of a UTC local date (`--tz UTC`). */
const utc = (local: string) => new Date(`${local}Z`).toISOString();

describe('availability time-slots', () => {
  it('starts where the availability calendar starts, one row per start, with capacity 1 of 1', async () => {
    const from = studio.reserve(24);
    const to = new Date(Date.parse(from) + 24 * HOUR).toISOString();
    const rows: Row[] = json(await cli(['availability', 'time-slots', cut.id, '--from', from, '--to', to, '--tz', 'UTC', '--json']));
    // The calendar lists a slot that ends by --to; the time slots one that starts before it: ask it for 45 minutes more.
    const calendarTo = new Date(Date.parse(to) + 45 * 60_000).toISOString();
    const entries: Array<{ slot: { startDate: string } }> = json(await cli(['availability', cut.id, '--from', from, '--to', calendarTo, '--tz', 'UTC', '--json']));
    const calendarStarts = [...new Set(entries.map((e) => new Date(e.slot.startDate).toISOString()).filter((s) => s < to))];
    expect(rows.length).toBeGreaterThan(20);
    expect(rows.map((r) => utc(r.localStartDate))).toEqual(calendarStarts);
    for (const r of rows) {
      expect(r).toMatchObject({ totalCapacity: 1, remainingCapacity: 1, bookable: true, timeZone: 'UTC' });
      expect(Date.parse(utc(r.localEndDate)) - Date.parse(utc(r.localStartDate))).toBe(45 * 60_000);
    }
  });

  it('a booking takes its staff member out of the slot; the second booking takes the slot (gone from the list, 0 of 1)', async () => {
    const from = studio.reserve(6);
    const slotOf = async (start: string): Promise<Row> => json(await cli(['availability', 'time-slot', cut.id, start, '--tz', 'UTC', '--json']));
    const first: Row[] = json(await cli(['availability', 'time-slots', cut.id, '--from', from, '--days', '1', '--tz', 'UTC', '--json']));
    const start = utc(first[0]!.localStartDate);
    const free = (r: Row) => r.availableResources.flatMap((a) => a.resources.map((x) => x.id)).sort();
    expect(free(await slotOf(start))).toEqual([...studio.staff].sort());

    json(await cli(['bookings', 'create', '--service', cut.id, '--start', start, '--staff', studio.staff[0]!, '--email', 'ts1@example.com', '--json']));
    const once = await slotOf(start);
    expect(once).toMatchObject({ remainingCapacity: 1, bookable: true });
    expect(free(once)).toEqual([studio.staff[1]]);

    json(await cli(['bookings', 'create', '--service', cut.id, '--start', start, '--staff', studio.staff[1]!, '--email', 'ts2@example.com', '--json']));
    const full = await slotOf(start);
    expect(full).toMatchObject({ remainingCapacity: 0, bookableCapacity: 0, bookable: false, nonBookableReasons: { noRemainingCapacity: true } });
    expect(free(full)).toEqual([]);
    const after: Row[] = json(await cli(['availability', 'time-slots', cut.id, '--from', from, '--days', '1', '--tz', 'UTC', '--json']));
    expect(after.map((r) => r.localStartDate)).not.toContain(first[0]!.localStartDate);
    // The table says why, in words.
    const table = await cli(['availability', 'time-slot', cut.id, start, '--tz', 'UTC']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/bookable\s+no \(full\)/);
  });

  it('fetches every page: --page-size 7 gives what one request gives', async () => {
    const from = studio.reserve(24);
    const args = ['availability', 'time-slots', cut.id, '--from', from, '--days', '1', '--tz', 'UTC', '--json'];
    const whole: Row[] = json(await cli(args));
    const paged: Row[] = json(await cli([...args, '--page-size', '7']));
    expect(whole.length).toBeGreaterThan(14);
    expect(paged).toEqual(whole);
  });

  it('--staff lists the slots that staff member is free for, naming only them; --per-day keeps the first of each day', async () => {
    const from = studio.reserve(48);
    const rows: Row[] = json(await cli(['availability', 'time-slots', cut.id, '--from', from, '--days', '2', '--staff', studio.staff[1]!.slice(0, 8), '--tz', 'UTC', '--json']));
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.availableResources.flatMap((a) => a.resources.map((x) => x.id))).toEqual([studio.staff[1]]);
    const perDay: Row[] = json(await cli(['availability', 'time-slots', cut.id, '--from', from, '--days', '2', '--per-day', '1', '--tz', 'UTC', '--json']));
    const days = new Set(rows.map((r) => r.localStartDate.slice(0, 10)));
    expect(perDay.map((r) => r.localStartDate.slice(0, 10))).toEqual([...days].sort());
  });

  it('the table shows times on the clock of the zone it names (--tz, else the site\'s)', async () => {
    const from = studio.reserve(6);
    const args = ['availability', 'time-slots', cut.id, '--from', from, '--days', '1', '--tz', 'Asia/Tokyo'];
    const rows: Row[] = json(await cli([...args, '--json']));
    expect(rows[0]!.timeZone).toBe('Asia/Tokyo');
    const r = await cli(args, { tty: true, columns: 140, env: { CI: undefined } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/START\s+END\s+OPEN\s+BOOKABLE/);
    // The first row's start, as Tokyo's clock shows it (its local date is on that clock already).
    expect(r.stdout.split('\n')[1]).toContain(rows[0]!.localStartDate.slice(11, 16));
    expect(r.stdout).toMatch(/\b1\/1\b/);
    expect(r.stderr).toMatch(/times in Asia\/Tokyo/);
    expect(r.stderr).toMatch(/\d+ time slots of ".*", \d+ bookable/);
  });

  it('bad input: one line, exit 2, no stack', async () => {
    const klass = await studio.klass();
    expectError(await cli(['availability', 'time-slots', klass.id, '--days', '1']), 2, /is a class: time slots are for appointment services/);
    expectError(await cli(['availability', 'time-slots', cut.id, '--page-size', '0']), 2, /--page-size/);
    expectError(await cli(['availability', 'time-slots', cut.id, '--tz', 'Mars/Olympus']), 2, /not a time zone/);
    expectError(await cli(['availability', 'time-slot', cut.id, 'someday']), 2, /START: 'someday' is not a date/);
  });

  it('a start no staff member works at: the platform says SLOT_NOT_FOUND (exit 1)', async () => {
    const from = studio.reserve(6);
    // 45-minute slots from the start of the day: a start 10 minutes past one is on no grid.
    const rows: Row[] = json(await cli(['availability', 'time-slots', cut.id, '--from', from, '--days', '1', '--tz', 'UTC', '--json']));
    const odd = new Date(Date.parse(utc(rows[0]!.localStartDate)) + 10 * 60_000).toISOString();
    expectError(await cli(['availability', 'time-slot', cut.id, odd]), 1, /SLOT_NOT_FOUND/);
  });
});
