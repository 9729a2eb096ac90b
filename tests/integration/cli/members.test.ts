/**
 * `sitectl members` as a user runs it (docs/members.md "The CLI's bulk runs"), in process against a real emulator
 * on port 0: the verbs, their refusals (exit codes, one-line errors, nothing changed), approve-by-filter as a CI
 * job with no terminal (refused without --yes; with it exactly the matching members change, checked on the
 * emulator; a member that changed under the job makes it partial, exit 3), and the NDJSON/CSV export.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answering, runInProcess, startTestEmulator, type CliResult, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';
import { expectError } from '../../helpers/expect-error.js';
import { eventsAfter, lastEventSeq } from '../bulk/support.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 10, bookings: 0 });
});
afterAll(async () => {
  await emu?.close();
});

const BASE = '/members/v1/members';
const cli = (args: string[], opts: InProcessOptions = {}) => runInProcess(args, { emulator: emu, ...opts });
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const json = (r: CliResult): Json => JSON.parse(r.stdout);

/** Every member (FULL), by id, straight from the emulator. */
async function allMembers(): Promise<Map<string, Json>> {
  const out = new Map<string, Json>();
  for (let offset = 0; ; offset += 100) {
    const r = await emu.request('POST', `${BASE}/query`, { query: { paging: { limit: 100, offset } }, fieldsets: ['FULL'] });
    for (const m of r.body.members) out.set(m.id, m);
    if (r.body.members.length < 100) return out;
  }
}

let n = 0;
async function newMember(extra: string[] = []): Promise<string> {
  const r = await cli(['members', 'create', '--email', `cli-${Date.now().toString(36)}${n++}@example.com`, '--first-name', 'Cli', ...extra]);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}

