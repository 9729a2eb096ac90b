/**
 * The SMS and CALL sign-in factors (docs/wire.md §22 "Sign-in factors", docs/sign-in.md) and the services'
 * creation errors (docs/wire.md §14 "Clone and resource-creation errors") through the CLI, in process against a
 * real emulator on port 0:
 *
 * - a member whose SMS (or CALL) factor is on gets a code on that channel in the outbox (`emulator mail` labels
 *   it), `login` stops for it, `auth resend-code` sends a new one (the old one stops working), `auth verify`
 *   completes it; a wrong code is refused and the sign-in stays waiting;
 * - `services clone` says per copy what it could not copy (FORM from a real condition, both errors from the
 *   faults): in the single form, in the `--count` run's summary table, `--json` report and "partly done" list,
 *   exit 3 as a partly done run;
 * - `services create` refused with the resource-creation errors, from their condition and from the fault.
 *
 * Every member and service is the test's own.
 */
import { STAFF_RESOURCE_TYPE_ID } from '../../../src/api/schemas/time-slot.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { removePidFile, writePidFile } from '../../../src/local/daemon.js';
import { createCliSandbox, runInProcess, startTestEmulator, type CliResult, type CliSandbox, type TestEmulator } from '../../helpers/index.js';
import { okJson } from '../../helpers/cli.js';

let emu: TestEmulator;
const sandboxes: CliSandbox[] = [];
let admin: CliSandbox;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 5, members: 5, bookings: 0 });
  // `emulator mail --data-dir` reads the outbox of the emulator of a data dir: this one, announced by a pid file.
  writePidFile(emu.dataDir, { pid: process.pid, url: emu.url, port: emu.port });
  admin = sandbox();
});
afterAll(async () => {
  if (emu) removePidFile(emu.dataDir, process.pid);
  await emu?.close();
  for (const s of sandboxes) s.cleanup();
});
afterEach(async () => {
  await emu.request('PUT', '/__emulator/faults', { cloneErrors: [], resourceError: null });
});

function sandbox(): CliSandbox {
  const s = createCliSandbox();
  sandboxes.push(s);
  return s;
}

const run = (s: CliSandbox, args: string[], input?: string) => runInProcess(args, { emulator: emu, sandbox: s, input, env: { SITECTL_CLIENT_ID: emu.emulator.clientId } });
const json = okJson;

let n = 0;
/** A registered, signed-out member with a phone on its contact and its `factor` on. */
async function member(s: CliSandbox, factor: 'SMS' | 'CALL'): Promise<{ email: string; phone: string }> {
  const email = `factor-${process.pid}-${n++}@example.com`;
  const phone = `+1 555 020 ${String(2000 + n)}`;
  const reg = await run(s, ['auth', 'register', '--email', email, '--password-stdin'], 'pass-word-1');
  expect(reg.code, reg.stderr).toBe(0);
  expect((await run(s, ['logout'])).code).toBe(0);
  const id = json(await run(admin, ['members', 'list', '--where', `loginEmail=${email}`, '--json', 'id']))[0].id as string;
  const upd = await emu.request('PATCH', `/members/v1/members/${id}`, { member: { id, contact: { phones: [phone] } } });
  expect(upd.status, JSON.stringify(upd.body)).toBe(200);
  const on = await emu.request('PUT', '/__emulator/identity-factor', { email, factorType: factor });
  expect(on.body.secondFactor, JSON.stringify(on.body)).toEqual({ factorType: factor, phone });
  return { email, phone };
}

/** The outbox's messages to `to`, through `sitectl emulator mail`. */
async function mailTo(to: string): Promise<Array<{ channel?: string; to: string; code?: string; subject: string }>> {
  return json(await run(admin, ['emulator', 'mail', '--data-dir', emu.dataDir, '--to', to, '--json']));
}

