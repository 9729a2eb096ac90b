/**
 * The one confirmation rule (docs/architecture.md "The confirmation rule"), table-driven over the verb
 * declarations: every command that declares a rule (commands/shared/confirm.ts `declareRule`) is found by walking
 * the whole program, and must be in the table below with the rule it was given (a new verb fails here until it is
 * listed). Then, in process against a real emulator: every destructive verb's single form off a terminal without
 * `--yes` exits 2 naming `--yes` and changes nothing (no domain event); every non-destructive single form acts at
 * once; the forms over many items need `--yes` off a terminal; a question answered no says "canceled: nothing was
 * changed".
 */
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ruleOf } from '../../../src/commands/shared/confirm.js';
import { createContext } from '../../../src/context.js';
import { createProgram } from '../../../src/program.js';
import { answering, runInProcess, startTestEmulator, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';
import { makeStudio, type Studio } from '../../helpers/studio.js';
import { lastEventSeq } from '../bulk/support.js';
import { okJson } from '../../helpers/cli.js';

let emu: TestEmulator;
/** The file's own staff and services: every booking the verbs act on is made here, at any hour. */
let studio: Studio;
/** An appointment of the studio, and two more that a multi-service booking groups. */
let SINGLE: string;
let FIRST: string;
let SECOND: string;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 8, bookings: 120, members: 40 });
  studio = await makeStudio((args, o) => cli(args, o), 'confirm-rule');
  SINGLE = (await studio.appointment()).name;
  FIRST = (await studio.appointment()).name;
  SECOND = (await studio.appointment({ minutes: 30 })).name;
});
afterAll(async () => {
  await emu?.close();
});

const cli = (args: string[], opts: InProcessOptions = {}) => runInProcess(args, { emulator: emu, ...opts });
const json = okJson;

/**
 * Every verb that declares a rule, and whether it is destructive: the two lists the rule was set with, plus the
 * verbs they miss with their closest sibling's rule (bookings pending, members mute/unmute, msb
 * pending/reschedule, plans visibility: not destructive; services slug set and locations set as services update,
 * services pricing-plans add/remove as msb add/remove, bookings participants and fields as bookings reschedule,
 * msb create as bookings create, members slug as members update, plans clear-primary as plans primary, checkout
 * online/offline as a create, undo as services apply: not destructive, each destructive where its change is,
 * tested below).
 */
const EXPECTED: Record<string, boolean> = {
  'bookings decline': true,
  'bookings confirm-or-decline': true,
  'bookings cancel': true,
  'members block': true,
  'orders pause': true,
  'orders cancel': true,
  'msb cancel': true,
  'msb decline': true,
  'services delete': true,
  'members delete': true,
  'plans archive': true,
  'members disconnect': true,
  'members clear-contact': true,
  'staff delete': true,
  'services booking-policies delete': true,
  'services categories delete': true,
  'members me delete': true,
  'bookings create': false,
  'services create': false,
  'members create': false,
  'plans create': false,
  'services update': false,
  'members update': false,
  'plans update': false,
  'services clone': false,
  // Always a change to many (a file); with --prune destructive (tested below).
  'services apply': false,
  'bookings confirm': false,
  'bookings reschedule': false,
  'bookings pending': false,
  'members approve': false,
  'members mute': false,
  'members unmute': false,
  'orders resume': false,
  'orders mark-paid': false,
  'orders postpone': false,
  'msb confirm': false,
  'msb pending': false,
  'msb reschedule': false,
  'msb add': false,
  'msb remove': false,
  'plans primary': false,
  'plans visibility': false,
  'staff create': false,
  'staff update': false,
  'staff connect': false,
  'staff disconnect': false,
  'staff hours set': false,
  'services booking-policies create': false,
  'services booking-policies update': false,
  'services booking-policies set-default': false,
  'staff restore': false,
  'services categories update': false,
  'services categories move': false,
  'services slug set': false,
  // With --removed-sessions DELETE destructive (tested below).
  'services locations set': false,
  'services pricing-plans add': false,
  'services pricing-plans remove': false,
  // As services pricing-plans add/remove; delete as every delete.
  'services add-on-groups create': false,
  'services add-on-groups update': false,
  'services add-on-groups set-add-ons': false,
  'services add-on-groups delete': true,
  'bookings participants': false,
  'bookings fields': false,
  'attendance mark': false,
  'msb create': false,
  'members slug': false,
  // The signed-in member's own slug and community, as members slug.
  'members me slug': false,
  'members me join': false,
  'members me leave': false,
  'plans clear-primary': false,
  'checkout online': false,
  'checkout offline': false,
  // Its inverse's rule: one item acts at once unless the inverse deletes, blocks or pauses (tests/integration/cli/undo*.test.ts).
  undo: false,
};

