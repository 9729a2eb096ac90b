/**
 * Participant notifications rehearsed on the emulator (docs/wire.md §18, docs/manual/emulator.md "The outbox"):
 * `--notify [MESSAGE]` on the verbs whose calls carry `participantNotification`, what the outbox then shows (who
 * was told what, on which channel, for which booking and action) and that without it nobody is told; the delete
 * options of `services delete` (future bookings canceled, or kept with `--preserve-future-sessions`), its
 * by-filter call, and `bookings confirm-or-decline` in its single and bulk forms. In process against a real
 * emulator on port 0; every service and booking is the test's own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removePidFile, writePidFile } from '../../../src/local/daemon.js';
import { createCliSandbox, runInProcess, startTestEmulator, type CliSandbox, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';
import { expectError } from '../../helpers/expect-error.js';
import { makeStudio, type Studio } from '../../helpers/studio.js';
import { okJson } from '../../helpers/cli.js';

let emu: TestEmulator;
/** One state dir for the file: `sitectl undo --last` reads the journals the earlier runs wrote. */
let sandbox: CliSandbox;
let studio: Studio;
let massage: { name: string; id: string };
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', bookings: 50 });
  sandbox = createCliSandbox();
  // `emulator mail --data-dir` reads the outbox of the emulator of a data dir: this one, announced by a pid file.
  writePidFile(emu.dataDir, { pid: process.pid, url: emu.url, port: emu.port });
  studio = await makeStudio((args, o) => cli(args, o), 'notify');
  massage = await studio.appointment();
});
afterAll(async () => {
  if (emu) removePidFile(emu.dataDir, process.pid);
  await emu?.close();
  sandbox?.cleanup();
});

const cli = (args: string[], opts: InProcessOptions = {}) => runInProcess(args, { emulator: emu, sandbox, ...opts });
const json = okJson;

interface Notice {
  to: string;
  channel?: string;
  bookingId?: string;
  action?: string;
  message?: string;
  contact?: { name?: string; email?: string; phone?: string };
  multiServiceBookingId?: string;
  undeliverable?: string;
  text: string;
}

/** Every record of the outbox, as `sitectl emulator mail --json` prints it. */
async function outbox(): Promise<Notice[]> {
  return json(await cli(['emulator', 'mail', '--data-dir', emu.dataDir, '--limit', '1000', '--json'])) as Notice[];
}
const about = (all: Notice[], ids: readonly string[]) => all.filter((m) => m.bookingId !== undefined && ids.includes(m.bookingId));

/** A booking of a new slot for a named customer: its id. */
async function booking(service: string, who: string, opts: { confirmed?: boolean; phone?: string } = {}): Promise<string> {
  const slot = await studio.slot(service);
  const args = ['bookings', 'create', '--service', service, '--start', slot.startDate, '--email', `${who.toLowerCase()}@example.com`, '--first-name', who, '--last-name', 'Tester'];
  if (opts.confirmed) args.push('--confirmed');
  if (opts.phone) args.push('--phone', opts.phone);
  const r = await cli(args);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}

