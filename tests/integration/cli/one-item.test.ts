/**
 * One verb engine (docs/architecture.md "Bulk runs, the journal, history and undo"): the single form of every
 * write verb that runs through the bulk engine is a one-item plan. Table-driven over those verbs, in process
 * against a real emulator on port 0 with one state directory (the journals) across the runs: a destructive one
 * off a terminal without --yes exits 2 and changes nothing (no domain event, no change in the history); each one
 * acts and is a change in `sitectl history --json` (one item changed, the command as typed); asked again, a state
 * change says "already ...; nothing changed" and adds nothing to the history. Then: undo of a single update puts
 * the value back; `--dry-run --json id,outcome` of one item; an unknown id, a policy refusal (its lift named, no
 * resume) and a stale `--revision` (exit 1, the platform's reason); the dashboard's single key is a change in the
 * history too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingKeys } from '../../../src/commands/bookings/shared/transitions.js';
import { uiActions } from '../../../src/commands/shared/ui-actions.js';
import { createContext } from '../../../src/context.js';
import { cliEnv, createCliSandbox, runInProcess, startTestEmulator, type CliSandbox, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';
import { makeStudio, type Studio } from '../../helpers/studio.js';
import { lastEventSeq } from '../bulk/support.js';
import { okJson } from '../../helpers/cli.js';

let emu: TestEmulator;
let sandbox: CliSandbox;
/** The file's own staff and services: every booking this file acts on is made here, at any hour. */
let studio: Studio;
/** An appointment no other row changes; two more that a multi-service booking groups; a class of ten places. */
let SINGLE: string;
let FIRST: string;
let SECOND: string;
let CLASS: { name: string; firstSession: string };
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 8, bookings: 160, members: 40 });
  sandbox = createCliSandbox();
  studio = await makeStudio((args, o) => cli(args, o), 'one-item');
  SINGLE = (await studio.appointment()).name;
  FIRST = (await studio.appointment()).name;
  SECOND = (await studio.appointment({ minutes: 30 })).name;
  CLASS = await studio.klass({ capacity: 10 });
});
afterAll(async () => {
  await emu?.close();
  sandbox?.cleanup();
});

const cli = (args: string[], opts: InProcessOptions = {}) => runInProcess(args, { emulator: emu, sandbox, ...opts });
const json = okJson;

interface Change {
  short: string;
  entity: string;
  action: string;
  changed: number;
  command: string;
}
const history = async (): Promise<Change[]> => json(await cli(['history', '--limit', '1000', '--json', 'short,entity,action,changed,command']));

/** `n` new bookings of the studio's appointment awaiting confirmation (CREATED), made here. */
async function createdBookings(n: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push((await studio.book(SINGLE, { email: 'one-item@example.com' })).id);
  return out;
}
const ids = async (noun: string, status: string): Promise<string[]> => json(await cli([noun, 'list', '--status', status, '--all', '--json', 'id'])).map((e: { id: string }) => e.id);

/** A verb's single form as the table runs it: its argv, whether it asks first, and whether it can be asked again. */
interface Row {
  entity: string;
  action: string;
  destructive: boolean;
  argv: string[];
  /** A state change: asked again, it is "already ..." and changes nothing. */
  again?: boolean;
  /** Run first (and not counted): what makes the row's change possible. */
  setup?: string[];
}

/** Bookable slots of the studio that no earlier call of this file took. */
const freeSlot = (service: string) => studio.slot(service);

/** A new multi-service booking of two appointments at free slots of their own (`--type separate`; CREATED). */
async function newGroup(): Promise<string> {
  const [a, b] = [await freeSlot(FIRST), await freeSlot(SECOND)];
  const made = await cli(['msb', 'create', '--type', 'separate', '--booking', `${FIRST}@${a.startDate}`, '--booking', `${SECOND}@${b.startDate}`, '--email', 'group@example.com']);
  expect(made.code, made.stderr).toBe(0);
  return made.stdout.trim();
}