describe('the SMS and CALL sign-in factors', () => {
  it('login stops for the SMS code; resend-code sends a new one; a wrong or old code is refused; auth verify signs in', async () => {
    const s = sandbox();
    const { email, phone } = await member(s, 'SMS');
    const login = await run(s, ['login', '--email', email, '--password-stdin'], 'pass-word-1');
    expect(login.code).toBe(4);
    expect(login.stderr).toMatch(/sent a verification code by SMS to ••• \d{4}/);
    expect(login.stderr).toContain('auth verify');
    const first = (await mailTo(phone)).at(-1)!;
    expect(first).toMatchObject({ channel: 'SMS', to: phone, code: expect.stringMatching(/^\d{6}$/) });
    // The table labels the channel too.
    expect((await run(admin, ['emulator', 'mail', '--data-dir', emu.dataDir, '--to', phone])).stdout).toContain('SMS');

    const resent = await run(s, ['auth', 'resend-code']);
    expect(resent.code, resent.stderr).toBe(0);
    expect(resent.stderr).toMatch(/new code was sent by SMS to ••• \d{4}/);
    const second = (await mailTo(phone)).at(-1)!;
    expect(second.channel).toBe('SMS');
    const old = first.code === second.code ? String((Number(second.code) + 1) % 1_000_000).padStart(6, '0') : first.code!;
    const wrong = await run(s, ['auth', 'verify', '--code-stdin'], old);
    expect(wrong.code).toBe(4);
    expect(wrong.stderr).toContain('the verification code is not correct');
    const ok = await run(s, ['auth', 'verify', '--code-stdin'], second.code!);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).toContain(`Signed in as ${email}`);
    expect((await run(s, ['auth', 'status', '--json', 'role'])).stdout).toContain('member');
  });

  it('a CALL factor: the code is in the outbox as a call, and login --code completes it at once', async () => {
    const s = sandbox();
    const { email, phone } = await member(s, 'CALL');
    const login = await run(s, ['login', '--email', email, '--password-stdin'], 'pass-word-1');
    expect(login.code).toBe(4);
    expect(login.stderr).toMatch(/by a phone call to ••• \d{4}/);
    const call = (await mailTo(phone)).at(-1)!;
    expect(call).toMatchObject({ channel: 'CALL', to: phone, subject: 'Sign-in code (phone call)' });
    const ok = await run(s, ['auth', 'verify', '--code', call.code!]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).toContain(`Signed in as ${email}`);
  });

  it('the factor off again: the same member signs in with the password alone', async () => {
    const s = sandbox();
    const { email } = await member(s, 'SMS');
    expect((await emu.request('PUT', '/__emulator/identity-factor', { email, factorType: null })).body.secondFactor).toBeNull();
    const login = await run(s, ['login', '--email', email, '--password-stdin'], 'pass-word-1');
    expect(login.code, login.stderr).toBe(0);
  });
});