describe('bookings cancel --notify', () => {
  it('a bulk cancel with --notify puts one notification per booking in the outbox: who, which channel, what, for which change; without it, nobody', async () => {
    const told = [await booking(massage.name, 'Ada'), await booking(massage.name, 'Brook')];
    const silent = [await booking(massage.name, 'Cato'), await booking(massage.name, 'Dana')];

    const r = await cli(['bookings', 'cancel', '--ids', told.join(','), '--notify', 'Sorry, the studio is closed that day', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    const quiet = await cli(['bookings', 'cancel', '--ids', silent.join(','), '--yes']);
    expect(quiet.code, quiet.stderr).toBe(0);

    const all = await outbox();
    const notes = about(all, told);
    expect(notes).toHaveLength(2);
    const ada = notes.find((m) => m.bookingId === told[0])!;
    expect(ada).toMatchObject({ to: 'ada@example.com', channel: 'EMAIL', action: 'canceled', message: 'Sorry, the studio is closed that day', contact: { name: 'Ada Tester', email: 'ada@example.com' } });
    expect(ada.text).toContain('Sorry, the studio is closed that day');
    expect(notes.find((m) => m.bookingId === told[1])).toMatchObject({ to: 'brook@example.com', contact: { name: 'Brook Tester' } });
    // Without --notify nobody is told.
    expect(about(all, silent)).toEqual([]);
    for (const id of [...told, ...silent]) expect(json(await cli(['bookings', 'get', id, '--json', 'status'])).status).toBe('CANCELED');
  });

  it('--notify-via names the channels; a contact without a phone is listed as not reached by SMS', async () => {
    const withPhone = await booking(massage.name, 'Erin', { phone: '+15550100' });
    const without = await booking(massage.name, 'Fay');
    const r = await cli(['bookings', 'cancel', '--ids', `${withPhone},${without}`, '--notify', '--notify-via', 'email,sms', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    const notes = about(await outbox(), [withPhone, without]);
    expect(notes.filter((m) => m.bookingId === withPhone).map((m) => [m.channel, m.to]).sort()).toEqual([
      ['EMAIL', 'erin@example.com'],
      ['SMS', '+15550100'],
    ]);
    const sms = notes.find((m) => m.bookingId === without && m.channel === 'SMS')!;
    expect(sms.to).toBe('');
    expect(sms.undeliverable).toMatch(/no phone number/);
    // No message given: the record says what changed, and carries none.
    expect(sms.message).toBeUndefined();
  });

  it('refuses bad notify flags before anything is read or changed', async () => {
    const id = await booking(massage.name, 'Gus');
    expectError(await cli(['bookings', 'cancel', id, '--notify-via', 'sms', '--yes']), 2, /--notify-via goes with --notify/);
    expectError(await cli(['bookings', 'cancel', id, '--notify', 'x', '--notify-via', 'fax', '--yes']), 2, /--notify-via takes email, sms or email,sms/);
    expectError(await cli(['bookings', 'cancel', id, '--notify', 'x'.repeat(2001), '--yes']), 2, /at most 2000/);
    expect(json(await cli(['bookings', 'get', id, '--json', 'status'])).status).toBe('CREATED');
  });
});

describe('the other verbs that notify', () => {
  it('confirm, decline and reschedule tell the customer only when asked; the undo of a reschedule tells nobody', async () => {
    const confirmed = await booking(massage.name, 'Hana');
    const declined = await booking(massage.name, 'Ivo');
    const moved = await booking(massage.name, 'Jun', { confirmed: true });
    const plain = await booking(massage.name, 'Kim');
    expect((await cli(['bookings', 'confirm', confirmed, '--notify', 'See you soon'])).code).toBe(0);
    expect((await cli(['bookings', 'decline', declined, '--notify', '--yes'])).code).toBe(0);
    expect((await cli(['bookings', 'confirm', plain])).code).toBe(0);
    const to = await studio.slot(massage.name);
    const r = await cli(['bookings', 'reschedule', moved, '--start', to.startDate, '--notify', 'We moved you']);
    expect(r.code, r.stderr).toBe(0);
    const undo = await cli(['undo', '--last', '--yes']);
    expect(undo.code, undo.stderr).toBe(0);

    const notes = about(await outbox(), [confirmed, declined, moved, plain]);
    expect(notes.map((m) => [m.bookingId, m.action, m.message ?? null])).toEqual([
      [confirmed, 'confirmed', 'See you soon'],
      [declined, 'declined', null],
      [moved, 'rescheduled', 'We moved you'],
    ]);
  });

  it('msb cancel --notify tells the group’s customer once, naming the group', async () => {
    const sports = await studio.appointment({ minutes: 30 });
    const chains = json(await cli(['availability', 'multislot', '--service', massage.name, '--service', sports.name, '--from', studio.reserve(), '--days', '1', '--bookable', '--json']));
    const made = await cli(['msb', 'create', '--booking', `${massage.name}@${chains[0].nestedTimeSlots[0].start}`, '--booking', sports.name, '--email', 'lee@example.com', '--first-name', 'Lee']);
    expect(made.code, made.stderr).toBe(0);
    const id = made.stdout.trim();
    const r = await cli(['msb', 'cancel', id, '--notify', 'Both treatments are off', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    const notes = (await outbox()).filter((m) => m.multiServiceBookingId === id);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ to: 'lee@example.com', action: 'canceled', message: 'Both treatments are off' });
  });
});

describe('the multi-service verbs and the other bookings verbs whose calls carry participantNotification', () => {
  /** A new group of two bookings (a massage, then a sports massage) for a named customer: its id. */
  async function group(who: string, sports: string): Promise<string> {
    const chains = json(await cli(['availability', 'multislot', '--service', massage.name, '--service', sports, '--from', studio.reserve(), '--days', '1', '--bookable', '--json']));
    const made = await cli(['msb', 'create', '--booking', `${massage.name}@${chains[0].nestedTimeSlots[0].start}`, '--booking', sports, '--email', `${who.toLowerCase()}@example.com`, '--first-name', who]);
    expect(made.code, made.stderr).toBe(0);
    return made.stdout.trim();
  }
  const ofGroup = (all: Notice[], id: string) => all.filter((m) => m.multiServiceBookingId === id);

  it('msb confirm, decline, pending and reschedule tell the group’s customer once each, only with --notify', async () => {
    const sports = (await studio.appointment({ minutes: 30 })).name;
    const [confirmed, declined, pending, moved, quiet] = [await group('Uma', sports), await group('Vic', sports), await group('Wes', sports), await group('Xia', sports), await group('Yan', sports)];
    let r = await cli(['msb', 'confirm', confirmed, '--notify', 'See you then']);
    expect(r.code, r.stderr).toBe(0);
    r = await cli(['msb', 'decline', declined, '--notify', '--notify-via', 'email', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    r = await cli(['msb', 'pending', pending, '--skip-approval-check', '--notify', 'We will confirm within a day']);
    expect(r.code, r.stderr).toBe(0);
    const to = json(await cli(['availability', 'multislot', '--service', massage.name, '--service', sports, '--from', studio.reserve(), '--days', '1', '--bookable', '--json']))[0].nestedTimeSlots[0].start;
    r = await cli(['msb', 'reschedule', moved, '--start', to, '--notify', 'Moved, sorry']);
    expect(r.code, r.stderr).toBe(0);
    r = await cli(['msb', 'confirm', quiet]);
    expect(r.code, r.stderr).toBe(0);

    const all = await outbox();
    expect(ofGroup(all, confirmed).map((m) => [m.action, m.to, m.message])).toEqual([['confirmed', 'uma@example.com', 'See you then']]);
    expect(ofGroup(all, declined).map((m) => [m.action, m.channel, m.message ?? null])).toEqual([['declined', 'EMAIL', null]]);
    expect(ofGroup(all, pending).map((m) => [m.action, m.message])).toEqual([['marked_as_pending', 'We will confirm within a day']]);
    expect(ofGroup(all, moved).map((m) => [m.action, m.message])).toEqual([['rescheduled', 'Moved, sorry']]);
    expect(ofGroup(all, quiet)).toEqual([]);
    expect(json(await cli(['msb', 'get', moved, '--json'])).bookings[0].booking.startDate).toBe(new Date(to).toISOString());
  });

  it('msb create and bookings create tell the customer only with --notify; bookings pending likewise', async () => {
    const sports = (await studio.appointment({ minutes: 30 })).name;
    const chains = json(await cli(['availability', 'multislot', '--service', massage.name, '--service', sports, '--from', studio.reserve(), '--days', '1', '--bookable', '--json']));
    const made = await cli(['msb', 'create', '--booking', `${massage.name}@${chains[0].nestedTimeSlots[0].start}`, '--booking', sports, '--email', 'zed@example.com', '--notify', 'Booked both']);
    expect(made.code, made.stderr).toBe(0);
    const slot = await studio.slot(massage.name);
    const one = await cli(['bookings', 'create', '--service', massage.name, '--start', slot.startDate, '--email', 'abe@example.com', '--notify', 'Welcome', '--notify-via', 'email']);
    expect(one.code, one.stderr).toBe(0);
    const toPend = await booking(massage.name, 'Bea');
    const silent = await booking(massage.name, 'Cy');
    const p = await cli(['bookings', 'pending', '--ids', `${toPend},${silent}`, '--skip-approval-check', '--notify', 'Awaiting approval', '--yes']);
    expect(p.code, p.stderr).toBe(0);
    expect(p.stderr + p.stdout).not.toMatch(/nobody/i);

    const all = await outbox();
    expect(ofGroup(all, made.stdout.trim()).map((m) => [m.action, m.to, m.message])).toEqual([['created', 'zed@example.com', 'Booked both']]);
    expect(about(all, [one.stdout.trim()]).map((m) => [m.action, m.to, m.message])).toEqual([['created', 'abe@example.com', 'Welcome']]);
    expect(about(all, [toPend, silent]).map((m) => [m.bookingId, m.action, m.message]).sort()).toEqual(
      [
        [toPend, 'marked_as_pending', 'Awaiting approval'],
        [silent, 'marked_as_pending', 'Awaiting approval'],
      ].sort(),
    );
    // `booking` above created Bea and Cy without --notify: no `created` record for them.
    expect(about(all, [toPend, silent]).filter((m) => m.action === 'created')).toEqual([]);
  });

  it('refuses bad notify flags on the new verbs before anything changes', async () => {
    const id = await booking(massage.name, 'Dee');
    expectError(await cli(['bookings', 'pending', id, '--skip-approval-check', '--notify-via', 'sms']), 2, /--notify-via goes with --notify/);
    const slot = await studio.slot(massage.name);
    expectError(await cli(['bookings', 'create', '--service', massage.name, '--start', slot.startDate, '--email', 'eve@example.com', '--notify', 'x', '--notify-via', 'pigeon']), 2, /--notify-via takes/);
    expectError(await cli(['bookings', 'create', '--file', '-', '--notify'], { input: '{}' }), 2, /--file holds whole bookings/);
    expect(json(await cli(['bookings', 'get', id, '--json', 'status'])).status).toBe('CREATED');
    expect(json(await cli(['bookings', 'list', '--where', 'contactDetails.email=eve@example.com', '--json', 'id']))).toEqual([]);
  });
});

describe('services delete', () => {
  it('without --preserve-future-sessions cancels the future bookings and, with --notify, tells their customers; the question says undo cannot bring them back', async () => {
    const service = await studio.appointment();
    const b = await booking(service.name, 'Max', { confirmed: true });
    const dry = await cli(['services', 'delete', service.id, '--notify', 'Discontinued', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toMatch(/Their future bookings are canceled and their customers are notified by e-mail \("Discontinued"\); sitectl undo re-creates deleted services with new ids but cannot bring back the canceled bookings/);
    const r = await cli(['services', 'delete', service.id, '--notify', 'Discontinued', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(json(await cli(['bookings', 'get', b, '--json', 'status'])).status).toBe('CANCELED');
    expect(about(await outbox(), [b])).toMatchObject([{ to: 'max@example.com', action: 'service_deleted', message: 'Discontinued' }]);
    // The undo re-creates the service (a new id); the booking stays canceled.
    const undo = await cli(['undo', '--last', '--yes']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(json(await cli(['services', 'list', '--where', `name=${service.name}`, '--json', 'id'])).map((s: { id: string }) => s.id)).not.toContain(service.id);
    expect(json(await cli(['services', 'list', '--where', `name=${service.name}`, '--json', 'id']))).toHaveLength(1);
    expect(json(await cli(['bookings', 'get', b, '--json', 'status'])).status).toBe('CANCELED');
  });

  it('without --notify cancels them and tells nobody', async () => {
    const service = await studio.appointment();
    const b = await booking(service.name, 'Ned');
    expect((await cli(['services', 'delete', service.id, '--yes'])).code).toBe(0);
    expect(json(await cli(['bookings', 'get', b, '--json', 'status'])).status).toBe('CANCELED');
    expect(about(await outbox(), [b])).toEqual([]);
  });

  it('with --preserve-future-sessions keeps the sessions with participants and their bookings', async () => {
    const service = await studio.appointment();
    const b = await booking(service.name, 'Ola', { confirmed: true });
    const r = await cli(['services', 'delete', service.id, '--preserve-future-sessions', '--notify', 'x', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Future sessions with participants are kept/);
    expect(json(await cli(['bookings', 'get', b, '--json', 'status'])).status).toBe('CONFIRMED');
    expect(about(await outbox(), [b])).toEqual([]);
  });

  it('a filter selection sends the platform’s delete-by-filter call with the options; ids keep the bulk delete', async () => {
    const one = await studio.appointment();
    const two = await studio.appointment();
    const b = await booking(one.name, 'Pia');
    const byFilter = await cli(['--debug', 'services', 'delete', '--filter', JSON.stringify({ name: { $eq: one.name } }), '--notify', 'Gone', '--yes']);
    expect(byFilter.code, byFilter.stderr).toBe(0);
    expect(byFilter.stderr).toMatch(/POST \S*\/v2\/bulk\/services\/delete-by-filter/);
    expect(byFilter.stderr).not.toMatch(/\/v2\/bulk\/services\/delete(?!-by-filter)/);
    expect(json(await cli(['bookings', 'get', b, '--json', 'status'])).status).toBe('CANCELED');
    expect(about(await outbox(), [b])).toMatchObject([{ action: 'service_deleted', message: 'Gone' }]);
    const byIds = await cli(['--debug', 'services', 'delete', '--ids', two.id, '--yes']);
    expect(byIds.code, byIds.stderr).toBe(0);
    expect(byIds.stderr).toMatch(/POST \S*\/v2\/bulk\/services\/delete(?!-by-filter)/);
    expect(byIds.stderr).not.toMatch(/delete-by-filter/);
  });
});

describe('bookings confirm-or-decline', () => {
  it('one booking through the single call: confirmed where its slot has room, with the payment status given', async () => {
    const id = await booking(massage.name, 'Quinn');
    const r = await cli(['--debug', 'bookings', 'confirm-or-decline', id, '--payment-status', 'paid', '--yes', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`/v2/confirmation/${id}:confirmOrDecline`);
    expect(json(await cli(['bookings', 'get', id, '--json', 'status,paymentStatus']))).toEqual({ status: 'CONFIRMED', paymentStatus: 'PAID' });
    const again = await cli(['bookings', 'confirm-or-decline', id, '--yes']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/already/);
    expectError(await cli(['bookings', 'confirm-or-decline', id, '--payment-status', 'SOON', '--yes']), 2, /--payment-status takes/);
  });

  it('many through the bulk call: the one whose slot has no room is declined, the other confirmed', async () => {
    const free = await booking(massage.name, 'Rae');
    // Two bookings of one staff member at one time: the second was forced in (double-booked).
    const slot = await studio.slot(massage.name, { staff: studio.staff[0] });
    const first = await cli(['bookings', 'create', '--service', massage.name, '--start', slot.startDate, '--staff', studio.staff[0]!, '--email', 'sam@example.com', '--confirmed']);
    expect(first.code, first.stderr).toBe(0);
    const forced = await cli(['bookings', 'create', '--service', massage.name, '--start', slot.startDate, '--staff', studio.staff[0]!, '--email', 'tia@example.com', '--skip-availability']);
    expect(forced.code, forced.stderr).toBe(0);
    const clash = forced.stdout.trim();
    const r = await cli(['--debug', 'bookings', 'confirm-or-decline', '--ids', `${free},${clash}`, '--yes', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/POST \S*\/v2\/bulk\/bookings\/confirmOrDecline/);
    expect(json(await cli(['bookings', 'get', free, '--json', 'status'])).status).toBe('CONFIRMED');
    expect(json(await cli(['bookings', 'get', clash, '--json', 'status'])).status).toBe('DECLINED');
    expect(json(await cli(['history', '--json', 'action'])).map((h: { action: string }) => h.action)).toContain('confirm-or-decline');
  });
});