/**
 * Every other command, and why it declares no rule: it writes nothing on the site (it reads, or works on this
 * machine: profiles, the local emulator, completion), it is a member's own sign-in rather than a change made from
 * the back office, it is the raw passthrough (it sends what it is given), or it is an interactive view whose keys
 * run the verbs above with their declarations. A new command fails the walk below until it is in one table or
 * the other: a write verb cannot ship without a declared rule.
 */
const NO_RULE: Record<string, 'reads' | 'this machine' | "a member's own sign-in" | 'raw passthrough' | 'view of the verbs above'> = {
  'services list': 'reads',
  'services get': 'reads',
  'services search': 'reads',
  'services count': 'reads',
  'services export': 'reads',
  'services diff': 'reads',
  'services slug validate': 'reads',
  'services booking-policies list': 'reads',
  'services add-on-groups list': 'reads',
  'services booking-policies count': 'reads',
  'services booking-policies strictest': 'reads',
  'services booking-forms list': 'reads',
  'services categories list': 'reads',
  'services categories count': 'reads',
  'services categories get': 'reads',
  'staff search': 'reads',
  'staff deleted list': 'reads',
  'staff deleted get': 'reads',
  'services business-locations list': 'reads',
  'availability slots': 'reads',
  'availability schedule': 'reads',
  'availability multislot': 'reads',
  'availability time-slots': 'reads',
  'availability time-slot': 'reads',
  'bookings list': 'reads',
  'bookings get': 'reads',
  'bookings count': 'reads',
  'bookings export': 'reads',
  'staff count': 'reads',
  'attendance list': 'reads',
  'attendance get': 'reads',
  'attendance count': 'reads',
  'attendance export': 'reads',
  'staff export': 'reads',
  'members count': 'reads',
  'plans count': 'reads',
  'plans export': 'reads',
  'orders count': 'reads',
  'orders export': 'reads',
  'bookings actions': 'reads',
  'msb get': 'reads',
  'msb availability': 'reads',
  'msb actions': 'reads',
  'staff list': 'reads',
  'staff get': 'reads',
  'staff hours show': 'reads',
  'members list': 'reads',
  'members get': 'reads',
  'members export': 'reads',
  'plans list': 'reads',
  'plans public list': 'reads',
  'plans public query': 'reads',
  'plans get': 'reads',
  'plans stats': 'reads',
  'orders list': 'reads',
  'orders get': 'reads',
  'checkout price': 'reads',
  'checkout preview': 'reads',
  events: 'reads',
  history: 'reads',
  'sites list': 'reads',
  'auth status': 'reads',
  'auth token': 'reads',
  'profile list': 'reads',
  'profile show': 'reads',
  'profile add': 'this machine',
  'profile use': 'this machine',
  'profile remove': 'this machine',
  logout: 'this machine',
  completion: 'this machine',
  'emulator start': 'this machine',
  'emulator stop': 'this machine',
  'emulator status': 'this machine',
  'emulator reset': 'this machine',
  'emulator clock': 'this machine',
  'emulator sites list': 'this machine',
  'emulator sites create': 'this machine',
  'emulator sites remove': 'this machine',
  'emulator mail': 'this machine',
  'emulator pay': 'this machine',
  login: "a member's own sign-in",
  'auth register': "a member's own sign-in",
  'auth recover': "a member's own sign-in",
  'auth verify': "a member's own sign-in",
  'auth change-password': "a member's own sign-in",
  'auth resend-code': "a member's own sign-in",
  api: 'raw passthrough',
  browse: 'view of the verbs above',
  dashboard: 'view of the verbs above',
};

