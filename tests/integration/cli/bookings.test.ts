/**
 * `sitectl availability`, `bookings` and `msb` as a user runs them (docs/bookings.md "The CLI"), in process
 * against a real emulator on port 0: output formats, the platform's codes with hints and the right exit codes on
 * bad input, nothing changed by a refused command.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TZDate } from '@date-fns/tz';
import { CancelError } from '../../../src/core/errors.js';
import { answering, createCliSandbox, runInProcess, startTestEmulator, type CliResult, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';
import { makeStudio, type Studio, type StudioSlot } from '../../helpers/studio.js';
import { expectError } from '../../helpers/expect-error.js';
import { lastEventSeq } from '../bulk/support.js';

let emu: TestEmulator;
/** The file's own staff and services (a test makes what it needs): open every day, around the clock. */
let studio: Studio;
/** An appointment of the studio (60 min, two staff members), and another (30 min) that can follow it. */
let massage: { name: string; id: string };
let sports: { name: string; id: string };
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', bookings: 300 });
  studio = await makeStudio((args, o) => cli(args, o), 'bookings');
  massage = await studio.appointment();
  sports = await studio.appointment({ minutes: 30 });
});
afterAll(async () => {
  await emu?.close();
});

const cli = (args: string[], opts: InProcessOptions = {}) => runInProcess(args, { emulator: emu, ...opts });
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const json = (r: CliResult): any => JSON.parse(r.stdout);
const DAY = 86_400_000;

/** The first local day from `after` on whose length in `zone` is not 24 hours: `YYYY-MM-DD` and its hours. */
function nextDstChange(after: number, zone: string): { day: string; hours: number } {
  const start = new TZDate(after, zone);
  for (let i = 0; i < 400; i++) {
    const a = new TZDate(start.getFullYear(), start.getMonth(), start.getDate() + i, zone);
    const b = new TZDate(start.getFullYear(), start.getMonth(), start.getDate() + i + 1, zone);
    const hours = (b.getTime() - a.getTime()) / 3_600_000;
    if (hours !== 24) return { day: `${a.getFullYear()}-${String(a.getMonth() + 1).padStart(2, '0')}-${String(a.getDate()).padStart(2, '0')}`, hours };
  }
  throw new Error(`no daylight-saving change in ${zone} within 400 days`);
}

/** A bookable slot of a studio service that no other test of the file was given. */
const freeSlot = (service: string): Promise<StudioSlot> => studio.slot(service);