describe('members list, get, create, update, slug, clear-contact', () => {
  it('refuses a filter that compares a date with text that is no date, before anything is sent (exit 2)', async () => {
    const r = await cli(['members', 'block', '--filter', '{"createdDate":{"$lt":"2025-1-1"}}', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/"createdDate" is a date; "2025-1-1" is not an ISO-8601 date/);
    expect((await cli(['members', 'list', '--where', 'createdDate=yesterday'])).code).toBe(2);
  });

  it('lists FULL members, filters by status, searches, and shows the PUBLIC fieldset when asked', async () => {
    const pending = json(await cli(['members', 'list', '--status', 'PENDING', '--all', '--json', 'id,status,loginEmail']));
    expect(pending.length).toBeGreaterThanOrEqual(10);
    expect(pending.every((m: Json) => m.status === 'PENDING' && m.loginEmail.endsWith('@example.com'))).toBe(true);
    const tsv = await cli(['members', 'list', '--search', 'ada abbott']);
    expect(tsv.stdout.split('\n')[0]!.split('\t').slice(1, 3)).toEqual(['ada.abbott@example.com', 'Ada Abbott']);
    const pub = json(await cli(['members', 'list', '--fieldset', 'PUBLIC', '--limit', '2', '--json']));
    expect(pub).toHaveLength(2);
    expect(pub[0].status).toBe('UNKNOWN');
    expect(pub[0].loginEmail).toBeUndefined();
    const table = await cli(['members', 'list', '--limit', '3'], { tty: true, columns: 160, env: { CI: undefined } });
    expect(table.code, table.stderr).toBe(0);
    const [head, ...rows] = table.stdout.trimEnd().split('\n');
    expect(head!.split(/\s{2,}/).slice(0, 5)).toEqual(['ID', 'EMAIL', 'NAME', 'STATUS', 'PRIVACY']);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(/^[0-9a-f]{8}\s+ada\.abbott@example\.com\s+Ada Abbott\s+APPROVED/);
    expect(table.stderr).toMatch(/Showing 3 of \d+ members/);
    // Times on the site's clock (its default business location's zone), not this machine's.
    const created = json(await cli(['members', 'list', '--limit', '3', '--json', 'createdDate'])).map((m: { createdDate: string }) =>
      new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(m.createdDate)),
    );
    rows.forEach((r, i) => expect(r.trimEnd(), created[i]).toMatch(new RegExp(`\\s${created[i]!} \\d\\d:\\d\\d$`)));
    expectError(await cli(['members', 'list', '--status', 'ASLEEP']), 2, /--status: unknown value 'ASLEEP'/);
    expectError(await cli(['members', 'list', '--where', 'nosuchfield=1']), 2, /nosuchfield/);
  });

  it('create prints the id when piped; get shows it by a unique prefix; bad input changes nothing (exit 2)', async () => {
    const before = (await allMembers()).size;
    expectError(await cli(['members', 'create', '--first-name', 'NoEmail']), 2, /needs --email/);
    expectError(await cli(['members', 'create', '--email', 'not-an-email']), 2, /--email/);
    expectError(await cli(['members', 'create', '--email', 'x@example.com', '--slug', 'Bad Slug']), 2, /--slug/);
    expect((await allMembers()).size).toBe(before);
    const id = await newMember(['--last-name', 'Tester', '--phone', '+1 415 555 0111', '--slug', 'cli-tester', '--public']);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const got = json(await cli(['members', 'get', id.slice(0, 12), '--json']));
    expect(got).toMatchObject({ id, status: 'APPROVED', privacyStatus: 'PUBLIC', profile: { slug: 'cli-tester' }, contact: { lastName: 'Tester', phones: ['+1 415 555 0111'] } });
    const dup = await cli(['members', 'create', '--email', got.loginEmail.toUpperCase()]);
    expectError(dup, 1, /EMAIL_ALREADY_EXISTS/);
  });

  it('update changes only the fields given; slug refuses a taken one; clear-contact needs --yes without a terminal', async () => {
    const id = await newMember(['--phone', '+1 415 555 0122', '--company', 'Acme']);
    const updated = json(await cli(['members', 'update', id, '--last-name', 'Renamed', '--title', 'Coach', '--json']));
    expect(updated.contact).toMatchObject({ firstName: 'Cli', lastName: 'Renamed', company: 'Acme', phones: ['+1 415 555 0122'] });
    expect(updated.profile.title).toBe('Coach');
    expectError(await cli(['members', 'update', id]), 2, /nothing to change/);
    expectError(await cli(['members', 'slug', id, 'ada-abbott']), 1, /SLUG_ALREADY_EXISTS/);
    const slug = json(await cli(['members', 'slug', id, 'renamed-coach', '--json']));
    expect(slug.profile.slug).toBe('renamed-coach');
    expectError(await cli(['members', 'clear-contact', id, '--phones']), 2, /no terminal/);
    expectError(await cli(['members', 'clear-contact', id, '--yes']), 2, /which lists/);
    const cleared = json(await cli(['members', 'clear-contact', id, '--phones', '--emails', '--yes', '--json']));
    expect(cleared.contact.phones).toEqual([]);
    expect(cleared.contact.emails).toEqual([]);
    expect(cleared.contact.company).toBe('Acme');
  });
});