/** A new single booking of an appointment. */
async function newBooking(): Promise<string> {
  return (await studio.book(SINGLE, { email: 'single@example.com' })).id;
}

/** The rows of the verbs whose single form is not a state change of the bookings, members, orders or plans tables. */
async function moreRows(plans: Array<{ id: string; public?: boolean; primary?: boolean; archived?: boolean }>): Promise<Row[]> {
  const groups = [await newGroup(), await newGroup()];
  const [single, moving] = [await newBooking(), await newBooking()];
  const to = await freeSlot(SINGLE);
  // A class booking of two, in the studio's class of ten.
  const two = await cli(['bookings', 'create', '--service', CLASS.name, '--start', CLASS.firstSession, '--participants', '2', '--email', 'one-item@example.com']);
  expect(two.code, two.stderr).toBe(0);
  const many = { id: two.stdout.trim(), totalParticipants: 2 };
  const staff = json(await cli(['staff', 'list', '--json', 'id,email,associatedWixIdentity'])).find((m: { email?: string; associatedWixIdentity?: unknown }) => m.email && !m.associatedWixIdentity);
  expect(staff, 'a staff member connected to no user').toBeTruthy();
  const primary = plans.find((p) => p.public !== false && !p.archived);
  const [svc] = json(await cli(['services', 'list', '--json', 'id,payment', '--limit', '1']));
  const service: string = svc.id;
  const unlinked = plans.find((p) => !(svc.payment?.pricingPlanIds ?? []).includes(p.id))!.id;
  const [member] = await ids('members', 'APPROVED');
  // The last approved member: the rows before block, delete or disconnect the first ones.
  const buyer = (await ids('members', 'APPROVED')).pop()!;
  const phoned = json(await cli(['members', 'list', '--all', '--json', 'id,contact'])).find((m: { id: string; contact?: { phones?: string[] } }) => m.id !== member && m.contact?.phones?.length).id;
  const policy = json(await cli(['services', 'booking-policies', 'list', '--json', 'id,default'])).find((p: { default?: boolean }) => !p.default).id;
  const row = (entity: string, action: string, destructive: boolean, argv: string[], again = true, setup?: string[]): Row => ({ entity, action, destructive, argv, again, setup });
  return [
    row('multi-service bookings', 'confirm', false, ['msb', 'confirm', groups[0]!]),
    row('multi-service bookings', 'add', false, ['msb', 'add', groups[0]!, single]),
    row('multi-service bookings', 'remove', false, ['msb', 'remove', groups[0]!, single]),
    row('multi-service bookings', 'cancel', true, ['msb', 'cancel', groups[0]!, '--ignore-policy']),
    row('multi-service bookings', 'pending', false, ['msb', 'pending', groups[1]!, '--skip-approval-check']),
    row('multi-service bookings', 'decline', true, ['msb', 'decline', groups[1]!]),
    row('bookings', 'reschedule', false, ['bookings', 'reschedule', moving, '--start', to.startDate, '--staff', to.resource!.id, '--ignore-policy']),
    row('bookings', 'participants', false, ['bookings', 'participants', many.id, String(many.totalParticipants - 1)]),
    row('staff members', 'connect', false, ['staff', 'connect', staff.id], false),
    row('staff members', 'disconnect', false, ['staff', 'disconnect', staff.id]),
    row('staff members', 'hours', false, ['staff', 'hours', 'set', staff.id, '--day', 'sun', '--from', '10:00', '--to', '12:00']),
    // The value verbs (commands/shared/values.ts): asked again, the item holds the value already.
    row('services', 'slug', false, ['services', 'slug', 'set', service, `slug-one-${Date.now()}`]),
    row('members', 'slug', false, ['members', 'slug', member, `slug-one-${Date.now()}`]),
    row('services', 'pricing-plans', false, ['services', 'pricing-plans', 'add', service, unlinked]),
    row('services', 'pricing-plans', false, ['services', 'pricing-plans', 'remove', service, unlinked]),
    row('services', 'locations', false, ['services', 'locations', 'set', service, '--customer']),
    row('booking policies', 'set-default', false, ['services', 'booking-policies', 'set-default', policy]),
    row('members', 'clear-contact', true, ['members', 'clear-contact', phoned, '--phones']),
    row('bookings', 'fields', false, ['bookings', 'fields', single, '--namespace', '@one/test', '--data', `{"n":${Date.now()}}`]),
    // Asked again, no plan is primary: said so, nothing changed (not an "already" of the plan).
    row('plans', 'clear-primary', false, ['plans', 'clear-primary'], false, ['plans', 'primary', primary!.id]),
    // Creates the undo table lists as cannot be undone: an order bought.
    row('orders', 'create', false, ['checkout', 'offline', primary!.id, '--member', buyer], false),
    row('orders', 'create', false, ['checkout', 'online', primary!.id, '--member', buyer], false),
  ];
}

