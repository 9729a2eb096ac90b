/**
 * The verbs that send the specification's operations once reachable only through `sitectl api` (docs/wire.md
 * "Operations and their verbs"), in process against a real emulator on port 0: each checks the call it sent in
 * the `--debug` trace (method and path), its effect on the emulator, its `--json` output, undo where it has an
 * inverse, and bad input refused before anything is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, runInProcess, startTestEmulator, type CliResult, type CliSandbox, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';
import { expectError } from '../../helpers/expect-error.js';

let emu: TestEmulator;
/** The operator's sandbox: one history, so `sitectl undo --last` finds the change just made. */
let operator: CliSandbox;
const sandboxes: CliSandbox[] = [];
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 8, bookings: 0, members: 10 });
  operator = createCliSandbox();
  sandboxes.push(operator);
});
afterAll(async () => {
  await emu?.close();
  for (const s of sandboxes) s.cleanup();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const json = (r: CliResult): Json => JSON.parse(r.stdout);
const cli = (args: string[], opts: InProcessOptions = {}) => runInProcess(args, { emulator: emu, sandbox: operator, ...opts });
/** The requests a `--debug` run sent, as `METHOD path` (query string kept). */
const sent = (r: CliResult): string[] => [...r.stderr.matchAll(/^debug: > (GET|POST|PATCH|PUT|DELETE) https?:\/\/[^/]+(\S*)$/gm)].map((m) => `${m[1]} ${m[2]}`);

let n = 0;
const unique = () => `${Date.now().toString(36)}${n++}`;

async function service(name: string): Promise<Json> {
  const r = await cli(['services', 'create', '--name', name, '--type', 'APPOINTMENT', '--price', '30', '--capacity', '1']);
  expect(r.code, r.stderr).toBe(0);
  return (await emu.request('GET', `/_api/bookings/v2/services/${r.stdout.trim()}`)).body.service;
}

async function member(): Promise<string> {
  const r = await cli(['members', 'create', '--email', `spec-${unique()}@example.com`, '--first-name', 'Spec']);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}
const memberNow = async (id: string) => (await emu.request('GET', `/members/v1/members/${id}?fieldsets=FULL`));

describe('services update: each form by its own call', () => {
  it('one id sends the service PATCH (not the bulk call), prints the service, and undo sets it back', async () => {
    const s = await service(`Patch ${unique()}`);
    const bad = await cli(['--debug', 'services', 'update', s.id, '--set', 'nosuchfield=1']);
    expect(bad.code).toBe(2);
    expect(sent(bad).filter((l) => !l.startsWith('GET') && !l.includes('/query'))).toEqual([]);
    const r = await cli(['--debug', 'services', 'update', s.id, '--set', 'tagLine="Patched"', '--json', 'id,tagLine,revision']);
    expect(r.code, r.stderr).toBe(0);
    const writes = sent(r).filter((l) => !l.includes('/query') && !l.startsWith('GET'));
    expect(writes).toEqual([`PATCH /_api/bookings/v2/services/${s.id}`]);
    expect(json(r)).toEqual({ id: s.id, tagLine: 'Patched', revision: String(Number(s.revision) + 1) });
    const undo = await cli(['undo', '--last', '--yes']);
    expect(undo.code, undo.stderr).toBe(0);
    const back = (await emu.request('GET', `/_api/bookings/v2/services/${s.id}`)).body.service;
    expect(back.tagLine ?? null).toBe(s.tagLine ?? null);
  });

  it('--filter sends update-by-filter over the planned services only; the report counts them; undo restores each', async () => {
    const tag = `ByFilter ${unique()}`;
    const a = await service(`${tag} a`);
    const b = await service(`${tag} b`);
    const other = await service(`Other ${unique()}`);
    const filter = JSON.stringify({ name: { $startsWith: tag } });
    const r = await cli(['--debug', 'services', 'update', '--filter', filter, '--set', 'tagLine="From the filter"', '--yes', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const writes = sent(r).filter((l) => !l.includes('/query') && !l.startsWith('GET'));
    expect(writes).toEqual(['POST /bookings/v2/bulk/services/update-by-filter']);
    expect(json(r).counts).toMatchObject({ updated: 2 });
    for (const s of [a, b]) expect((await emu.request('GET', `/_api/bookings/v2/services/${s.id}`)).body.service.tagLine).toBe('From the filter');
    expect((await emu.request('GET', `/_api/bookings/v2/services/${other.id}`)).body.service.tagLine ?? null).toBe(other.tagLine ?? null);
    const undo = await cli(['undo', '--last', '--yes']);
    expect(undo.code, undo.stderr).toBe(0);
    for (const s of [a, b]) expect((await emu.request('GET', `/_api/bookings/v2/services/${s.id}`)).body.service.tagLine ?? null).toBe(s.tagLine ?? null);
  });

  it('--ids keeps the bulk update (each at its revision)', async () => {
    const s = await service(`Ids ${unique()}`);
    const r = await cli(['--debug', 'services', 'update', '--ids', s.id, '--set', 'tagLine="By id"', '--yes', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(sent(r).filter((l) => !l.includes('/query') && !l.startsWith('GET'))).toEqual(['POST /bookings/v2/bulk/services/update']);
  });
});

describe('members: approve, block and delete of one id, delete by ids', () => {
  it('block and approve of one id send their own calls; undo of the block approves again', async () => {
    const id = await member();
    const block = await cli(['--debug', 'members', 'block', id, '--yes', '--json', 'id,status']);
    expect(block.code, block.stderr).toBe(0);
    expect(sent(block)).toContain(`POST /members/v1/members/${id}/block`);
    expect(sent(block).some((l) => l.includes('block-by-filter'))).toBe(false);
    expect(json(block)).toEqual({ id, status: 'BLOCKED' });
    const undo = await cli(['undo', '--last', '--yes']);
    expect(undo.code, undo.stderr).toBe(0);
    expect((await memberNow(id)).body.member.status).toBe('APPROVED');
    await cli(['members', 'block', id, '--yes']);
    const approve = await cli(['--debug', 'members', 'approve', id, '--json', 'status']);
    expect(approve.code, approve.stderr).toBe(0);
    expect(sent(approve)).toContain(`POST /members/v1/members/${id}/approve`);
    expect(json(approve)).toEqual({ status: 'APPROVED' });
    // Many: still the by-filter job over the planned ids.
    const many = await cli(['--debug', 'members', 'block', '--ids', id, '--yes', '--json']);
    expect(many.code, many.stderr).toBe(0);
    expect(sent(many)).toContain('POST /members/v1/members/bulk/block-by-filter');
  });

  it('delete of one id sends DELETE, of ids the bulk delete, of a filter the by-filter job; bad input deletes nothing', async () => {
    const one = await member();
    expectError(await cli(['members', 'delete', one, '--content-assignee', 'nope', '--yes']), 2, /--content-assignee takes a member's full id/);
    expect((await memberNow(one)).status).toBe(200);
    const r = await cli(['--debug', 'members', 'delete', one, '--yes', '--json']);
    expect(r.code, r.stderr).toBe(0);
    // The client repeats the path parameter in the query, as the SDK does.
    expect(sent(r).map((l) => l.split('?')[0])).toContain(`DELETE /members/v1/members/${one}`);
    expect(json(r)).toEqual({ id: one, deleted: true });
    expect((await memberNow(one)).status).toBe(404);

    const [x, y] = [await member(), await member()];
    const ids = await cli(['--debug', 'members', 'delete', '--ids', `${x},${y}`, '--yes', '--json']);
    expect(ids.code, ids.stderr).toBe(0);
    expect(sent(ids)).toContain('POST /members/v1/members/bulk/delete');
    expect(json(ids).counts).toMatchObject({ deleted: 2 });
    for (const id of [x, y]) expect((await memberNow(id)).status).toBe(404);

    const z = await member();
    const byFilter = await cli(['--debug', 'members', 'delete', '--filter', JSON.stringify({ id: { $in: [z] } }), '--yes', '--json']);
    expect(byFilter.code, byFilter.stderr).toBe(0);
    expect(sent(byFilter)).toContain('POST /members/v1/members/bulk/delete-by-filter');
    expect((await memberNow(z)).status).toBe(404);
  });
});

/** A sandbox with a member registered and signed in (member tokens kept in its sessions file). */
async function signedIn(password = 'pass-word-1'): Promise<{ sandbox: CliSandbox; email: string; run: (args: string[], o?: InProcessOptions) => Promise<CliResult> }> {
  const sandbox = createCliSandbox();
  sandboxes.push(sandbox);
  const email = `me-${unique()}@example.com`;
  const run = (args: string[], o: InProcessOptions = {}) => cli(args, { sandbox, ...o, env: { SITECTL_CLIENT_ID: emu.emulator.clientId, ...o.env } });
  const reg = await run(['auth', 'register', '--email', email, '--password-stdin'], { input: password });
  expect(reg.code, reg.stderr).toBe(0);
  return { sandbox, email, run };
}

describe("members me: the signed-in member's own calls", () => {
  it('slug shows and sets it (my slug call); a malformed one is refused before anything is sent', async () => {
    const { run } = await signedIn();
    const slug = `me-slug-${unique()}`;
    expectError(await run(['members', 'me', 'slug', 'Not A Slug']), 2, /slug 'Not A Slug' is not valid/);
    expect(sent(await run(['--debug', 'members', 'me', 'slug', 'Not A Slug']))).toEqual([]);
    const set = await run(['--debug', 'members', 'me', 'slug', slug, '--json', 'id,profile']);
    expect(set.code, set.stderr).toBe(0);
    expect(sent(set)).toContain('POST /members/v1/members/my/slug');
    expect(json(set).profile.slug).toBe(slug);
    expect(set.stderr).toMatch(/'members me slug \S*' sets it back/);
    const shown = await run(['members', 'me', 'slug', '--json']);
    expect(json(shown)).toEqual({ id: json(set).id, slug });
    expect((await run(['members', 'me', 'slug'])).stdout).toBe(`${slug}\n`);
    expect((await memberNow(json(set).id)).body.member.profile.slug).toBe(slug);
  });

  it('join and leave the community by their calls, each saying when nothing changed', async () => {
    const { run } = await signedIn();
    const leave = await run(['--debug', 'members', 'me', 'leave', '--json', 'id,privacyStatus']);
    expect(leave.code, leave.stderr).toBe(0);
    const id = json(leave).id;
    expect(json(leave).privacyStatus).toBe('PRIVATE');
    expect((await memberNow(id)).body.member.privacyStatus).toBe('PRIVATE');
    const join = await run(['--debug', 'members', 'me', 'join', '--json', 'privacyStatus']);
    expect(join.code, join.stderr).toBe(0);
    expect(sent(join)).toContain('POST /members/v1/members/join-community');
    expect(json(join)).toEqual({ privacyStatus: 'PUBLIC' });
    expect(join.stderr).toMatch(/joined the community \(privacy PUBLIC; 'members me leave' takes it back\)/);
    expect((await memberNow(id)).body.member.privacyStatus).toBe('PUBLIC');
    const again = await run(['--debug', 'members', 'me', 'join']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/already in the community \(PUBLIC\); nothing changed/);
    expect(sent(again)).not.toContain('POST /members/v1/members/join-community');
    const out = await run(['--debug', 'members', 'me', 'leave']);
    expect(sent(out)).toContain('POST /members/v1/members/leave-community');
    expect((await memberNow(id)).body.member.privacyStatus).toBe('PRIVATE');
  });

  it('delete needs --yes off a terminal, sends DELETE my member, and removes the sign-in', async () => {
    const { run } = await signedIn();
    const id = json(await run(['members', 'me', '--json', 'id'])).id;
    expectError(await run(['members', 'me', 'delete']), 2, /needs confirmation/);
    expect(sent(await run(['--debug', 'members', 'me', 'delete']))).toEqual([]);
    const r = await run(['--debug', 'members', 'me', 'delete', '--yes', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(sent(r)).toContain('DELETE /members/v1/members/my');
    expect(json(r)).toEqual({ id, deleted: true });
    expect((await memberNow(id)).status).toBe(404);
    expect((await run(['members', 'me'])).code).toBe(4);
  });
});

describe('plans public list|query', () => {
  it('lists what visitors see (public, not archived) by the public calls; query filters and sorts', async () => {
    const tag = `Public ${unique()}`;
    const shown = (await cli(['plans', 'create', '--name', `${tag} shown`, '--price', '10', '--every', '1 MONTH'])).stdout.trim();
    const hidden = (await cli(['plans', 'create', '--name', `${tag} hidden`, '--price', '10', '--every', '1 MONTH'])).stdout.trim();
    expect((await cli(['plans', 'visibility', hidden, 'hidden'])).code).toBe(0);
    const list = await cli(['--debug', 'plans', 'public', 'list', '--all', '--json', 'id,public']);
    expect(list.code, list.stderr).toBe(0);
    expect(sent(list).some((l) => l.startsWith('GET /pricing-plans/v2/plans/public'))).toBe(true);
    const ids = json(list).map((p: Json) => p.id);
    expect(ids).toContain(shown);
    expect(ids).not.toContain(hidden);
    expect(json(list).every((p: Json) => p.public === true)).toBe(true);
    const query = await cli(['--debug', 'plans', 'public', 'query', '--filter', JSON.stringify({ name: { $startsWith: tag } }), '--sort', 'name', '--json', 'id,name']);
    expect(query.code, query.stderr).toBe(0);
    expect(sent(query)).toContain('POST /pricing-plans/v2/plans/public/query');
    expect(json(query)).toEqual([{ id: shown, name: `${tag} shown` }]);
    expectError(await cli(['plans', 'public', 'list', '--sort', 'name']), 2, /without a sort/);
    expectError(await cli(['plans', 'public', 'query', '--where', 'nosuchfield=1']), 2, /nosuchfield/);
  });
});

describe('checkout preview --online', () => {
  it("previews the signed-in member's own online order by preview-online; --online with --member is refused", async () => {
    const { run } = await signedIn();
    const plan = (await cli(['plans', 'create', '--name', `Online preview ${unique()}`, '--price', '20', '--every', '1 MONTH'])).stdout.trim();
    expectError(await run(['checkout', 'preview', plan, '--online', '--member', 'ada.abbott@example.com']), 2, /drop --member/);
    expectError(await run(['checkout', 'preview', plan]), 2, /--online for the signed-in member/);
    const me = json(await run(['members', 'me', '--json', 'id'])).id;
    const r = await run(['--debug', 'checkout', 'preview', plan, '--online', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(sent(r)).toContain('POST /pricing-plans/v2/checkout/orders/preview-online');
    expect(json(r)).toMatchObject({ purchaseLimitExceeded: false, order: { planId: plan, type: 'ONLINE', buyer: { memberId: me } } });
  });
});

describe('auth change-password and logout --post-logout-redirect-uri', () => {
  it('changes the password from stdin (refused when too short), and the new one signs in', async () => {
    const { run, email } = await signedIn('old-pass-1');
    const none = await run(['auth', 'change-password']);
    expectError(none, 2, /needs the new password/);
    const short = await run(['auth', 'change-password', '--password-stdin'], { input: 'x' });
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/refused the new password/);
    const r = await run(['--debug', 'auth', 'change-password', '--password-stdin'], { input: 'new-pass-2\n' });
    expect(r.code, r.stderr).toBe(0);
    expect(sent(r).some((l) => /^POST \S*\/v2\/change-password$/.test(l))).toBe(true);
    expect(r.stderr).not.toContain('new-pass-2');
    expect((await run(['logout'])).code).toBe(0);
    expect((await run(['login', '--email', email, '--password-stdin'], { input: 'old-pass-1' })).code).not.toBe(0);
    expect((await run(['login', '--email', email, '--password-stdin'], { input: 'new-pass-2' })).code).toBe(0);
  });

  it('logout --post-logout-redirect-uri sends GET /v1/logout with it; a bad URL is refused before anything', async () => {
    const { run } = await signedIn();
    expectError(await run(['logout', '--post-logout-redirect-uri', 'not a url']), 2, /absolute http\(s\) URL/);
    expect(sent(await run(['--debug', 'logout', '--post-logout-redirect-uri', 'not a url']))).toEqual([]);
    expect((await run(['members', 'me'])).code).toBe(0);
    const r = await run(['--debug', 'logout', '--post-logout-redirect-uri', 'https://example.com/bye']);
    expect(r.code, r.stderr).toBe(0);
    const logout = sent(r).find((l) => /^GET \S*\/v1\/logout\?/.test(l));
    expect(logout).toBeDefined();
    const q = new URL(`http://x${logout!.split(' ')[1]}`).searchParams;
    expect(q.get('postLogoutRedirectUri')).toBe('https://example.com/bye');
    expect(q.get('clientId')).toBe(emu.emulator.clientId);
    expect((await run(['members', 'me'])).code).toBe(4);
  });
});

describe('auth resend-code', () => {
  it('sends the pending sign-in its code again by the resend call; the new code finishes it, the old one no longer does', async () => {
    const sandbox = createCliSandbox();
    sandboxes.push(sandbox);
    const run = (args: string[], o: InProcessOptions = {}) => cli(args, { sandbox, ...o, env: { SITECTL_CLIENT_ID: emu.emulator.clientId } });
    const none = await run(['auth', 'resend-code']);
    expect(none.code).toBe(4);
    expect(none.stderr).toMatch(/no sign-in is waiting for a code/);
    const who = `resend-${unique()}@example.com`;
    const mail = async () => (await emu.request('GET', `/__emulator/mail?to=${encodeURIComponent(who)}`)).body.mail as Array<{ code?: string }>;
    await emu.request('PUT', '/__emulator/auth-policy', { requireEmailVerification: true });
    try {
      expect((await run(['auth', 'register', '--email', who, '--password-stdin'], { input: 'pass-word-1' })).code).toBe(4);
      const first = (await mail()).at(-1)!.code!;
      const r = await run(['--debug', 'auth', 'resend-code']);
      expect(r.code, r.stderr).toBe(0);
      expect(sent(r).some((l) => /^POST \S*\/v1\/auth\/resend$/.test(l))).toBe(true);
      expect(r.stderr).toContain(`A new code was sent to ${who}`);
      const sentMail = await mail();
      expect(sentMail).toHaveLength(2);
      const second = sentMail.at(-1)!.code!;
      expect(second).toMatch(/^\d{6}$/);
      if (first !== second) expect((await run(['auth', 'verify', '--code', first])).code).toBe(4);
      const ok = await run(['auth', 'verify', '--code', second]);
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stderr).toContain(`Signed in as ${who}`);
    } finally {
      await emu.request('PUT', '/__emulator/auth-policy', { requireEmailVerification: false });
    }
  });
});