describe('member transitions', () => {
  it('approve, block, mute, unmute, disconnect one member; a transition the status forbids is exit 1 with nothing sent', async () => {
    const id = await newMember();
    expect((await cli(['members', 'block', id, '--yes'])).code).toBe(0);
    expect((await emu.request('GET', `${BASE}/${id}?fieldsets=FULL`)).body.member.status).toBe('BLOCKED');
    const again = await cli(['members', 'block', id, '--yes']);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/already blocked; nothing changed/);
    expect((await cli(['members', 'approve', id])).code).toBe(0);
    expect((await cli(['members', 'mute', id])).code).toBe(0);
    expect((await emu.request('GET', `${BASE}/${id}?fieldsets=FULL`)).body.member.activityStatus).toBe('MUTED');
    expect((await cli(['members', 'unmute', id])).code).toBe(0);
    // It cannot be undone: asked first, so without a terminal it needs --yes.
    expectError(await cli(['members', 'disconnect', id]), 2, /needs confirmation/);
    expect((await cli(['members', 'disconnect', id, '--yes'])).code).toBe(0);
    const seq = await lastEventSeq(emu);
    expectError(await cli(['members', 'approve', id]), 1, /cannot be approved: it is OFFLINE/);
    expectError(await cli(['members', 'mute', id]), 1, /cannot be muted: it is OFFLINE/);
    expect(await eventsAfter(emu, seq)).toEqual([]);
    expect((await cli(['members', 'approve', id, '--revision', '2'])).code).toBe(2);
  });

  it('delete one member with --yes; --content-assignee must be a full id and an existing member', async () => {
    const keeper = await newMember();
    const a = await newMember();
    expectError(await cli(['members', 'delete', a]), 2, /no terminal/);
    expectError(await cli(['members', 'delete', a, '--yes', '--content-assignee', 'abc']), 2, /full id/);
    expectError(await cli(['members', 'delete', a, '--yes', '--content-assignee', '00000000-0000-4000-8000-000000000000']), 2, /--content-assignee: no member has the id/);
    expectError(await cli(['members', 'delete', '--where', 'status=OFFLINE', '--yes', '--content-assignee', '00000000-0000-4000-8000-000000000000']), 2, /--content-assignee: no member has the id/);
    expect((await emu.request('GET', `${BASE}/${a}`)).status).toBe(200);
    expect((await cli(['members', 'delete', a, '--yes', '--content-assignee', keeper])).code).toBe(0);
    expect((await emu.request('GET', `${BASE}/${a}`)).status).toBe(404);
    const b = await newMember();
    expect((await cli(['members', 'delete', b, '--yes'])).code).toBe(0);
    expect((await emu.request('GET', `${BASE}/${b}`)).status).toBe(404);
  });
});