describe('clone errors and resource-creation errors through the CLI', () => {
  const service = (form?: string) => ({
    name: `Factors clone ${process.pid}-${n++}`,
    type: 'APPOINTMENT',
    ...(form ? { form: { id: form } } : {}),
    payment: { rateType: 'FIXED', fixed: { price: { value: '10', currency: 'USD' } }, options: { inPerson: true } },
    schedule: { availabilityConstraints: { durations: [{ minutes: 30 }] } },
  });
  async function create(body: object): Promise<CliResult> {
    return run(admin, ['services', 'create', '--file', '-', '--json', 'id,form'], JSON.stringify(body));
  }

  it('one clone the faults cut short prints the copy, says what was not copied and exits 3', async () => {
    const source = json(await create(service())).id as string;
    await emu.request('PUT', '/__emulator/faults', { cloneErrors: ['OPTIONS_AND_VARIANTS'] });
    const r = await run(admin, ['services', 'clone', source, '--json', 'id,name']);
    expect(r.code).toBe(3);
    const note = 'not copied: OPTIONS_AND_VARIANTS (its options and variants)';
    // --json carries the note too, beside the fields asked for (the --count report's `partial[].note`).
    expect(JSON.parse(r.stdout)).toEqual({ id: expect.any(String), name: expect.stringMatching(/\(copy\)$/), note });
    expect(r.stderr).toContain(note);
    const whole = await run(admin, ['services', 'clone', source, '--json']);
    expect(whole.code).toBe(3);
    expect(JSON.parse(whole.stdout)).toMatchObject({ id: expect.any(String), form: expect.any(Object), note });
    // A copy made whole has no note.
    await emu.request('PUT', '/__emulator/faults', { cloneErrors: [] });
    expect(json(await run(admin, ['services', 'clone', source, '--json'])).note).toBeUndefined();
  });

  it('a copy adopted by --resume after its reply was lost carries the same note as one made in one go', async () => {
    const plain = json(await create(service()));
    const forms = (await emu.request('POST', '/_api/bookings/v2/services/booking-forms/query', { query: {} })).body.bookingForms as Array<{ form?: { id: string }; id?: string }>;
    const other = forms.map((f) => f.form?.id ?? f.id!).find((id) => id !== plain.form.id)!;
    const source = json(await create(service(other))).id as string;
    const journal = join(admin.stateDir, `clone-adopt-${process.pid}.ndjson`);
    const first = await run(admin, ['services', 'clone', source, '--count', '2', '--yes', '--json', '--journal', journal]);
    expect(first.code).toBe(3);
    const made = JSON.parse(first.stdout).createdIds as string[];
    // As if killed with both copies in flight: sent and made, their replies (and notes) never journaled.
    const lines = readFileSync(journal, 'utf8').trim().split('\n');
    writeFileSync(journal, `${lines.filter((l, i) => i !== lines.length - 1 && !l.includes('"kind":"result"')).join('\n')}\n`);
    const resumed = await run(admin, ['services', 'clone', '--resume', journal, '--yes', '--json']);
    expect(resumed.code, resumed.stderr).toBe(3);
    const report = JSON.parse(resumed.stdout);
    expect(new Set(report.createdIds)).toEqual(new Set(made));
    expect(report.partial).toHaveLength(2);
    for (const p of report.partial) expect(p.note).toBe("not copied: FORM (its booking form: the copy has the site's default form)");
  });

  it('a source with a form other than the default: --count 2 lists each copy partly done (FORM), in the summary and --json, exit 3', async () => {
    const plain = json(await create(service()));
    const forms = (await emu.request('POST', '/_api/bookings/v2/services/booking-forms/query', { query: {} })).body.bookingForms as Array<{ form?: { id: string }; id?: string }>;
    const other = forms.map((f) => f.form?.id ?? f.id!).find((id) => id !== plain.form.id)!;
    const source = json(await create(service(other))).id as string;
    const report = await run(admin, ['services', 'clone', source, '--count', '2', '--yes', '--json']);
    expect(report.code).toBe(3);
    const body = JSON.parse(report.stdout);
    expect(body.counts.created).toBe(2);
    expect(body.partial).toHaveLength(2);
    for (const p of body.partial) expect(p.note).toBe("not copied: FORM (its booking form: the copy has the site's default form)");
    expect(body.partial.map((p: { createdId: string }) => p.createdId).sort()).toEqual([...body.createdIds].sort());
    expect(report.stderr).toContain('2 of 2 items were done only partly');

    const human = await run(admin, ['services', 'clone', source, '--count', '1', '--yes']);
    expect(human.code).toBe(3);
    expect(human.stderr).toContain('1 created (partly)');
    expect(human.stderr).toMatch(/partly done:\n {2}\S+ -> \S+\tnot copied: FORM/);

    // The default form copies: nothing is partly done, exit 0.
    const whole = await run(admin, ['services', 'clone', plain.id, '--count', '1', '--yes', '--json', 'counts,partial']);
    expect(json(whole)).toEqual({ counts: expect.objectContaining({ created: 1 }) });
  });

  it('services create is refused with UNKNOWN_CREATE_RESOURCE_TYPE_ERROR for an unknown resource type, FAILED_TO_CREATE_RESOURCES for a resource not of it, and the injected one', async () => {
    const unknown = await create({ ...service(), serviceResources: [{ resourceType: { id: '00000000-0000-4000-8000-000000000001' } }] });
    // The platform refused the request as given (400): bad input, exit 2 (docs/manual/commands.md).
    expect(unknown.code, unknown.stderr).toBe(2);
    expect(unknown.stderr).toContain('UNKNOWN_CREATE_RESOURCE_TYPE_ERROR');
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
    // The site's one resource type (its staff's, docs/wire.md §14): a resource of it is taken, another id is not.
    const staffType = STAFF_RESOURCE_TYPE_ID;
    const staff = await emu.request('POST', '/bookings/v1/staff-members/query', { query: {}, fields: ['RESOURCE_DETAILS'] });
    const resourceId = staff.body.staffMembers[0].resource.id as string;
    const notOfIt = await create({ ...service(), serviceResources: [{ resourceType: { id: staffType }, resourceIds: { values: ['00000000-0000-4000-8000-000000000002'] } }] });
    expect(notOfIt.code, notOfIt.stderr).toBe(2);
    expect(notOfIt.stderr).toContain('FAILED_TO_CREATE_RESOURCES');
    const taken = await create({ ...service(), serviceResources: [{ resourceType: { id: staffType }, resourceIds: { values: [resourceId] } }] });
    expect(taken.code, taken.stderr).toBe(0);
    await emu.request('PUT', '/__emulator/faults', { resourceError: 'FAILED_TO_CREATE_RESOURCES' });
    const failed = await create(service());
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain('FAILED_TO_CREATE_RESOURCES');
  });
});