describe('availability', () => {
  it('lists slots of a service named by its name, TSV when piped, JSON entries with --json', async () => {
    const tsv = await cli(['availability', massage.name, '--days', '5']);
    expect(tsv.code, tsv.stderr).toBe(0);
    const rows = tsv.stdout.trimEnd().split('\n').map((l) => l.split('\t'));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0]![0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\.000Z$/);
    expect(rows[0]![3]).toMatch(/^\d+\/\d+$/);
    const entries = json(await cli(['availability', massage.name, '--days', '5', '--bookable', '--json']));
    expect(entries.every((e: { bookable: boolean }) => e.bookable)).toBe(true);
    const fields = json(await cli(['availability', massage.name, '--days', '2', '--json', 'slot,openSpots']));
    for (const e of fields) expect(Object.keys(e).sort()).toEqual(['openSpots', 'slot']);
  });

  it('shows times on the --tz clock on a terminal, and reads --from in it', async () => {
    const r = await cli(['availability', massage.name, '--from', 'tomorrow', '--days', '3', '--tz', 'Asia/Tokyo'], { tty: true, columns: 140, env: { CI: undefined } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/START\s+END\s+STAFF\s+OPEN\s+BOOKABLE/);
    expect(r.stderr).toMatch(/times in Asia\/Tokyo/);
  });

  it('a course shows its places; bad flags and unknown services fail with one line', async () => {
    const course = await cli(['availability', 'Wheel Throwing Pottery Course']);
    expect(course.code, course.stderr).toBe(0);
    expect(course.stdout).toMatch(/^places\t\d+ open of \d+$/m);
    expectError(await cli(['availability', 'No Such Service']), 2, /no service has the id or name 'No Such Service'/);
    const typo = await cli(['availability', 'Sweedish Massage']);
    expectError(typo, 2, /no service has the id or name 'Sweedish Massage'/);
    expect(typo.stderr).toMatch(/^hint: did you mean 'Swedish Massage'\?$/m);
    const staff = studio.staff;
    const mine = json(await cli(['availability', massage.name, '--days', '7', '--staff', staff[0]!.slice(0, 6), '--json', 'slot']));
    expect(mine.length).toBeGreaterThan(0);
    for (const e of mine) expect(e.slot.resource.id).toBe(staff[0]);
    const stranger = await cli(['availability', massage.name, '--staff', 'nonsense-id']);
    expectError(stranger, 2, new RegExp(`--staff 'nonsense-id' is not a staff member of "${massage.name}"`));
    expect(stranger.stderr).toContain(staff[0]);
    expectError(await cli(['availability', 'Swedish Massage', '--tz', 'Mars/Olympus']), 2, /--tz: 'Mars\/Olympus' is not a time zone/);
    expectError(await cli(['availability', 'Swedish Massage', '--from', 'tomorrow', '--to', 'today']), 2, /--to must be after --from/);
    expectError(await cli(['availability', 'Swedish Massage', '--from', 'next week']), 2, /--from: 'next week' is not a date or time/);
    expectError(await cli(['availability', 'Swedish Massage', '--json', 'slot,nope']), 2, /nope/);
  });

  it('takes --days N as calendar days of the site: a day across a daylight-saving change is 23 or 25 hours; at most 366 days', async () => {
    // The next change on the site's clock from today, whenever the suite runs: its day has one hourly slot more
    // (fall-back) or fewer (spring-forward) for a staff member who works around the clock.
    const change = nextDstChange(Date.now(), 'America/Los_Angeles');
    // A studio of its own: nothing is ever booked with its staff member.
    const quiet = await makeStudio((args, o) => cli(args, o), 'dst', 1);
    const hourly = await quiet.appointment();
    const day = json(await cli(['availability', hourly.name, '--from', change.day, '--days', '1', '--json', 'slot']));
    expect(day.length).toBe(change.hours);
    const from = change.day;
    const year = await cli(['availability', 'Swedish Massage', '--from', from, '--days', '366', '--json', 'slot']);
    expect(year.code, year.stderr).toBe(0);
    const starts = json(year).map((e: { slot: { startDate: string } }) => e.slot.startDate);
    expect(starts.length).toBeGreaterThan(0);
    const [y, m, d] = from.split('-').map(Number) as [number, number, number];
    const end = new TZDate(y, m - 1, d + 366, 'America/Los_Angeles').getTime();
    expect(Date.parse(starts[starts.length - 1])).toBeLessThan(end);
    const past = new TZDate(y, m - 1, d + 366, 1, 0, 'America/Los_Angeles');
    expectError(await cli(['availability', 'Swedish Massage', '--from', from, '--to', `${past.getFullYear()}-${String(past.getMonth() + 1).padStart(2, '0')}-${String(past.getDate()).padStart(2, '0')}T01:00`]), 2, /at most 366 days/);
  });

  it('multislot finds back-to-back chains of two services', async () => {
    const r = await cli(['availability', 'multislot', '--service', massage.name, '--service', sports.name, '--from', studio.reserve(), '--days', '1', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const chains = json(r);
    expect(chains.length).toBeGreaterThan(0);
    for (const c of chains.slice(0, 5)) {
      expect(c.nestedTimeSlots).toHaveLength(2);
      expect(c.nestedTimeSlots[1].start).toBe(c.nestedTimeSlots[0].end);
    }
    expectError(await cli(['availability', 'multislot', '--service', 'Swedish Massage']), 2, /2 to 6 services/);
  });

  it('says so on stderr when nothing is found, with the range searched (exit 0, nothing on stdout)', async () => {
    // Nothing in the past can be booked: a range there has no bookable chain or slot, at any hour.
    const r = await cli(['availability', 'multislot', '--service', massage.name, '--service', sports.name, '--from', '2020-01-06', '--days', '2', '--bookable'], { tty: true, env: { CI: undefined } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^No bookable chains found between Mon 2020-01-06 00:00 and Wed 2020-01-08 00:00 \(America\/Los_Angeles\)\.$/m);
    const slots = await cli(['availability', massage.name, '--from', '2020-01-06', '--days', '2', '--bookable'], { stderrTty: true });
    expect(slots.code, slots.stderr).toBe(0);
    expect(slots.stdout).toBe('');
    expect(slots.stderr).toMatch(/^No bookable slots found between Mon 2020-01-06 00:00 and Wed 2020-01-08 00:00 \(America\/Los_Angeles\)\.$/m);
    // JSON is data: an empty list, and the same line for a person reading stderr.
    const asJson = await cli(['availability', massage.name, '--from', '2020-01-06', '--days', '2', '--bookable', '--json']);
    expect(asJson.stdout.trim()).toBe('[]');
  });

  it('the multislot help example finds bookable chains on the demo data', async () => {
    const help = await cli(['availability', 'multislot', '--help']);
    const example = help.stdout.split('\n').find((l) => l.trim().startsWith('sitectl availability multislot'));
    expect(example, help.stdout).toBeDefined();
    // The example's words as a shell reads them ('...' and "..." quoting).
    const words = [...example!.trim().matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!).slice(1);
    const r = await cli([...words, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(json(r).length, `${example}: no chains`).toBeGreaterThan(0);
  });
});

describe('bookings create and the status actions', () => {
  it('creates from flags (the id when piped), refuses a taken slot with the platform code and a hint, changing nothing', async () => {
    const slot = await freeSlot(massage.name);
    const made = await cli(['bookings', 'create', '--service', massage.name, '--start', slot.startDate, '--first-name', 'Ana', '--email', 'ana@example.com']);
    expect(made.code, made.stderr).toBe(0);
    const id = made.stdout.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const seq = await lastEventSeq(emu);
    const again = await cli(['bookings', 'create', '--service', massage.name, '--start', slot.startDate, '--staff', slot.resource!.id]);
    expectError(again, 1, /is booked at \d{4}-\d{2}-\d{2} \d{2}:\d{2} \S+ \(SLOT_NOT_AVAILABLE, request id: [^)]+\)$/);
    expect(again.stderr).toMatch(/^hint: .*availability SERVICE/m);
    // Seven minutes past a slot: never offered (the booking grid), not "taken".
    const offGrid = await cli(['bookings', 'create', '--service', massage.name, '--start', new Date(Date.parse(slot.startDate) + 7 * 60_000).toISOString()]);
    expectError(offGrid, 1, new RegExp(`"${massage.name}" has no slot at .*every 15 minutes within staff working hours.*SLOT_NOT_AVAILABLE`));
    expect(await lastEventSeq(emu)).toBe(seq);
    const got = json(await cli(['bookings', 'get', id.slice(0, 8), '--json', 'id,status,contactDetails,allowedActions']));
    expect(got).toMatchObject({ id, status: 'CREATED', contactDetails: { firstName: 'Ana', email: 'ana@example.com' } });
    expect(got.allowedActions).toEqual(expect.objectContaining({ cancel: expect.any(Boolean) }));
  });

  it('bad input is exit 2 before anything is sent; a slot in the past is a policy violation', async () => {
    const seq = await lastEventSeq(emu);
    expectError(await cli(['bookings', 'create', '--service', 'Swedish Massage', '--start', '2026-02-30T10:00']), 2, /not a real date/);
    expectError(await cli(['bookings', 'create', '--service', 'Swedish Massage', '--start', '10am']), 2, /not a date or time/);
    expectError(await cli(['bookings', 'create', '--service', 'Swedish Massage', '--start', 'tomorrow', '--participants', '0']), 2, /--participants/);
    expectError(await cli(['bookings', 'create', '--service', 'Swedish Massage', '--start', 'tomorrow', '--email', 'not-an-email']), 2, /e-mail/);
    expectError(await cli(['bookings', 'create', '--service', 'Swedish Massage', '--start', 'tomorrow', '--json', 'bogus']), 2, /bogus/);
    expectError(await cli(['bookings', 'create', '--service', 'Wheel Throwing Pottery Course', '--start', 'tomorrow']), 2, /is a course/);
    expect(await lastEventSeq(emu)).toBe(seq);
    const past = await cli(['bookings', 'create', '--service', 'Swedish Massage', '--start', new Date(Date.now() - 3 * DAY).toISOString().slice(0, 13) + ':00Z']);
    expect(past.code).toBe(1);
    expect(past.stderr).toMatch(/BOOKING_POLICY_VIOLATION|SLOT_NOT_AVAILABLE/);
  });

  it('confirm, confirm again (nothing changed), cancel inside the window needs --ignore-policy, a final status refuses', async () => {
    const slot = await freeSlot(massage.name);
    const id = (await cli(['bookings', 'create', '--service', massage.name, '--start', slot.startDate])).stdout.trim();
    const confirmed = await cli(['bookings', 'confirm', id, '--json', 'id,status,revision']);
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(json(confirmed)).toEqual({ id, status: 'CONFIRMED', revision: '2' });
    const again = await cli(['bookings', 'confirm', id]);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/already confirmed; nothing changed/);
    const stale = await cli(['bookings', 'cancel', id, '--revision', '1', '--ignore-policy', '--yes']);
    expectError(stale, 1, /REVISION_MISMATCH/);
    const canceled = await cli(['bookings', 'cancel', id, '--ignore-policy', '--json', 'status', '--yes']);
    expect(json(canceled)).toEqual({ status: 'CANCELED' });
    expectError(await cli(['bookings', 'decline', id, '--yes']), 1, /cannot be declined: it is CANCELED/);
  });

  it('reschedule moves to a free slot; participants of an appointment are refused; fields and actions', async () => {
    const first = await freeSlot(massage.name);
    const second = await freeSlot(massage.name);
    const id = (await cli(['bookings', 'create', '--service', massage.name, '--start', first.startDate])).stdout.trim();
    const moved = await cli(['bookings', 'reschedule', id, '--start', second.startDate, '--staff', second.resource!.id, '--ignore-policy', '--json', 'startDate,revision']);
    expect(moved.code, moved.stderr).toBe(0);
    expect(json(moved)).toEqual({ startDate: second.startDate, revision: '2' });
    expectError(await cli(['bookings', 'participants', id, '2']), 1, /appointment/);
    const fields = await cli(['bookings', 'fields', id, '--namespace', '@acme/crm', '--data', '{"vip":true}', '--json']);
    expect(json(fields)).toEqual({ namespace: '@acme/crm', namespaceData: { vip: true } });
    expectError(await cli(['bookings', 'fields', id, '--namespace', '@acme/crm', '--data', '{"__proto__":{"x":1}}']), 2, /not an allowed field name/);
    const actions = json(await cli(['bookings', 'actions', id, '--json']));
    expect(actions).toEqual([{ id, cancel: expect.any(Boolean), reschedule: expect.any(Boolean) }]);
  });

  it('creates many from an NDJSON file, reporting each line; a refused line is exit 3', async () => {
    const a = await freeSlot(massage.name);
    const b = await freeSlot(massage.name);
    const service = massage.id;
    const dir = mkdtempSync(join(tmpdir(), 'bookings-file-'));
    const file = join(dir, 'many.ndjson');
    const line = (startDate: string, staff?: string) => JSON.stringify({ bookedEntity: { slot: { serviceId: service, startDate, ...(staff ? { resource: { id: staff } } : {}) } }, contactDetails: { firstName: 'File' } });
    writeFileSync(file, [line(a.startDate, a.resource!.id), line(b.startDate, b.resource!.id), line(a.startDate, a.resource!.id)].join('\n') + '\n');
    const r = await cli(['bookings', 'create', '--file', file, '--yes']);
    expect(r.code).toBe(3);
    const results = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(results.map((x: { index: number }) => x.index)).toEqual([1, 2, 3]);
    expect(results[0].id).toBeTruthy();
    expect(results[2].error).toMatch(/SLOT_NOT_AVAILABLE/);
    // The same rows through the one exporter: --csv with a field list, --json as {results, total, created, failed}.
    const c = await freeSlot(massage.name);
    writeFileSync(file, [line(c.startDate, c.resource!.id), line(c.startDate, c.resource!.id)].join('\n') + '\n');
    const csv = await cli(['bookings', 'create', '--file', file, '--yes', '--csv', 'index,status']);
    expect(csv.code).toBe(3);
    expect(csv.stdout).toBe('index,status\n1,CREATED\n2,\n');
    const d = await freeSlot(massage.name);
    writeFileSync(file, line(d.startDate, d.resource!.id) + '\n');
    const summary = json(await cli(['bookings', 'create', '--file', file, '--yes', '--json', 'id,created']));
    expect(summary).toEqual({ results: [{ id: expect.any(String) }], created: 1 });
    writeFileSync(file, '{"bookedEntity":{"slot":{"serviceId":"x"}}}\n');
    expectError(await cli(['bookings', 'create', '--file', file]), 2, /booking 1: bookedEntity\.slot\.startDate/);
  });

  it('a --file run whose reply was lost after the bookings were made is resumed: they are found, not made twice', async () => {
    const service = massage.id;
    const slots = [await freeSlot(massage.name), await freeSlot(massage.name), await freeSlot(massage.name)];
    const dir = mkdtempSync(join(tmpdir(), 'bookings-resume-'));
    const file = join(dir, 'lost.ndjson');
    const course = json(await cli(['services', 'list', '--where', 'name=Wheel Throwing Pottery Course', '--json', 'schedule']))[0].schedule.id as string;
    const emails = [...slots.map((_, i) => `lost-reply-${i}@example.com`), 'Lost-Course@Example.com'];
    // The first line's time has no offset: the create reads it as UTC, and so must the resume, on any clock.
    const startOf = (s: StudioSlot, i: number) => (i === 0 ? s.startDate.replace(/(?:\.000)?Z$/, '') : s.startDate);
    const lines = slots.map((s, i) => JSON.stringify({ bookedEntity: { slot: { serviceId: service, startDate: startOf(s, i), resource: { id: s.resource!.id } } }, contactDetails: { firstName: 'Lost', email: emails[i] } }));
    // A course line, past its availability checks (its places and booking window change with the day the suite
    // runs): sent again, it would be booked twice.
    lines.push(JSON.stringify({ booking: { bookedEntity: { schedule: { scheduleId: course } }, contactDetails: { firstName: 'Lost', email: emails[3] } }, flowControlSettings: { skipAvailabilityValidation: true } }));
    writeFileSync(file, lines.join('\n') + '\n');
    const made = async (email: string) => json(await cli(['bookings', 'list', '--contact', email, '--json', 'id']));
    // One state directory for the run and its resumes (the journal lives there).
    const sandbox = createCliSandbox();
    const run = (args: string[]) => cli(args, { sandbox });
    // The bulk create is made, then its reply is a 500: the CLI cannot tell, so it says how to resume.
    await emu.request('PUT', '/__emulator/faults', { errorRate: 1, errorPhase: 'after' });
    let lost: CliResult;
    try {
      lost = await run(['bookings', 'create', '--file', file, '--yes']);
    } finally {
      await emu.request('PUT', '/__emulator/faults', { errorRate: 0 });
    }
    expect(lost.code, lost.stderr).toBe(3);
    expect(lost.stderr).toMatch(/4 of 4 bookings may not have been made: their request failed on the way/);
    // Off a terminal the command to resume carries --yes, as every bulk verb's does.
    const journal = /^hint: resume with: sitectl bookings create --resume (\S+) --yes /m.exec(lost.stderr)?.[1];
    expect(journal, lost.stderr).toBeTruthy();
    for (const email of emails) expect(await made(email)).toHaveLength(1);
    expectError(await run(['bookings', 'create', '--resume', journal!, '--file', file, '--yes']), 2, /takes no --file/);
    // Resumed: each line adopts the booking its lost create made (sending them again would be refused: the
    // slots are taken), and the change lists them as created, so undo would cancel them.
    expectError(await run(['bookings', 'create', '--resume', journal!, '--skip-availability', '--yes']), 2, /holds whole bookings/);
    const zone = process.env.TZ;
    process.env.TZ = 'America/Los_Angeles';
    let resumed: CliResult;
    try {
      resumed = await run(['bookings', 'create', '--resume', journal!, '--yes', '--json', 'index,id']);
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/^Looking for 4 bookings the platform may have made all the same/m);
    const ids = await Promise.all(emails.map(async (e) => (await made(e))[0].id as string));
    expect(json(resumed)).toMatchObject({ results: ids.map((id, i) => ({ index: i + 1, id })), total: 4, created: 4, failed: 0 });
    for (const email of emails) expect(await made(email)).toHaveLength(1);
    // Resumed again, nothing is sent: every line has its result.
    const again = await run(['bookings', 'create', '--resume', journal!, '--yes', '--json', 'id,created']);
    expect(json(again)).toEqual({ results: ids.map((id) => ({ id })), created: 4 });
    sandbox.cleanup();
  });
});

describe('bookings list and count', () => {
  it('filters by status, service name, dates, JSON paths or documented paths; counts agree', async () => {
    // A class of the studio with bookings in three statuses, made here.
    const yoga = await studio.klass({ capacity: 10 });
    const made = async (confirmed: boolean) => {
      const r = await cli(['bookings', 'create', '--service', yoga.name, '--start', yoga.firstSession, '--email', 'list-count@example.com', ...(confirmed ? ['--confirmed'] : [])]);
      expect(r.code, r.stderr).toBe(0);
      return r.stdout.trim();
    };
    const mine = [await made(true), await made(false), await made(false)];
    expect((await cli(['bookings', 'cancel', mine[2]!, '--yes'])).code).toBe(0);
    const service = yoga.id;
    const byFlags = json(await cli(['bookings', 'list', '--service', yoga.name, '--status', 'confirmed,created', '--all', '--json', 'id,status,bookedEntity']));
    expect(byFlags.map((b: { id: string }) => b.id).sort()).toEqual(mine.slice(0, 2).sort());
    for (const b of byFlags) {
      expect(['CONFIRMED', 'CREATED']).toContain(b.status);
      expect(b.bookedEntity.slot.serviceId).toBe(service);
    }
    const byJsonPath = json(await cli(['bookings', 'list', '--where', `bookedEntity.slot.serviceId=${service}`, '--filter', '{"status":{"$in":["CONFIRMED","CREATED"]}}', '--all', '--json', 'id']));
    const byDocumented = json(await cli(['bookings', 'list', '--filter', `{"bookedEntity.item.slot.serviceId":"${service}","status":{"$in":["CONFIRMED","CREATED"]}}`, '--all', '--json', 'id']));
    expect(byJsonPath.map((b: { id: string }) => b.id).sort()).toEqual(byFlags.map((b: { id: string }) => b.id).sort());
    expect(byDocumented).toEqual(byJsonPath);
    const count = await cli(['bookings', 'count', '--where', `bookedEntity.slot.serviceId=${service}`, '--filter', '{"status":{"$in":["CONFIRMED","CREATED"]}}']);
    expect(Number(count.stdout)).toBe(byFlags.length);
    const countByFlags = await cli(['bookings', 'count', '--service', yoga.name, '--status', 'confirmed,created']);
    expect(Number(countByFlags.stdout), countByFlags.stderr).toBe(byFlags.length);
    // Listed by start time unless --sort says otherwise.
    const starts = json(await cli(['bookings', 'list', '--all', '--json', 'startDate'])).map((b: { startDate: string }) => b.startDate);
    expect(starts.length).toBeGreaterThan(100);
    expect(starts).toEqual([...starts].sort());
    const week = json(await cli(['bookings', 'list', '--from', 'today', '--to', new Date(Date.now() + 7 * DAY).toISOString(), '--all', '--json', 'startDate']));
    for (const b of week) expect(Date.parse(b.startDate)).toBeLessThan(Date.now() + 7 * DAY);
    // The class's session is two days ahead or more: a range from then on holds it, one ending before it does not.
    const session = Date.parse(yoga.firstSession);
    const around = json(await cli(['bookings', 'list', '--service', yoga.name, '--from', new Date(session - DAY).toISOString(), '--to', new Date(session + DAY).toISOString(), '--json', 'id']));
    expect(around).toHaveLength(3);
    const before = await cli(['bookings', 'list', '--service', yoga.name, '--to', new Date(session - DAY).toISOString(), '--json', 'id']);
    expect(json(before)).toEqual([]);
  });

  it('refuses an unknown status, a misspelt filter field and a bad --with before sending', async () => {
    expectError(await cli(['bookings', 'list', '--status', 'DONE']), 2, /--status: unknown value 'DONE'/);
    const typo = await cli(['bookings', 'list', '--filter', '{"stauts":"CONFIRMED"}']);
    expectError(typo, 2, /unknown field "stauts"; did you mean "status"\?/);
    expectError(await cli(['bookings', 'list', '--with', 'everything']), 2, /--with: unknown value 'everything'/);
  });
});

describe('bulk status actions by filter', () => {
  it('--dry-run piped prints every target; the run confirms exactly those and reports them', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const slot = await freeSlot(sports.name);
      ids.push((await cli(['bookings', 'create', '--service', sports.name, '--start', slot.startDate, '--email', 'bulk@example.com'])).stdout.trim());
    }
    const plan = await cli(['bookings', 'confirm', '--contact', 'bulk@example.com', '--status', 'CREATED', '--dry-run']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout.trimEnd().split('\n').map((l) => l.split('\t')[0]).sort()).toEqual([...ids].sort());
    const done = await cli(['bookings', 'confirm', '--contact', 'bulk@example.com', '--status', 'CREATED', '--yes', '--json']);
    expect(done.code, done.stderr).toBe(0);
    expect(json(done)).toMatchObject({ entity: 'bookings', action: 'confirm', counts: { confirmed: 3 } });
    const after = json(await cli(['bookings', 'list', '--contact', 'bulk@example.com', '--json', 'status']));
    expect(after.map((b: { status: string }) => b.status)).toEqual(['CONFIRMED', 'CONFIRMED', 'CONFIRMED']);
    const unconfirmed = await cli(['bookings', 'confirm', '--contact', 'bulk@example.com']);
    expectError(unconfirmed, 2, /confirming bookings needs confirmation/);
    expect(unconfirmed.stderr).toMatch(/^hint: pass --yes/m);
  });

  it('Ctrl-C at the prompt changes nothing and leaves no journal; --resume --dry-run only reads the journal', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const slot = await freeSlot(sports.name);
      ids.push((await cli(['bookings', 'create', '--service', sports.name, '--start', slot.startDate, '--email', 'resume@example.com'])).stdout.trim());
    }
    const dir = mkdtempSync(join(tmpdir(), 'sitectl-bookings-journal-'));
    const interrupted = join(dir, 'interrupted.ndjson');
    const seq = await lastEventSeq(emu);
    const stop = { ...answering(true), confirm: async () => Promise.reject(new CancelError()) };
    // --ignore-policy: the first free slots are inside the cancellation window, which a plan now lists as refused.
    const r = await cli(['bookings', 'cancel', '--contact', 'resume@example.com', '--ignore-policy', '--journal', interrupted], { prompter: stop, tty: true, env: { CI: undefined } });
    expect(r.code, r.stderr).toBe(130);
    expect(existsSync(interrupted)).toBe(false);
    expect(await lastEventSeq(emu)).toBe(seq);

    // A journal whose run stopped right after planning (its result lines never written).
    const full = join(dir, 'full.ndjson');
    expect((await cli(['bookings', 'confirm', '--ids', ids.join(','), '--yes', '--journal', full])).code).toBe(0);
    const planned = join(dir, 'planned.ndjson');
    writeFileSync(planned, readFileSync(full, 'utf8').split('\n').filter((l) => l && !/"kind":"(result|end)"/.test(l)).map((l) => l + '\n').join(''), { mode: 0o600 });
    const before = readFileSync(planned, 'utf8');
    const seq2 = await lastEventSeq(emu);
    const dry = await cli(['bookings', 'confirm', '--resume', planned, '--dry-run', '--yes']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toMatch(new RegExp(`dry run: ${ids.length} of ${ids.length} bookings would change .*; nothing was changed`));
    expect(dry.stdout.trimEnd().split('\n').map((l) => l.split('\t')[0]).sort()).toEqual([...ids].sort());
    expect(dry.stdout).toMatch(/resume@example\.com/); // the labels kept in the journal
    expect(readFileSync(planned, 'utf8')).toBe(before);
    expect(await lastEventSeq(emu)).toBe(seq2);
  });
});