describe('the verb declarations', () => {
  it('every declared verb is in the table with the rule it was given, and its --help says it', async () => {
    const { ctx } = createContext({ env: { ...process.env } });
    const program = await createProgram(ctx, [], { allNouns: true });
    const declared: Record<string, boolean> = {};
    const walk = (cmd: Command, path: string[]): void => {
      const rule = ruleOf(cmd);
      if (rule) declared[path.join(' ')] = rule.destructive;
      for (const sub of cmd.commands) walk(sub, [...path, sub.name()]);
    };
    walk(program, []);
    expect(declared).toEqual(EXPECTED);
    // Every command that runs something (a leaf) declares a rule, or is in NO_RULE with the reason it needs none.
    const leaves: string[] = [];
    const leavesOf = (cmd: Command, path: string[]): void => {
      if (cmd.commands.length === 0) leaves.push(path.join(' '));
      for (const sub of cmd.commands) leavesOf(sub, [...path, sub.name()]);
    };
    for (const sub of program.commands) leavesOf(sub, [sub.name()]);
    const unclassified = leaves.filter((c) => !(c in EXPECTED) && !(c in NO_RULE));
    expect(unclassified, 'commands that neither declare a confirmation rule nor say why they need none').toEqual([]);
    expect(Object.keys(NO_RULE).filter((c) => c in EXPECTED)).toEqual([]);
    expect(Object.keys(NO_RULE).filter((c) => !leaves.includes(c)), 'NO_RULE names commands that do not exist').toEqual([]);
    for (const [verb, destructive] of Object.entries(EXPECTED)) {
      const help = await runInProcess([...verb.split(' '), '--help']);
      expect(help.stdout, verb).toMatch(destructive ? /asks before acting, on one item or many \(--yes to skip/ : /one item changes at once; a change to many asks first \(--yes to skip/);
      expect(help.stdout, verb).toMatch(/-y, --yes/);
    }
  });
});

/** `n` new bookings of the studio's appointment awaiting confirmation (CREATED), made here. */
async function createdBookings(n: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push((await studio.book(SINGLE, { email: 'confirm-rule@example.com' })).id);
  return out;
}

/** A new multi-service booking of two of the studio's appointments (`--type separate`; CREATED). */
async function newGroup(): Promise<string> {
  const [a, b] = [await studio.slot(FIRST), await studio.slot(SECOND)];
  const made = await cli(['msb', 'create', '--type', 'separate', '--booking', `${FIRST}@${a.startDate}`, '--booking', `${SECOND}@${b.startDate}`, '--email', 'confirm-rule@example.com']);
  expect(made.code, made.stderr).toBe(0);
  return made.stdout.trim();
}

async function memberIds(status: string): Promise<string[]> {
  return json(await cli(['members', 'list', '--status', status, '--all', '--json', 'id'])).map((m: { id: string }) => m.id);
}

async function orderIds(status: string): Promise<string[]> {
  return json(await cli(['orders', 'list', '--status', status, '--all', '--json', 'id'])).map((o: { id: string }) => o.id);
}

/** One argv per destructive verb, acting on one real item: a booking and a group made here, the rest of the demo data. */
async function destructiveSingles(): Promise<Record<string, string[]>> {
  const [created, members, active] = [await createdBookings(3), await memberIds('APPROVED'), await orderIds('ACTIVE')];
  const service = json(await cli(['services', 'list', '--json', 'id', '--limit', '1']))[0].id;
  const plan = json(await cli(['plans', 'list', '--json', 'id']))[0].id;
  const staff = json(await cli(['staff', 'list', '--json', 'id', '--limit', '1']))[0].id;
  const policy = json(await cli(['services', 'booking-policies', 'list', '--json', 'id,default'])).find((p: { default?: boolean }) => !p.default).id;
  const category = json(await cli(['services', 'categories', 'list', '--json', 'id', '--limit', '1']))[0].id;
  const msb = await newGroup();
  const group = (await emu.request('POST', '/bookings/v2/services/add-on-groups/create', { serviceId: service, addOnGroup: { name: `Rule group ${Date.now()}` } })).body.addOnGroup.id;
  expect(members.length).toBeGreaterThan(4);
  expect(active.length).toBeGreaterThan(1);
  return {
    'bookings decline': ['bookings', 'decline', created[0]!],
    'bookings cancel': ['bookings', 'cancel', created[1]!, '--ignore-policy'],
    'bookings confirm-or-decline': ['bookings', 'confirm-or-decline', created[2]!],
    'members block': ['members', 'block', members[0]!],
    'orders pause': ['orders', 'pause', active[0]!],
    'orders cancel': ['orders', 'cancel', active[1]!],
    'msb cancel': ['msb', 'cancel', msb, '--ignore-policy'],
    'msb decline': ['msb', 'decline', msb],
    'services delete': ['services', 'delete', service],
    'members delete': ['members', 'delete', members[1]!],
    'plans archive': ['plans', 'archive', plan],
    'members disconnect': ['members', 'disconnect', members[2]!],
    'members clear-contact': ['members', 'clear-contact', members[3]!, '--phones'],
    'staff delete': ['staff', 'delete', staff],
    'services booking-policies delete': ['services', 'booking-policies', 'delete', policy],
    'services categories delete': ['services', 'categories', 'delete', category],
    'services add-on-groups delete': ['services', 'add-on-groups', 'delete', service, group],
    // Asked before the member's token is even read: no sign-in is needed to see it refused.
    'members me delete': ['members', 'me', 'delete'],
  };
}

describe('one item', () => {
  it('every destructive verb off a terminal without --yes exits 2 naming --yes, and changes nothing', async () => {
    const singles = await destructiveSingles();
    expect(Object.keys(singles).sort()).toEqual(Object.keys(EXPECTED).filter((v) => EXPECTED[v]).sort());
    for (const [verb, argv] of Object.entries(singles)) {
      const before = await lastEventSeq(emu);
      const r = await cli(argv);
      expect(r.code, `${verb}: ${r.stderr}`).toBe(2);
      expect(r.stderr, verb).toMatch(/needs confirmation, and there is no terminal to ask on\nhint: pass --yes/);
      expect(await lastEventSeq(emu), verb).toBe(before);
    }
  });

  it('services locations set asks first with --removed-sessions DELETE, as every delete does', async () => {
    const service = json(await cli(['services', 'list', '--json', 'id', '--limit', '1']))[0].id;
    const before = await lastEventSeq(emu);
    const r = await cli(['services', 'locations', 'set', service, '--customer', '--removed-sessions', 'DELETE']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/needs confirmation, and there is no terminal to ask on\nhint: pass --yes/);
    expect(await lastEventSeq(emu)).toBe(before);
    const prompter = answering(false);
    const declined = await cli(['services', 'locations', 'set', service, '--customer', '--removed-sessions', 'DELETE'], { tty: true, env: { CI: undefined }, prompter });
    expect(declined.code, declined.stderr).toBe(1);
    expect(prompter.asked[0]).toMatch(/DELETE its sessions at the locations removed\?$/);
    expect(await lastEventSeq(emu)).toBe(before);
    expect((await cli(['services', 'locations', 'set', service, '--customer', '--removed-sessions', 'DELETE', '--yes'])).code).toBe(0);
    expect(await lastEventSeq(emu)).toBeGreaterThan(before);
  });

  it('with --yes the destructive verb acts', async () => {
    const [id] = await createdBookings(1);
    const before = await lastEventSeq(emu);
    const r = await cli(['bookings', 'decline', id!, '--yes', '--json', 'status']);
    expect(json(r).status).toBe('DECLINED');
    expect(await lastEventSeq(emu)).toBeGreaterThan(before);
  });

  it('a destructive verb answered no says "canceled: nothing was changed" (exit 1), nothing sent', async () => {
    const [id] = await memberIds('APPROVED');
    const before = await lastEventSeq(emu);
    const prompter = answering(false);
    const r = await cli(['members', 'block', id!], { tty: true, env: { CI: undefined }, prompter });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr.trim()).toBe('canceled: nothing was changed');
    expect(prompter.asked).toHaveLength(1);
    expect(await lastEventSeq(emu)).toBe(before);
  });

  it('every non-destructive verb acts at once off a terminal, without --yes', async () => {
    const [created, pending, approved, paused] = [await createdBookings(3), await memberIds('PENDING'), await memberIds('APPROVED'), await orderIds('PAUSED')];
    const service = json(await cli(['services', 'list', '--json', 'id', '--limit', '1']))[0].id;
    const staff = json(await cli(['staff', 'list', '--json', 'id', '--limit', '1']))[0].id;
    const plans = json(await cli(['plans', 'list', '--json', 'id,public,primary'])).filter((p: { public?: boolean; primary?: boolean }) => p.public !== false && !p.primary);
    const [plan, other] = [plans[0].id, plans[1].id];
    const linked = async () => json(await cli(['services', 'get', service, '--json', 'payment'])).payment?.pricingPlanIds ?? [];
    // Plans record no domain events: their change is read back.
    const planIs = (field: string, value: unknown) => async () => expect(json(await cli(['plans', 'get', plan, '--json', field]))[field]).toEqual(value);
    const n = Date.now();
    const category = json(await cli(['services', 'categories', 'list', '--json', 'id', '--limit', '1']))[0].id;
    // A staff member of this test's own, deleted: in the trash bin, for `staff restore`.
    const trashed = (await emu.request('POST', '/bookings/v1/staff-members', { staffMember: { name: `Rule trash ${n}`.slice(0, 40) } })).body.staffMember.id;
    expect((await emu.request('DELETE', `/bookings/v1/staff-members/${trashed}`)).status).toBe(200);
    const acts: Record<string, string[] | [string[], () => Promise<void>]> = {
      'bookings confirm': ['bookings', 'confirm', created[0]!],
      'bookings pending': ['bookings', 'pending', created[1]!, '--skip-approval-check'],
      'members approve': ['members', 'approve', pending[0]!],
      'members mute': ['members', 'mute', approved[0]!],
      'orders resume': ['orders', 'resume', paused[0]!],
      'plans primary': [['plans', 'primary', plan], planIs('primary', true)],
      'plans visibility': [['plans', 'visibility', plan, 'hidden'], planIs('public', false)],
      'plans clear-primary': [['plans', 'clear-primary'], async () => expect(json(await cli(['plans', 'list', '--json', 'primary'])).some((p: { primary?: boolean }) => p.primary)).toBe(false)],
      'services slug set': ['services', 'slug', 'set', service, `rule-${n}`],
      // Not --customer: the DELETE test above left that, and a service that has its locations already changes nothing.
      'services locations set': ['services', 'locations', 'set', service, '--custom-address', 'Rule St 1'],
      'services pricing-plans add': [['services', 'pricing-plans', 'add', service, other], async () => expect(await linked()).toContain(other)],
      'services pricing-plans remove': [['services', 'pricing-plans', 'remove', service, other], async () => expect(await linked()).not.toContain(other)],
      'bookings fields': ['bookings', 'fields', created[2]!, '--namespace', '@rule/test', '--data', `{"n":${n}}`],
      'members slug': ['members', 'slug', approved[2]!, `rule-${n}`],
      // The booking `bookings confirm` confirmed above.
      'attendance mark': ['attendance', 'mark', created[0]!, '--attended'],
      'checkout offline': ['checkout', 'offline', other, '--member', approved[3]!],
      'services create': ['services', 'create', '--name', `Rule ${n}`, '--type', 'CLASS', '--price', '10', '--capacity', '5'],
      'services update': ['services', 'update', service, '--set', `description=rule ${n}`],
      'services clone': ['services', 'clone', service],
      'members create': ['members', 'create', '--email', `rule-${n}@example.com`],
      'members update': ['members', 'update', approved[1]!, '--title', `Rule ${n}`],
      'plans create': [['plans', 'create', '--name', `Rule ${n}`, '--price', '5', '--unlimited'], async () => expect(json(await cli(['plans', 'get', `Rule ${n}`, '--json', 'name'])).name).toBe(`Rule ${n}`)],
      'plans update': [['plans', 'update', plan, '--price', '33'], async () => expect(json(await cli(['plans', 'get', plan, '--json', 'pricing'])).pricing.price.value).toMatch(/^33/)],
      'staff create': ['staff', 'create', '--name', `Rule ${n}`.slice(0, 40)],
      'staff update': ['staff', 'update', staff, '--description', `Rule ${n}`],
      'staff connect': ['staff', 'connect', staff],
      'staff disconnect': ['staff', 'disconnect', staff],
      'staff hours set': ['staff', 'hours', 'set', staff, '--day', 'sun', '--from', '10:00', '--to', '12:00'],
      'services booking-policies create': ['services', 'booking-policies', 'create', '--name', `Rule ${n}`],
      'services booking-policies update': ['services', 'booking-policies', 'update', `Rule ${n}`, '--max-participants', '2'],
      'services booking-policies set-default': ['services', 'booking-policies', 'set-default', `Rule ${n}`],
      'staff restore': ['staff', 'restore', trashed],
      'services categories update': ['services', 'categories', 'update', category, '--name', `Rule ${n}`],
      'services categories move': ['services', 'categories', 'move', category, '--last'],
      'services add-on-groups create': ['services', 'add-on-groups', 'create', service, '--name', `Rule ${n}`],
    };
    for (const [verb, entry] of Object.entries(acts)) {
      expect(EXPECTED[verb], verb).toBe(false);
      const [argv, check] = typeof entry[0] === 'string' ? [entry as string[], undefined] : (entry as [string[], () => Promise<void>]);
      const before = await lastEventSeq(emu);
      const r = await cli(argv);
      expect(r.code, `${verb}: ${r.stderr}`).toBe(0);
      if (check) await check();
      else expect(await lastEventSeq(emu), `${verb} made no change`).toBeGreaterThan(before);
    }
  });
});

describe('many items', () => {
  it('several ids, a filter or a file need --yes off a terminal (exit 2), nothing changed', async () => {
    const created = await createdBookings(2);
    const approved = await memberIds('APPROVED');
    const forms: string[][] = [
      ['bookings', 'confirm', '--ids', created.slice(0, 2).join(',')],
      ['members', 'approve', '--where', 'status=PENDING'],
      ['members', 'mute', '--ids', approved.slice(0, 2).join(',')],
      ['services', 'update', '--where', 'type=CLASS', '--set', 'description=x'],
      ['orders', 'resume', '--status', 'PAUSED'],
    ];
    for (const argv of forms) {
      const before = await lastEventSeq(emu);
      const r = await cli(argv);
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(/hint: pass --yes/);
      expect(await lastEventSeq(emu)).toBe(before);
    }
  });

  it('a bulk question answered no says "canceled: nothing was changed"', async () => {
    const created = await createdBookings(2);
    const before = await lastEventSeq(emu);
    const r = await cli(['bookings', 'confirm', '--ids', created.slice(0, 2).join(',')], { tty: true, env: { CI: undefined }, prompter: answering(false) });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/canceled: nothing was changed/);
    expect(await lastEventSeq(emu)).toBe(before);
  });
});