describe('approve by filter, the CI job (no terminal)', () => {
  // The pending members whose e-mail starts with a letter from a to m: a strict subset of the pending ones.
  const filter = JSON.stringify({ status: 'PENDING', loginEmail: { $lt: 'n' } });

  it('is refused without --yes (exit 2), changing nothing', async () => {
    const before = await allMembers();
    const seq = await lastEventSeq(emu);
    const r = await cli(['members', 'approve', '--filter', filter]);
    expectError(r, 2, /needs confirmation, and there is no terminal/);
    expect(r.stderr).toMatch(/--yes/);
    expect(await eventsAfter(emu, seq)).toEqual([]);
    expect(await allMembers()).toEqual(before);
  });

  it('--dry-run previews the count and a sample and changes nothing', async () => {
    const seq = await lastEventSeq(emu);
    const r = await cli(['members', 'approve', '--filter', filter, '--dry-run', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const plan = json(r);
    expect(plan.filter((i: { outcome: string }) => i.outcome === 'change').length).toBeGreaterThan(0);
    expect(plan[0]).toMatchObject({ id: expect.any(String), outcome: expect.stringMatching(/^(change|unchanged|refused)$/) });
    expect(await eventsAfter(emu, seq)).toEqual([]);
  });

  it('with --yes approves exactly the matching members (checked on the emulator), reports and exits 0', async () => {
    const before = await allMembers();
    const matching = [...before.values()].filter((m) => m.status === 'PENDING' && m.loginEmail < 'n').map((m) => m.id).sort();
    const untouched = [...before.values()].filter((m) => m.status === 'PENDING' && !(m.loginEmail < 'n'));
    expect(matching.length).toBeGreaterThan(0);
    expect(untouched.length).toBeGreaterThan(0);
    const r = await cli(['members', 'approve', '--filter', filter, '--yes', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`Plan: ${matching.length} members to approve`));
    const report = json(r);
    expect(report).toMatchObject({ entity: 'members', action: 'approve', total: matching.length, counts: { approved: matching.length } });
    const after = await allMembers();
    const changed = [...after.values()].filter((m) => before.get(m.id)!.status !== m.status).map((m) => m.id).sort();
    expect(changed).toEqual(matching);
    for (const id of matching) expect(after.get(id)!.status).toBe('APPROVED');
    // Nothing else changed at all.
    for (const [id, m] of before) if (!matching.includes(id)) expect(after.get(id)).toEqual(m);
    // A second run finds nothing left to do.
    const again = await cli(['members', 'approve', '--filter', filter, '--yes']);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/No members match|0 members to approve/);
  });

  it('a member disconnected while the job waits for confirmation is reported as not done: exit 3', async () => {
    const ids = [await newMember(), await newMember()];
    for (const id of ids) await cli(['members', 'block', id, '--yes']);
    const prompter = {
      ...answering(true),
      async confirm() {
        await emu.request('POST', `${BASE}/${ids[0]}/disconnect`, { id: ids[0] });
        return true;
      },
    };
    const r = await cli(['members', 'approve', '--ids', ids.join(','), '--json'], { prompter, tty: true, env: { CI: undefined } });
    expect(r.code, r.stderr).toBe(3);
    const report = json(r);
    expect(report.counts).toMatchObject({ approved: 1, failed: 1 });
    expect(report.problems[0].id).toBe(ids[0]);
    expect((await emu.request('GET', `${BASE}/${ids[1]}?fieldsets=FULL`)).body.member.status).toBe('APPROVED');
  });

  it('block and delete by filter run the same way', async () => {
    const a = await newMember(['--last-name', 'Filterblock']);
    const b = await newMember(['--last-name', 'Filterblock']);
    const blocked = await cli(['members', 'block', '--where', 'contact.lastName=Filterblock', '--yes']);
    expect(blocked.code, blocked.stderr).toBe(0);
    for (const id of [a, b]) expect((await emu.request('GET', `${BASE}/${id}?fieldsets=FULL`)).body.member.status).toBe('BLOCKED');
    const deleted = await cli(['members', 'delete', '--where', 'contact.lastName=Filterblock', '--yes']);
    expect(deleted.code, deleted.stderr).toBe(0);
    for (const id of [a, b]) expect((await emu.request('GET', `${BASE}/${id}`)).status).toBe(404);
  });
});

describe('members export', () => {
  it('streams every member as NDJSON (FULL) or CSV, and refuses without a format', async () => {
    const total = (await allMembers()).size;
    const nd = await cli(['members', 'export', '--ndjson']);
    expect(nd.code, nd.stderr).toBe(0);
    const lines = nd.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(total);
    expect(new Set(lines.map((m) => m.id)).size).toBe(total);
    expect(lines[0].contact).toBeDefined();
    expect(nd.stderr).toMatch(new RegExp(`Exported ${total} members`));
    const csv = await cli(['members', 'export', '--csv', '--status', 'BLOCKED,OFFLINE']);
    expect(csv.code, csv.stderr).toBe(0);
    const rows = csv.stdout.trimEnd().split('\n');
    expect(rows[0]).toBe('id,loginEmail,status,privacyStatus,activityStatus,nickname,slug,title,contactId,firstName,lastName,phones,emails,company,jobTitle,createdDate,lastLoginDate');
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.slice(1).every((row) => /,(BLOCKED|OFFLINE),/.test(row))).toBe(true);
    expectError(await cli(['members', 'export']), 2, /export writes --ndjson, --csv or --json/);
    expectError(await cli(['members', 'export', '--ndjson', '--csv']), 2, /choose one of --json, --ndjson and --csv/);
  });
});

describe('emulator --members', () => {
  it('reset --members N seeds that many members (validated: 0 to 1000000), and the next reset repeats it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sitectl-members-seed-'));
    try {
      const dataDir = join(dir, 'emulator');
      expectError(await runInProcess(['emulator', 'reset', '--data-dir', dataDir, '--members', '1000001', '--yes']), 2, /--members/);
      const first = await runInProcess(['emulator', 'reset', '--data-dir', dataDir, '--seed', 'demo', '--members', '40', '--bookings', '0', '--yes']);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toMatch(/, 40 members\./);
      const again = await runInProcess(['emulator', 'reset', '--data-dir', dataDir, '--yes']);
      expect(again.stderr).toMatch(/, 40 members\./);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
