/**
 * What the CLI checks before the first write, as a user meets it, in process against a real emulator on port 0:
 * the values a filter compares an enumeration field with (a typo in the CI recipe's filter must fail the step,
 * not approve nobody with exit 0), the field names of `--file` entities (a misspelt field would be sent and
 * dropped without a word), `--allow-unknown-fields` loosening both, the noun's own example in a filter hint,
 * and `members update` without a `--slug` it cannot take.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess, startTestEmulator, type CliResult, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';
import { expectError } from '../../helpers/expect-error.js';
import { lastEventSeq } from '../bulk/support.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 10, bookings: 20, members: 40 });
});
afterAll(async () => {
  await emu?.close();
});

const cli = (args: string[], opts: InProcessOptions = {}) => runInProcess(args, { emulator: emu, ...opts });
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const json = (r: CliResult): any => JSON.parse(r.stdout);

let n = 0;

describe('filter values of enumeration fields', () => {
  it('members approve by a misspelt status is refused (exit 2), listing the values, and changes nothing', async () => {
    const seq = await lastEventSeq(emu);
    const [line] = expectError(await cli(['members', 'approve', '--filter', '{"status":"PENDNG"}', '--yes']), 2, /--filter: "status" has no value "PENDNG"; did you mean "PENDING"\?/);
    expect(line).toContain('UNKNOWN, PENDING, APPROVED, BLOCKED, OFFLINE');
    expectError(await cli(['members', 'approve', '--where', 'privacyStatus=PUBLICC', '--yes']), 2, /--where: "privacyStatus" has no value "PUBLICC"; did you mean "PUBLIC"\?/);
    expectError(await cli(['members', 'block', '--filter', '{"status":{"$in":["PENDING","BLOKED"]}}', '--dry-run']), 2, /did you mean "BLOCKED"/);
    expectError(await cli(['members', 'list', '--where', 'activityStatus=MUTD']), 2, /did you mean "MUTED"/);
    expect(await lastEventSeq(emu)).toBe(seq);
    // The right spelling still selects the pending members.
    const dry = await cli(['members', 'approve', '--filter', '{"status":"PENDING"}', '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(json(dry).length).toBeGreaterThan(0);
  });

  it('is the same for every noun: bookings, orders, services', async () => {
    expectError(await cli(['bookings', 'list', '--where', 'status=NOPE']), 2, /--where: "status" has no value "NOPE"/);
    expectError(await cli(['bookings', 'confirm', '--where', 'status=PENDNG', '--yes']), 2, /did you mean "PENDING"/);
    expectError(await cli(['orders', 'list', '--where', 'status=PAUSD']), 2, /did you mean "PAUSED"/);
    expectError(await cli(['orders', 'pause', '--filter', '{"lastPaymentStatus":{"$in":["UNPAYED"]}}', '--yes']), 2, /"lastPaymentStatus" has no value "UNPAYED"/);
    expectError(await cli(['services', 'count', '--where', 'type=CLAS']), 2, /did you mean "CLASS"/);
    expectError(await cli(['services', 'update', '--filter', '{"payment.rateType":{"$ne":"FIXD"}}', '--set', 'hidden=true', '--yes']), 2, /did you mean "FIXED"/);
  });

  it('--allow-unknown-fields sends the value as given', async () => {
    const r = await cli(['--allow-unknown-fields', 'members', 'approve', '--filter', '{"status":"SOMETHING_NEW"}', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/nothing to do/);
  });

  it("a malformed --filter's hint shows the noun's own example", async () => {
    const [, hint] = expectError(await cli(['members', 'approve', '--filter', '{status:PENDING}', '--yes']), 2, /--filter is not valid JSON/);
    expect(hint).toBe(`hint: e.g. --filter '{"status":"PENDING"}'`);
    const [, orders] = expectError(await cli(['orders', 'list', '--filter', '[]']), 2, /--filter must be a JSON object/);
    expect(orders).toBe(`hint: e.g. --filter '{"status":{"$in":["ACTIVE","PAUSED"]}}'`);
  });
});

describe('field names of --file', () => {
  it('members update and create refuse a field the member schemas do not know, naming its path (exit 2), and change nothing', async () => {
    const id = (await cli(['members', 'create', '--email', `file-${n++}@example.com`, '--first-name', 'File'])).stdout.trim();
    const seq = await lastEventSeq(emu);
    const [, hint] = expectError(await cli(['members', 'update', id, '--file', '-'], { input: '{"profile":{"titel":"x"}}' }), 2, /^error: --file -: unknown field "profile.titel"; did you mean "profile.title"\?$/);
    expect(hint).toMatch(/^hint: fields of profile: .*title.*--allow-unknown-fields/);
    expectError(await cli(['members', 'create', '--file', '-'], { input: `{"member":{"loginEmail":"file-${n++}@example.com","contact":{"firstNmae":"A"}}}` }), 2, /unknown field "contact.firstNmae"; did you mean "contact.firstName"/);
    expect(await lastEventSeq(emu)).toBe(seq);

    // A file made with `members get --json` passes (the fields the platform owns included), and so does a
    // field unknown to this version with --allow-unknown-fields.
    const got = await cli(['members', 'get', id, '--json']);
    const edited = { ...json(got), profile: { ...json(got).profile, title: 'Round trip' } };
    const updated = await cli(['members', 'update', id, '--file', '-', '--json', 'profile.title'], { input: JSON.stringify(edited) });
    expect(updated.code, updated.stderr).toBe(0);
    expect(json(updated)).toEqual({ profile: { title: 'Round trip' } });
    const loose = await cli(['--allow-unknown-fields', 'members', 'update', id, '--file', '-'], { input: '{"profile":{"titel":"x"}}' });
    expect(loose.code, loose.stderr).toBe(0);
  });

  it('services create refuses the same way; a file from services get --json still creates', async () => {
    const seq = await lastEventSeq(emu);
    expectError(await cli(['services', 'create', '--file', '-'], { input: '{"name":"Typo","type":"CLASS","defaultCapacty":5}' }), 2, /--file -: unknown field "defaultCapacty"; did you mean "defaultCapacity"\?/);
    expectError(await cli(['services', 'create', '--file', '-'], { input: '{"service":{"name":"Typo","type":"CLASS","payment":{"rateType":"FIXED","fixd":{}}}}' }), 2, /unknown field "payment.fixd"; did you mean "payment.fixed"/);
    expect(await lastEventSeq(emu)).toBe(seq);
    const source = json(await cli(['services', 'list', '--limit', '1', '--json']))[0];
    const copy = await cli(['services', 'create', '--file', '-', '--name', `Copy ${n++}`], { input: JSON.stringify(source) });
    expect(copy.code, copy.stderr).toBe(0);
  });

  it('bookings create --file refuses a misspelt field of a booking or of its request', async () => {
    expectError(await cli(['bookings', 'create', '--file', '-'], { input: '{"booking":{"totalParticipant":1}}' }), 2, /--file booking 1: unknown field "booking.totalParticipant"; did you mean "booking.totalParticipants"/);
    expectError(await cli(['bookings', 'create', '--file', '-'], { input: '{"booking":{"totalParticipants":1},"sendSmsReminders":true}' }), 2, /unknown field "sendSmsReminders"; did you mean "sendSmsReminder"/);
  });
});

describe('members update and the slug', () => {
  it('does not offer --slug in its help; given anyway, it points to members slug', async () => {
    const help = await cli(['members', 'update', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--nickname/);
    expect(help.stdout).not.toMatch(/--slug/);
    expect((await cli(['members', 'create', '--help'])).stdout).toMatch(/--slug/);
    const [, hint] = expectError(await cli(['members', 'update', 'abcd', '--slug', 'x']), 2, /the slug has its own verb/);
    expect(hint).toBe('hint: sitectl members slug abcd x');
  });
});