/** One row per verb of the engine's single form, each on a real item of the demo data. */
async function table(): Promise<Row[]> {
  const [created, pending, approved, paused, active] = [await createdBookings(4), await ids('members', 'PENDING'), await ids('members', 'APPROVED'), await ids('orders', 'PAUSED'), await ids('orders', 'ACTIVE')];
  const services: string[] = json(await cli(['services', 'list', '--json', 'id', '--limit', '2'])).map((s: { id: string }) => s.id);
  const plans: Array<{ id: string; public?: boolean; primary?: boolean; archived?: boolean }> = json(await cli(['plans', 'list', '--json', 'id,public,primary,archived']));
  const plan = plans.filter((p) => p.public !== false && !p.primary && !p.archived);
  expect(created.length).toBeGreaterThan(3);
  expect(pending.length).toBeGreaterThan(0);
  expect(approved.length).toBeGreaterThan(4);
  expect(paused.length).toBeGreaterThan(0);
  expect(active.length).toBeGreaterThan(0);
  expect(plan.length).toBeGreaterThan(1);
  const row = (entity: string, action: string, destructive: boolean, argv: string[], again = true): Row => ({ entity, action, destructive, argv, again });
  return [
    row('bookings', 'confirm', false, ['bookings', 'confirm', created[0]!]),
    row('bookings', 'pending', false, ['bookings', 'pending', created[1]!, '--skip-approval-check']),
    row('bookings', 'decline', true, ['bookings', 'decline', created[2]!]),
    row('bookings', 'cancel', true, ['bookings', 'cancel', created[3]!, '--ignore-policy']),
    row('members', 'approve', false, ['members', 'approve', pending[0]!]),
    row('members', 'block', true, ['members', 'block', approved[0]!]),
    row('members', 'mute', false, ['members', 'mute', approved[1]!]),
    row('members', 'disconnect', true, ['members', 'disconnect', approved[2]!]),
    row('members', 'delete', true, ['members', 'delete', approved[3]!], false),
    row('orders', 'resume', false, ['orders', 'resume', paused[0]!]),
    row('orders', 'cancel', true, ['orders', 'cancel', active[0]!]),
    row('services', 'update', false, ['services', 'update', services[0]!, '--set', `description=one item ${Date.now()}`]),
    row('services', 'delete', true, ['services', 'delete', services[1]!], false),
    row('plans', 'visibility', false, ['plans', 'visibility', plan[0]!.id, 'hidden']),
    row('plans', 'archive', true, ['plans', 'archive', plan[1]!.id]),
    ...(await moreRows(plans)),
    ...(await writeTable()).map((w) => row(w.entity, w.action, w.destructive ?? false, w.argv(w.setup ? w.id! : ''), w.action === 'update')),
  ];
}