describe('msb', () => {
  it('creates a sequential group, confirms it, refuses a single cancel of its booking, cancels the group', async () => {
    const chains = json(await cli(['availability', 'multislot', '--service', massage.name, '--service', sports.name, '--from', studio.reserve(), '--days', '1', '--bookable', '--json']));
    const chain = chains[0];
    expect(chain, 'a bookable chain in the studio').toBeDefined();
    const made = await cli(['msb', 'create', '--booking', `${massage.name}@${chain.nestedTimeSlots[0].start}`, '--booking', sports.name, '--email', 'pair@example.com']);
    expect(made.code, made.stderr).toBe(0);
    const id = made.stdout.trim();
    const group = json(await cli(['msb', 'get', id, '--json']));
    expect(group.bookings).toHaveLength(2);
    expect(new Date(group.bookings[1].booking.startDate).toISOString()).toBe(chain.nestedTimeSlots[1].start);
    const confirmed = json(await cli(['msb', 'confirm', id, '--json']));
    expect(confirmed.bookings.map((b: { booking: { status: string } }) => b.booking.status)).toEqual(['CONFIRMED', 'CONFIRMED']);
    const seq = await lastEventSeq(emu);
    const again = await cli(['msb', 'confirm', id]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/is already confirmed; nothing changed/);
    expect(await lastEventSeq(emu)).toBe(seq);
    const refused = await cli(['bookings', 'cancel', group.bookings[0].bookingId, '--yes']);
    expectError(refused, 1, /belongs to multi-service booking/);
    expect(refused.stderr).toContain(`hint: 'sitectl msb cancel ${id}' cancels the whole group`);
    const canceled = json(await cli(['msb', 'cancel', id, '--ignore-policy', '--json', '--yes']));
    expect(canceled.bookings.map((b: { booking: { status: string } }) => b.booking.status)).toEqual(['CANCELED', 'CANCELED']);
    const twice = await cli(['msb', 'cancel', id, '--yes']);
    expect(twice.code, twice.stderr).toBe(0);
    expect(twice.stderr).toMatch(/is already cancelled; nothing changed/);
    expectError(await cli(['msb', 'create', '--booking', 'Swedish Massage']), 2, /2 to 40 bookings/);
    expectError(await cli(['msb', 'create', '--booking', 'Swedish Massage', '--booking', 'Sports Massage']), 2, /first --booking needs its start/);
  });

  it('a fresh back-to-back group is bookable: its second part off the listing grid matches, its own bookings do not count', async () => {
    // A haircut (60 min + a 15-minute buffer) then a blow-dry (45 min): the second part starts when the first
    // ends, a start the availability listing's grid (session length plus buffer) does not hold, though bookings
    // may start on any 15-minute step.
    const cut = await studio.appointment({ bufferMinutes: 15 });
    const dry = await studio.appointment({ minutes: 45 });
    const chains = json(await cli(['availability', 'multislot', '--service', cut.name, '--service', dry.name, '--from', studio.reserve(), '--days', '1', '--bookable', '--json']));
    const offGrid = (c: { nestedTimeSlots: Array<{ start: string }> }) => {
      const at = new TZDate(Date.parse(c.nestedTimeSlots[1]!.start), 'America/Los_Angeles');
      return (at.getHours() * 60 + at.getMinutes()) % 45 !== 0;
    };
    const chain = chains.find(offGrid);
    expect(chain, 'a bookable chain whose second part is off its listing grid').toBeDefined();
    const made = await cli(['msb', 'create', '--booking', `${cut.name}@${chain.nestedTimeSlots[0].start}`, '--booking', dry.name, '--email', 'chain@example.com']);
    expect(made.code, made.stderr).toBe(0);
    const id = made.stdout.trim();
    const r = await cli(['msb', 'availability', id, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(json(r)).toMatchObject({ bookable: true, remainingCapacity: 1, totalCapacity: 1 });
    const text = await cli(['msb', 'availability', id]);
    expect(text.stdout).toMatch(/^bookable\tyes$/m);
    expect(text.stdout).toMatch(/^remaining\t1 of 1$/m);
    expect((await cli(['msb', 'cancel', id, '--ignore-policy', '--yes'])).code).toBe(0);
  });
});
