/**
 * History and undo (docs/architecture.md "Bulk runs, the journal, history and undo"), in process against a real
 * emulator on port 0, with one state directory (the journals) across the runs: the README's main job undone
 * exactly, an edit in between skipped (exit 3), changes that cannot be undone listed (exit 1), deletes re-created,
 * clones removed, members unblocked, and `--no-history` keeping no record.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, runInProcess, startTestEmulator, type CliSandbox, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';
import { makeStudio, type Studio, type StudioSlot } from '../../helpers/studio.js';

let emu: TestEmulator;
let sandbox: CliSandbox;
/** The file's own staff and services: every booking this file undoes is made here, at any hour. */
let studio: Studio;
/** An appointment, two more a multi-service booking groups, and a class of ten places. */
let SINGLE: { name: string; id: string };
let FIRST: string;
let SECOND: string;
let CLASS: { name: string; firstSession: string };
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', bookings: 60, members: 40 });
  sandbox = createCliSandbox();
  studio = await makeStudio((args, o) => cli(args, o), 'undo');
  SINGLE = await studio.appointment();
  FIRST = (await studio.appointment()).name;
  SECOND = (await studio.appointment({ minutes: 30 })).name;
  CLASS = await studio.klass({ capacity: 10 });
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
    expect(undo.stderr).toMatch(/1 of 3 services were changed or deleted since/);
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

    // One copy is a change of its own too: in the history, and taken back by undo.
    const one = await cli(['services', 'clone', back[0].id, '--json', 'id,name']);
    expect(one.code, one.stderr).toBe(0);
    const copy = json(one);
    expect(copy.name).toBe(`${victim.name} (copy)`);
    expect(json(await cli(['history', '--json', 'entity,action,changed']))[0]).toMatchObject({ entity: 'services', action: 'clone', changed: 1 });
    expect((await cli(['undo', '--last', '--yes'])).code).toBe(0);
    expect((await cli(['services', 'get', copy.id])).code).toBe(1);
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

  it('each verb of the one engine is undone by its inverse (exit 0), or listed as cannot be undone (exit 1)', async () => {
    const book = async (service: string) => (await studio.book(service, { email: 'undo@example.com' })).id;
    const group = async () => {
      const [a, b] = [await studio.slot(FIRST), await studio.slot(SECOND)];
      const made = await cli(['msb', 'create', '--type', 'separate', '--booking', `${FIRST}@${a.startDate}`, '--booking', `${SECOND}@${b.startDate}`, '--email', 'undo@example.com']);
      expect(made.code, made.stderr).toBe(0);
      return made.stdout.trim();
    };
    const members = async (g: string) => json(await cli(['msb', 'get', g, '--json'])).bookings.map((b: { bookingId: string }) => b.bookingId);
    const booking = async (id: string) => json(await cli(['bookings', 'get', id, '--json', 'startDate,totalParticipants,revision']));
    const [g, single, moving] = [await group(), await book(SINGLE.name), await book(SINGLE.name)];
    const to = await studio.slot(SINGLE.name);
    const former = (await booking(moving)).startDate;
    // A class booking of two, in the studio's class of ten.
    const two = await cli(['bookings', 'create', '--service', CLASS.name, '--start', CLASS.firstSession, '--participants', '2', '--email', 'undo@example.com']);
    expect(two.code, two.stderr).toBe(0);
    const cls = { id: two.stdout.trim(), totalParticipants: 2 };
    const staff = json(await cli(['staff', 'list', '--json', 'id,email,associatedWixIdentity'])).find((m: { email?: string; associatedWixIdentity?: unknown }) => m.email && !m.associatedWixIdentity).id;
    const hours = async () => json(await cli(['staff', 'hours', 'show', staff, '--json', 'day,from,to']));
    const week = await hours();
    const plan = json(await cli(['plans', 'list', '--json', 'id,public,archived'])).find((p: { public?: boolean; archived?: boolean }) => p.public !== false && !p.archived).id;

    const svc = json(await cli(['services', 'list', '--json', 'id,mainSlug,locations,payment', '--limit', '1']))[0];
    const service = async () => json(await cli(['services', 'get', svc.id, '--json', 'mainSlug,locations,payment']));
    const link = json(await cli(['plans', 'list', '--json', 'id'])).find((p: { id: string }) => !(svc.payment?.pricingPlanIds ?? []).includes(p.id)).id;
    const member = json(await cli(['members', 'list', '--status', 'APPROVED', '--limit', '1', '--json', 'id,profile']))[0];
    const phoned = json(await cli(['members', 'list', '--all', '--json', 'id,contact'])).find((m: { id: string; contact?: { phones?: string[] } }) => m.id !== member.id && m.contact?.phones?.length).id;
    const defaultPolicy = async () => json(await cli(['services', 'booking-policies', 'list', '--json', 'id,default'])).find((p: { default?: boolean }) => p.default)?.id;
    const formerDefault = await defaultPolicy();
    const policy = json(await cli(['services', 'booking-policies', 'list', '--json', 'id,default'])).find((p: { default?: boolean }) => !p.default).id;

    /** A verb's single form, and what undoing it comes to: `back` (exit 0, then `check` holds) or `cannot` (exit 1). */
    const rows: Array<{ argv: string[]; undo: 'back' | 'cannot'; check?: () => Promise<void>; setup?: string[] }> = [
      { argv: ['msb', 'add', g, single], undo: 'back', check: async () => expect(await members(g)).not.toContain(single) },
      { argv: ['msb', 'remove', g, single], undo: 'back', setup: ['msb', 'add', g, single], check: async () => expect(await members(g)).toContain(single) },
      { argv: ['msb', 'confirm', g], undo: 'cannot' },
      { argv: ['msb', 'cancel', g, '--ignore-policy', '--yes'], undo: 'cannot' },
      { argv: ['bookings', 'reschedule', moving, '--start', to.startDate, '--staff', to.resource!.id, '--ignore-policy'], undo: 'back', check: async () => expect((await booking(moving)).startDate).toBe(former) },
      { argv: ['bookings', 'participants', cls.id, String(cls.totalParticipants - 1)], undo: 'back', check: async () => expect((await booking(cls.id)).totalParticipants).toBe(cls.totalParticipants) },
      { argv: ['staff', 'connect', staff], undo: 'back', check: async () => expect(json(await cli(['staff', 'get', staff, '--json'])).associatedWixIdentity).toBeUndefined() },
      { argv: ['staff', 'disconnect', staff], undo: 'cannot', setup: ['staff', 'connect', staff] },
      { argv: ['staff', 'hours', 'set', staff, '--day', 'sun,mon', '--from', '07:00', '--to', '08:30'], undo: 'back', check: async () => expect(await hours()).toEqual(week) },
      { argv: ['plans', 'clear-primary'], undo: 'cannot', setup: ['plans', 'primary', plan] },
      { argv: ['services', 'slug', 'set', svc.id, `undo-slug-${Date.now()}`], undo: 'back', check: async () => expect((await service()).mainSlug?.name).toBe(svc.mainSlug?.name) },
      { argv: ['members', 'slug', member.id, `undo-slug-${Date.now()}`], undo: 'back', check: async () => expect(json(await cli(['members', 'get', member.id, '--json', 'profile'])).profile?.slug).toBe(member.profile?.slug) },
      { argv: ['services', 'pricing-plans', 'add', svc.id, link], undo: 'back', check: async () => expect((await service()).payment?.pricingPlanIds ?? []).not.toContain(link) },
      { argv: ['services', 'pricing-plans', 'remove', svc.id, link], undo: 'back', setup: ['services', 'pricing-plans', 'add', svc.id, link], check: async () => expect((await service()).payment?.pricingPlanIds ?? []).toContain(link) },
      { argv: ['services', 'booking-policies', 'set-default', policy], undo: 'back', check: async () => expect(await defaultPolicy()).toBe(formerDefault) },
      { argv: ['members', 'clear-contact', phoned, '--phones', '--yes'], undo: 'cannot' },
      { argv: ['bookings', 'fields', single, '--namespace', '@undo/t', '--data', '{"n":2}'], undo: 'back', setup: ['bookings', 'fields', single, '--namespace', '@undo/t', '--data', '{"n":1}'], check: async () => expect(json(await cli(['bookings', 'get', single, '--json', 'extendedFields'])).extendedFields?.namespaces?.['@undo/t']).toEqual({ n: 1 }) },
      { argv: ['services', 'locations', 'set', svc.id, '--customer'], undo: 'back', check: async () => expect((await service()).locations?.map((l: { type: string }) => l.type)).toEqual(svc.locations?.map((l: { type: string }) => l.type)) },
    ];
    for (const r of rows) {
      const name = r.argv.slice(0, 2).join(' ');
      if (r.setup) expect((await cli(r.setup)).code, `${name}: setup`).toBe(0);
      const done = await cli(r.argv);
      expect(done.code, `${name}: ${done.stderr}`).toBe(0);
      const [change] = json(await cli(['history', '--json', 'short,command']));
      expect(change.command, name).toContain(r.argv.slice(0, 3).join(' '));
      const undo = await cli(['undo', change.short, '--yes']);
      if (r.undo === 'cannot') {
        expect(undo.code, `${name}: ${undo.stderr}`).toBe(1);
        expect(undo.stderr, name).toMatch(/^error: nothing to undo in change \w+ \(/);
        continue;
      }
      expect(undo.code, `${name}: ${undo.stderr}`).toBe(0);
      await r.check!();
    }
  });

  it('cancels a booking or a group a create made (exit 0), inside a cancellation window too; lists a checkout as cannot be undone (exit 1)', async () => {
    const status = async (id: string) => json(await cli(['bookings', 'get', id, '--json', 'status,allowedActions']));
    const undoLast = async (name: string) => {
      const [change] = json(await cli(['history', '--json', 'short,entity,action']));
      const undo = await cli(['undo', '--last', '--yes']);
      expect(undo.code, `${name}: ${undo.stderr}`).toBe(0);
      const [back] = json(await cli(['history', '--json', 'short,entity,action,undone']));
      expect(back, name).toMatchObject({ entity: change.entity, action: 'cancel', undone: `(undoes ${change.short})` });
      return change;
    };

    // A single booking: journaled as a create, taken back by a cancel.
    const at = (await studio.slot(SINGLE.name)).startDate;
    const made = await cli(['bookings', 'create', '--service', SINGLE.name, '--start', at, '--email', 'undo-create@example.com']);
    expect(made.code, made.stderr).toBe(0);
    const id = made.stdout.trim();
    expect(json(await cli(['history', '--json', 'entity,action,changed']))[0]).toMatchObject({ entity: 'bookings', action: 'create', changed: 1 });
    await undoLast('bookings create');
    expect((await status(id)).status).toBe('CANCELED');

    // Inside its service's cancellation window (where `bookings cancel` needs --ignore-policy): cancelled all the same.
    const soon = (await studio.slot(SINGLE.name, { soon: true })).startDate;
    const late = await cli(['bookings', 'create', '--service', SINGLE.name, '--start', soon, '--email', 'undo-late@example.com']);
    expect(late.code, late.stderr).toBe(0);
    const lateId = late.stdout.trim();
    expect((await status(lateId)).allowedActions?.cancel, 'booked inside the window').toBe(false);
    await undoLast('bookings create inside the window');
    expect((await status(lateId)).status).toBe('CANCELED');

    // A group: every booking of it cancelled.
    const [a, b] = [(await studio.slot(FIRST)).startDate, (await studio.slot(SECOND)).startDate];
    const group = await cli(['msb', 'create', '--type', 'separate', '--booking', `${FIRST}@${a}`, '--booking', `${SECOND}@${b}`, '--email', 'undo-group@example.com']);
    expect(group.code, group.stderr).toBe(0);
    expect(json(await cli(['history', '--json', 'entity,action,changed']))[0]).toMatchObject({ entity: 'multi-service bookings', action: 'create', changed: 1 });
    await undoLast('msb create');
    const statuses = json(await cli(['msb', 'get', group.stdout.trim(), '--json'])).bookings.map((x: { booking: { status: string } }) => x.booking.status);
    expect(statuses).toEqual(['CANCELED', 'CANCELED']);

    // An order bought: in the history, not undone.
    const plan = json(await cli(['plans', 'list', '--json', 'id,public,archived'])).find((p: { public?: boolean; archived?: boolean }) => p.public !== false && !p.archived).id;
    const buyer = json(await cli(['members', 'list', '--status', 'APPROVED', '--all', '--json', 'id'])).pop().id;
    for (const verb of ['offline', 'online']) {
      const order = await cli(['checkout', verb, plan, '--member', buyer]);
      expect(order.code, order.stderr).toBe(0);
      const [change] = json(await cli(['history', '--json', 'short,entity,action,changed,command']));
      expect(change, verb).toMatchObject({ entity: 'orders', action: 'create', changed: 1 });
      expect(change.command).toContain(`checkout ${verb}`);
      const undo = await cli(['undo', '--last', '--yes']);
      expect(undo.code, `${verb}: ${undo.stderr}`).toBe(1);
      expect(undo.stderr).toMatch(/^error: nothing to undo in change \w+ \(orders create\): an order bought has no way back on the platform/);
      expect(json(await cli(['orders', 'get', order.stdout.trim(), '--json', 'status'])).status).not.toBe('CANCELED');
    }
  });

  it('journals bookings create --file as one change: history lists it once, undo cancels each booking it created (a refused line: exit 3, only the created undone)', async () => {
    const service = SINGLE.id;
    const free: StudioSlot[] = [];
    for (let i = 0; i < 6; i++) free.push(await studio.slot(SINGLE.name));
    const dir = mkdtempSync(join(tmpdir(), 'undo-file-'));
    const file = join(dir, 'many.ndjson');
    const line = (s: { startDate: string; resource?: { id: string } }, n: number) =>
      JSON.stringify({ bookedEntity: { slot: { serviceId: service, startDate: s.startDate, resource: { id: s.resource!.id } } }, contactDetails: { firstName: 'File', email: `undo-file-${n}@example.com` } });
    const statuses = async (ids: string[]) => Promise.all(ids.map(async (id) => json(await cli(['bookings', 'get', id, '--json', 'status'])).status));

    // Three bookings: created, one change of three in the history, each cancelled by the undo.
    writeFileSync(file, [0, 1, 2].map((i) => line(free[i], i)).join('\n') + '\n');
    const made = await cli(['bookings', 'create', '--file', file, '--yes']);
    expect(made.code, made.stderr).toBe(0);
    const rows = made.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(rows.map((r: { index: number; status: string }) => [r.index, r.status])).toEqual([[1, 'CREATED'], [2, 'CREATED'], [3, 'CREATED']]);
    const ids = rows.map((r: { id: string }) => r.id);
    const history = json(await cli(['history', '--json', 'short,entity,action,changed,failed,command']));
    expect(history[0]).toMatchObject({ entity: 'bookings', action: 'create', changed: 3, failed: 0 });
    expect(history[0].command).toContain('bookings create --file');
    expect(history[1]?.command ?? '').not.toContain('bookings create --file');
    // Each booking's intent is on disk before its request goes: a `sending` line ahead of its result.
    const [{ journal }] = json(await cli(['history', '--json', 'journal']));
    const lines = readFileSync(journal, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    for (const n of [1, 2, 3]) {
      const sending = lines.findIndex((l: { kind: string; id: string }) => l.kind === 'sending' && l.id === `line-${n}`);
      const result = lines.findIndex((l: { kind: string; id: string }) => l.kind === 'result' && l.id === `line-${n}`);
      expect(sending, `line ${n}`).toBeGreaterThan(-1);
      expect(result, `line ${n}`).toBeGreaterThan(sending);
      expect(lines[sending].intended).toMatchObject({ contactDetails: { email: `undo-file-${n - 1}@example.com` } });
    }
    const undo = await cli(['undo', '--last', '--yes']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(await statuses(ids)).toEqual(['CANCELED', 'CANCELED', 'CANCELED']);
    expect(json(await cli(['history', '--json', 'entity,action,changed,undone']))[0]).toMatchObject({ entity: 'bookings', action: 'cancel', changed: 3, undone: `(undoes ${history[0].short})` });

    // A refused line (its slot taken by the first line): exit 3; the change records two, and its undo cancels those two only.
    writeFileSync(file, [line(free[3], 3), line(free[4], 4), line(free[3], 5)].join('\n') + '\n');
    const partly = await cli(['bookings', 'create', '--file', file, '--yes']);
    expect(partly.code, partly.stderr).toBe(3);
    const partRows = partly.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(partRows[2]).toMatchObject({ index: 3, error: expect.stringMatching(/SLOT_NOT_AVAILABLE/) });
    const [change] = json(await cli(['history', '--json', 'short,entity,action,changed,failed']));
    expect(change).toMatchObject({ entity: 'bookings', action: 'create', changed: 2, failed: 1 });
    const undoPart = await cli(['undo', '--last', '--yes']);
    expect(undoPart.code, undoPart.stderr).toBe(0);
    expect(await statuses([partRows[0].id, partRows[1].id])).toEqual(['CANCELED', 'CANCELED']);
    expect(json(await cli(['history', '--json', 'action,changed,undone']))[0]).toMatchObject({ action: 'cancel', changed: 2, undone: `(undoes ${change.short})` });

    // Every line refused (its slot booked by the run before): nothing was created, so nothing is added to the history.
    writeFileSync(file, line(free[5], 6) + '\n');
    expect((await cli(['bookings', 'create', '--file', file, '--yes'])).code).toBe(0);
    const before = json(await cli(['history', '--json', 'id'])).length;
    const none = await cli(['bookings', 'create', '--file', file, '--yes']);
    expect(none.code, none.stderr).toBe(3);
    expect(json(await cli(['history', '--json', 'id'])).length).toBe(before);
  });

  it('skips a reschedule whose former slot was taken since (exit 3), and one changed since', async () => {
    const [from, to, other] = [await studio.slot(SINGLE.name), await studio.slot(SINGLE.name), await studio.slot(SINGLE.name)];
    const id = (await cli(['bookings', 'create', '--service', SINGLE.name, '--start', from.startDate, '--staff', from.resource!.id, '--email', 'slot@example.com'])).stdout.trim();
    expect((await cli(['bookings', 'reschedule', id, '--start', to.startDate, '--staff', to.resource!.id, '--ignore-policy'])).code).toBe(0);
    const [moved] = json(await cli(['history', '--json', 'short']));
    // Someone else books the former slot: the move back has no room.
    const taker = await cli(['bookings', 'create', '--service', SINGLE.name, '--start', from.startDate, '--staff', from.resource!.id, '--email', 'taker@example.com']);
    expect(taker.code, taker.stderr).toBe(0);
    const undo = await cli(['undo', moved.short, '--yes']);
    expect(undo.code, undo.stderr).toBe(3);
    expect(undo.stderr).toMatch(/slot taken/);
    expect(json(await cli(['bookings', 'get', id, '--json', 'startDate'])).startDate).toBe(to.startDate);

    // Moved again since: the undo of the first move leaves it where it is.
    expect((await cli(['bookings', 'reschedule', id, '--start', other.startDate, '--staff', other.resource!.id, '--ignore-policy'])).code).toBe(0);
    const again = await cli(['undo', moved.short, '--yes']);
    expect(again.code, again.stderr).toBe(3);
    expect(again.stderr).toMatch(/changed since/);
    expect(json(await cli(['bookings', 'get', id, '--json', 'startDate'])).startDate).toBe(other.startDate);
  });
});