/** A declared write verb (create, update, delete of a noun of the writes table): how to run it and check its undo. */
interface WriteRow {
  entity: string;
  action: 'create' | 'update' | 'delete';
  destructive?: boolean;
  /** Makes (or finds) the item the verb acts on: its id. Absent for a create. */
  setup?(): Promise<string>;
  /** Filled by the table with what `setup` gave, for the first run. */
  id?: string;
  argv(id: string): string[];
  /** The item's state the verb changes (a field), or GONE when it no longer exists (for plans: archived). */
  read(id: string): Promise<unknown>;
  /** Another edit of the item, made between the change and its undo. */
  edit?(id: string): string[];
  /** A delete undone by a restore (the staff trash bin): the same id back, journaled as `restore`. */
  restores?: boolean;
}

const GONE = Symbol('gone');
const stamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
/** The field `path` of `NOUN get ID --json`, or GONE when the get fails (no such entity). */
const getField = (noun: string[], path: string) => async (id: string) => {
  const r = await cli([...noun, 'get', id, '--json']);
  if (r.code !== 0) return GONE;
  return path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], JSON.parse(r.stdout));
};
const P = ['services', 'booking-policies'];
/** A booking policy's field from the list (policies have no get), or GONE. */
const policyField = (path: string) => async (id: string) => {
  const found = json(await cli([...P, 'list', '--all', '--json'])).find((p: { id: string }) => p.id === id);
  return found ? path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], found) : GONE;
};
/** The id a create prints alone on a piped stdout. */
const created = async (argv: string[]): Promise<string> => {
  const r = await cli(argv);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
};
const newStaff = () => created(['staff', 'create', '--name', `Undo ${stamp()}`.slice(0, 40), '--phone', '+1 415 555 0100']);
const newPolicy = () => created([...P, 'create', '--name', `Undo ${stamp()}`, '--cancel-until', '600']);
const newPlan = () => created(['plans', 'create', '--name', `Undo ${stamp()}`, '--price', '20', '--every', '1 MONTH', '--description', 'first']);
const newMember = () => created(['members', 'create', '--email', `undo-${stamp()}@example.com`, '--last-name', 'First']);

/**
 * The write verbs of the writes table, declared once: the first test runs each as a row of the engine's single
 * forms, the second undoes each (and an edit in between makes the undo skip it).
 */
async function writeTable(): Promise<WriteRow[]> {
  const rows: WriteRow[] = [
    { entity: 'services', action: 'create', argv: () => ['services', 'create', '--name', `Undo ${stamp()}`, '--type', 'APPOINTMENT'], read: getField(['services'], 'name'), edit: (id) => ['services', 'update', id, '--set', 'description=edited'] },
    { entity: 'plans', action: 'create', argv: () => ['plans', 'create', '--name', `Undo ${stamp()}`, '--price', '15', '--every', '1 MONTH'], read: async (id) => ((await getField(['plans'], 'archived')(id)) === true ? GONE : 'active'), edit: (id) => ['plans', 'update', id, '--description', 'edited'] },
    { entity: 'staff members', action: 'create', argv: () => ['staff', 'create', '--name', `Undo ${stamp()}`.slice(0, 40)], read: getField(['staff'], 'name'), edit: (id) => ['staff', 'update', id, '--phone', '+1 415 555 0199'] },
    { entity: 'booking policies', action: 'create', argv: () => [...P, 'create', '--name', `Undo ${stamp()}`], read: policyField('name'), edit: (id) => [...P, 'update', id, '--waitlist', '4'] },
    { entity: 'members', action: 'create', argv: () => ['members', 'create', '--email', `undo-${stamp()}@example.com`], read: getField(['members'], 'loginEmail'), edit: (id) => ['members', 'update', id, '--first-name', 'Edited'] },
    { entity: 'plans', action: 'update', setup: newPlan, argv: (id) => ['plans', 'update', id, '--description', `second ${stamp()}`], read: getField(['plans'], 'description'), edit: (id) => ['plans', 'update', id, '--name', `Edited ${stamp()}`] },
    { entity: 'members', action: 'update', setup: newMember, argv: (id) => ['members', 'update', id, '--last-name', `Second${stamp()}`], read: getField(['members'], 'contact.lastName'), edit: (id) => ['members', 'update', id, '--first-name', 'Edited'] },
    { entity: 'staff members', action: 'update', setup: newStaff, argv: (id) => ['staff', 'update', id, '--phone', `+1 415 555 ${String(1000 + Math.floor(Math.random() * 8999))}`], read: getField(['staff'], 'phone'), edit: (id) => ['staff', 'update', id, '--description', 'edited'] },
    { entity: 'booking policies', action: 'update', setup: newPolicy, argv: (id) => [...P, 'update', id, '--cancel-until', String(700 + Math.floor(Math.random() * 500))], read: policyField('cancellationPolicy'), edit: (id) => [...P, 'update', id, '--waitlist', '4'] },
    { entity: 'staff members', action: 'delete', destructive: true, restores: true, setup: newStaff, argv: (id) => ['staff', 'delete', id], read: getField(['staff'], 'name') },
    { entity: 'booking policies', action: 'delete', destructive: true, setup: newPolicy, argv: (id) => [...P, 'delete', id], read: policyField('name') },
  ];
  // A booking and a group are taken back by a cancel: "gone" is cancelled. Each run books slots of its own,
  // none overlapping another (the studio hands them out so).
  const slots = [await freeSlot(SINGLE), await freeSlot(SINGLE), await freeSlot(SINGLE)];
  const pairs: Array<[{ startDate: string }, { startDate: string }]> = [];
  for (let i = 0; i < 3; i++) pairs.push([await freeSlot(FIRST), await freeSlot(SECOND)]);
  const statuses = async (id: string, noun: 'bookings' | 'msb'): Promise<unknown> => {
    const r = await cli([noun, 'get', id, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const all: string[] = noun === 'bookings' ? [JSON.parse(r.stdout).status] : JSON.parse(r.stdout).bookings.map((b: { booking: { status: string } }) => b.booking.status);
    return all.every((x) => x === 'CANCELED') ? GONE : all;
  };
  rows.push(
    {
      entity: 'bookings',
      action: 'create',
      argv: () => ['bookings', 'create', '--service', SINGLE, '--start', slots.shift()!.startDate, '--email', 'undo-create@example.com'],
      read: (id) => statuses(id, 'bookings'),
      edit: (id) => ['bookings', 'confirm', id],
    },
    {
      entity: 'multi-service bookings',
      action: 'create',
      argv: () => {
        const [a, b] = pairs.shift()!;
        return ['msb', 'create', '--type', 'separate', '--booking', `${FIRST}@${a.startDate}`, '--booking', `${SECOND}@${b.startDate}`, '--email', 'undo-group@example.com'];
      },
      read: (id) => statuses(id, 'msb'),
      edit: (id) => ['msb', 'confirm', id],
    },
  );
  for (const r of rows) if (r.setup) r.id = await r.setup();
  return rows;
}


describe('the single form of every engine verb', () => {
  it('asks first when destructive (exit 2 off a terminal, nothing changed), acts, is a change in the history; again, changes nothing', async () => {
    for (const r of await table()) {
      const name = `${r.entity} ${r.action}`;
      if (r.setup) expect((await cli(r.setup)).code, `${name}: setup`).toBe(0);
      const seen = (await history()).length;
      if (r.destructive) {
        const seq = await lastEventSeq(emu);
        const refused = await cli(r.argv);
        expect(refused.code, `${name}: ${refused.stderr}`).toBe(2);
        expect(refused.stderr, name).toMatch(/needs confirmation, and there is no terminal to ask on\nhint: pass --yes/);
        expect(await lastEventSeq(emu), name).toBe(seq);
        expect((await history()).length, name).toBe(seen);
      }
      const argv = r.destructive ? [...r.argv, '--yes'] : r.argv;
      const done = await cli(argv);
      expect(done.code, `${name}: ${done.stderr}`).toBe(0);
      expect(done.stderr, name).not.toMatch(/journal: /);
      const after = await history();
      expect(after.length, name).toBe(seen + 1);
      expect(after[0], name).toMatchObject({ entity: r.entity, action: r.action, changed: 1 });
      expect(after[0]!.command, name).toContain(r.argv.slice(0, 3).join(' '));
      if (!r.again) continue;
      const again = await cli(argv);
      expect(again.code, `${name} again: ${again.stderr}`).toBe(0);
      expect(again.stderr, name).toMatch(/already\b.*; nothing changed/);
      expect((await history()).length, `${name}: nothing changed, no change recorded`).toBe(seen + 1);
    }
  });

  it('each create, update and delete of the writes table: in the history, undone by undo --last --yes, skipped when edited in between (exit 3)', async () => {
    for (const w of await writeTable()) {
      const name = `${w.entity} ${w.action}`;
      const yes = w.destructive ? ['--yes'] : [];
      const target = w.id ?? '';
      const before = w.setup ? await w.read(target) : undefined;
      const done = await cli([...w.argv(target), ...yes]);
      expect(done.code, `${name}: ${done.stderr}`).toBe(0);
      const id = w.action === 'create' ? done.stdout.trim() : target;
      const [change] = await history();
      expect(change, name).toMatchObject({ entity: w.entity, action: w.action, changed: 1 });
      const changed = await w.read(id);
      const undo = await cli(['undo', '--last', '--yes']);
      expect(undo.code, `${name} undo: ${undo.stderr}`).toBe(0);
      if (w.action === 'create') {
        expect(changed, name).not.toBe(GONE);
        expect(await w.read(id), `${name}: undone, it is gone`).toBe(GONE);
      } else if (w.action === 'update') {
        expect(changed, name).not.toEqual(before);
        expect(await w.read(id), `${name}: undone, the old value is back`).toEqual(before);
      } else if (w.restores) {
        expect(changed, name).toBe(GONE);
        expect(await w.read(id), `${name}: undone, it is back with its id`).toEqual(before);
        const [back] = await history();
        expect(back, name).toMatchObject({ entity: w.entity, action: 'restore', changed: 1 });
        continue;
      } else {
        expect(changed, name).toBe(GONE);
        expect(undo.stderr, name).toMatch(/new ids/);
        const [back] = await history();
        expect(back, name).toMatchObject({ entity: w.entity, action: 'create', changed: 1 });
        continue;
      }
      // Again, with an edit of the item in between: the undo leaves it alone (exit 3) and changes nothing.
      const again = await cli([...w.argv(w.setup ? await w.setup() : ''), ...yes]);
      expect(again.code, `${name} again: ${again.stderr}`).toBe(0);
      const [second] = await history();
      const other = w.action === 'create' ? again.stdout.trim() : (second!.command.match(/[0-9a-f]{8}-[0-9a-f-]{27}/)?.[0] ?? '');
      expect(other, name).toMatch(/^[0-9a-f-]{36}$/);
      const edit = await cli(w.edit!(other));
      expect(edit.code, `${name} edit: ${edit.stderr}`).toBe(0);
      const state = await w.read(other);
      const skipped = await cli(['undo', second!.short, '--yes']);
      expect(skipped.code, `${name} undo after an edit: ${skipped.stderr}`).toBe(3);
      expect(skipped.stderr, name).toMatch(/changed since/);
      expect(await w.read(other), `${name}: left as it is`).toEqual(state);
    }
  });

  it('undo of a single update puts the value back', async () => {
    const [service] = json(await cli(['services', 'list', '--json', 'id,description', '--limit', '1']));
    const updated = json(await cli(['services', 'update', service.id, '--set', 'description=changed by one', '--json', 'id,description']));
    expect(updated).toEqual({ id: service.id, description: 'changed by one' });
    const [change] = await history();
    expect(change).toMatchObject({ entity: 'services', action: 'update', changed: 1 });
    const undo = await cli(['undo', change!.short, '--yes']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(json(await cli(['services', 'get', service.id, '--json', 'description'])).description).toBe(service.description);
  });

  it('--dry-run --json of one item is the one-item plan, with any of its fields', async () => {
    const [id] = await createdBookings(1);
    const seq = await lastEventSeq(emu);
    expect(json(await cli(['bookings', 'confirm', id!, '--dry-run', '--json', 'id,outcome']))).toEqual([{ id, outcome: 'change' }]);
    const [service] = json(await cli(['services', 'list', '--json', 'id,description', '--limit', '1']));
    expect(json(await cli(['services', 'update', service.id, '--set', 'description=dry one', '--dry-run', '--json']))).toEqual([
      { id: service.id, outcome: 'change', before: { description: service.description }, after: { description: 'dry one' } },
    ]);
    expect(await lastEventSeq(emu)).toBe(seq);
  });

  it('refusals: an unknown id, a policy (its flag named, no resume), a stale --revision (the platform says why); none resumable', async () => {
    const unknown = await cli(['bookings', 'confirm', '00000000-0000-4000-8000-000000000000']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error: no booking has the id 00000000-0000-4000-8000-000000000000\n/);

    // A booking inside its policy's 24-hour cancellation window, made here.
    const inside = await studio.book(SINGLE, { soon: true, email: 'inside@example.com' });
    expect(json(await cli(['bookings', 'actions', inside.id, '--json']))[0]).toMatchObject({ cancel: false });
    const seen = (await history()).length;
    const policy = await cli(['bookings', 'cancel', inside.id, '--yes']);
    expect(policy.code).toBe(1);
    expect(policy.stderr).toMatch(/cannot be canceled: .*booking policy.*\nhint: pass --ignore-policy to cancel it anyway\n$/);
    expect(policy.stderr).not.toMatch(/--resume/);
    expect((await history()).length).toBe(seen);

    // A create the platform refuses created nothing: the call's own error and exit code, and no change recorded.
    const [member] = json(await cli(['members', 'list', '--limit', '1', '--json', 'loginEmail']));
    const taken = await cli(['members', 'create', '--email', member.loginEmail]);
    expect(taken.code, taken.stderr).not.toBe(0);
    expect(taken.stderr).toMatch(/EMAIL_ALREADY_EXISTS|already/i);
    expect((await history()).length).toBe(seen);

    const [id] = await createdBookings(1);
    const stale = await cli(['bookings', 'confirm', id!, '--revision', '0']);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/^error: booking .* was not confirmed: changed by someone else since the plan \(revision 0 -> \d+\).*REVISION_MISMATCH/);
    expect(stale.stderr).not.toMatch(/--resume/);
  });

  it("the dashboard's single key is a one-item change in the history, under the verb's command", async () => {
    const [id, other] = await createdBookings(2);
    const { ctx } = createContext({ env: cliEnv(sandbox, emu), signal: new AbortController().signal });
    const api = await ctx.api();
    const confirm = uiActions(ctx, api, await bookingKeys()).find((a) => a.key === 'c')!;
    const asked: string[] = [];
    const io = { confirm: async (q: string) => (asked.push(q), true), progress: () => {} };
    expect(await confirm.run([id!], io)).toMatch(new RegExp(`^confirmed ${id!.slice(0, 8)} .*revision \\d+$`));
    expect(asked, 'confirm is not destructive: one row acts at once').toEqual([]);
    const [change] = await history();
    expect(change).toMatchObject({ entity: 'bookings', action: 'confirm', changed: 1 });
    expect(change!.command).toContain(`bookings confirm ${id}`);
    expect(await confirm.run([id!], io)).toMatch(/is already confirmed; nothing changed$/);
    const decline = uiActions(ctx, api, await bookingKeys()).find((a) => a.key === 'd')!;
    expect(await decline.run([other!], { confirm: async () => false, progress: () => {} })).toBe('canceled: nothing was changed');
    expect((await history())[0]!.short).toBe(change!.short);
  });
});
