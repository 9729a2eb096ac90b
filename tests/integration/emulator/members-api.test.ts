/**
 * The members family on a real emulator (docs/wire.md §8, §13, §18; docs/members.md): the status, activity and
 * privacy tables, fieldsets, unique slugs and login e-mails, clears, deletes with contentAssigneeId, by-filter
 * jobs, the "my" calls, events, and the demo seed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toURLSearchParams } from '../../../src/api/query.js';
import { MEMBER_STATUS_TABLE } from '../../../src/api/schemas/member.js';
import { startTestEmulator, type TestEmulator } from '../../helpers/index.js';
import { eventsAfter, lastEventSeq } from '../bulk/support.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 10, bookings: 0 });
});
afterAll(async () => {
  await emu?.close();
});

const BASE = '/members/v1/members';
let n = 0;
const tag = () => `${Date.now().toString(36)}${(n++).toString(36)}`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

async function create(member: Record<string, unknown> = {}): Promise<Json> {
  const r = await emu.request('POST', BASE, { member: { loginEmail: `t-${tag()}@example.com`, ...member } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.member;
}

async function getFull(id: string): Promise<Json> {
  const r = await emu.request('GET', `${BASE}/${id}?id=${id}&fieldsets=FULL`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.member;
}

async function query(body: Record<string, unknown>): Promise<Json> {
  const r = await emu.request('POST', `${BASE}/query`, body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

/** A member in `status`: PENDING from the seed (each used once), the others made from a new member. */
const usedPending = new Set<string>();
async function memberIn(status: string): Promise<string> {
  if (status === 'PENDING') {
    const { members } = await query({ query: { filter: { status: 'PENDING' }, paging: { limit: 100 } }, fieldsets: ['FULL'] });
    const m = members.find((x: Json) => !usedPending.has(x.id));
    usedPending.add(m.id);
    return m.id;
  }
  const m = await create();
  if (status === 'BLOCKED') expect((await emu.request('POST', `${BASE}/${m.id}/block`, { id: m.id })).status).toBe(200);
  if (status === 'OFFLINE') expect((await emu.request('POST', `${BASE}/${m.id}/disconnect`, { id: m.id })).status).toBe(200);
  return m.id;
}

describe('the member status table', () => {
  const statuses = ['PENDING', 'APPROVED', 'BLOCKED', 'OFFLINE'] as const;
  const expected: Record<string, Record<string, string>> = {
    approve: { PENDING: 'APPROVED', APPROVED: 'APPROVED', BLOCKED: 'APPROVED', OFFLINE: 'refused' },
    block: { PENDING: 'BLOCKED', APPROVED: 'BLOCKED', BLOCKED: 'BLOCKED', OFFLINE: 'refused' },
    disconnect: { PENDING: 'OFFLINE', APPROVED: 'OFFLINE', BLOCKED: 'OFFLINE', OFFLINE: 'OFFLINE' },
  };

  it('the written table says the same as the shared one (from and to of each action)', () => {
    for (const [action, row] of Object.entries(expected)) {
      const rule = MEMBER_STATUS_TABLE[action as keyof typeof MEMBER_STATUS_TABLE];
      for (const from of statuses) {
        const outcome = rule.from.includes(from) || from === rule.to ? rule.to : 'refused';
        expect(outcome, `${action} from ${from}`).toBe(row[from]);
      }
    }
  });

  for (const [action, row] of Object.entries(expected)) {
    for (const from of statuses) {
      it(`${action} from ${from}: ${row[from] === 'refused' ? 'refused with INVALID_MEMBER_STATUS, nothing changed' : `-> ${row[from]}`}`, async () => {
        const id = await memberIn(from);
        const before = await getFull(id);
        const seq = await lastEventSeq(emu);
        const r = await emu.request('POST', `${BASE}/${id}/${action}`, { id });
        const events = (await eventsAfter(emu, seq)).filter((e) => e.entityId === id).map((e) => e.type);
        if (row[from] === 'refused') {
          expect(r.status).toBe(428);
          expect(r.body.details.applicationError).toMatchObject({ code: 'INVALID_MEMBER_STATUS', data: { id, status: from } });
          expect(await getFull(id)).toEqual(before);
          expect(events).toEqual([]);
          return;
        }
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        expect(r.body.member.status).toBe(row[from]);
        expect((await getFull(id)).status).toBe(row[from]);
        // A repeat (already in the status) changes nothing and records nothing.
        expect(events).toEqual(from === row[from] ? [] : [`member.${action === 'disconnect' ? 'disconnected' : `${action}${action === 'approve' ? 'd' : 'ed'}`}`]);
      });
    }
  }

  it('mute and unmute change the activity (events member.muted / member.unmuted); an OFFLINE member is refused', async () => {
    const m = await create();
    const seq = await lastEventSeq(emu);
    const muted = await emu.request('POST', `${BASE}/${m.id}/mute`, { id: m.id });
    expect(muted.body.member.activityStatus).toBe('MUTED');
    expect((await emu.request('POST', `${BASE}/${m.id}/mute`, { id: m.id })).body.member.activityStatus).toBe('MUTED');
    const unmuted = await emu.request('POST', `${BASE}/${m.id}/unmute`, { id: m.id });
    expect(unmuted.body.member.activityStatus).toBe('ACTIVE');
    expect((await eventsAfter(emu, seq)).filter((e) => e.entityId === m.id).map((e) => e.type)).toEqual(['member.muted', 'member.unmuted']);
    const gone = await memberIn('OFFLINE');
    const refused = await emu.request('POST', `${BASE}/${gone}/mute`, { id: gone });
    expect(refused.status).toBe(428);
    expect(refused.body.details.applicationError.code).toBe('INVALID_MEMBER_STATUS');
  });

  it('an unknown member is 404 MEMBER_NOT_FOUND', async () => {
    const r = await emu.request('POST', `${BASE}/00000000-0000-4000-8000-000000000000/approve`, { id: '00000000-0000-4000-8000-000000000000' });
    expect(r.status).toBe(404);
    expect(r.body.details.applicationError.code).toBe('MEMBER_NOT_FOUND');
  });
});

describe('fieldsets', () => {
  it('decide which fields a reply carries: PUBLIC (default) id and profile with UNKNOWN statuses, EXTENDED adds e-mail and statuses, FULL the contact and dates', async () => {
    const m = await create({ contact: { firstName: 'Fern', phones: ['+1 415 555 0142'] }, profile: { nickname: 'Fern', title: 'Runner' }, privacyStatus: 'PUBLIC' });
    const pub = (await emu.request('GET', `${BASE}/${m.id}?id=${m.id}`)).body.member;
    expect(Object.keys(pub).sort()).toEqual(['activityStatus', 'id', 'privacyStatus', 'profile', 'status']);
    expect(pub).toMatchObject({ status: 'UNKNOWN', privacyStatus: 'UNKNOWN', activityStatus: 'UNKNOWN', profile: { nickname: 'Fern', title: 'Runner' } });
    const ext = (await emu.request('GET', `${BASE}/${m.id}?id=${m.id}&fieldsets=EXTENDED`)).body.member;
    expect(ext).toMatchObject({ loginEmail: m.loginEmail, status: 'APPROVED', privacyStatus: 'PUBLIC', activityStatus: 'ACTIVE', contactId: m.contactId });
    expect(ext.contact).toBeUndefined();
    expect(ext.createdDate).toBeUndefined();
    const full = await getFull(m.id);
    expect(full.contact).toMatchObject({ firstName: 'Fern', phones: ['+1 415 555 0142'] });
    expect(typeof full.createdDate).toBe('string');
    expect(full.revision).toBeUndefined();
    // The widest of several fieldsets wins.
    expect((await emu.request('GET', `${BASE}/${m.id}?id=${m.id}&fieldsets=PUBLIC&fieldsets=FULL`)).body.member.contact).toBeDefined();
  });

  it('the GET list takes its options as .r= (paging, sorting, fieldsets) and answers under metadata', async () => {
    const search = toURLSearchParams({ paging: { limit: 3, offset: 2 }, fieldsets: ['FULL'], sorting: [{ fieldName: 'createdDate', order: 'DESC' }] }, true).toString();
    expect(search).toMatch(/^\.r=/);
    const r = await emu.request('GET', `${BASE}?${search}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.members).toHaveLength(3);
    expect(r.body.members[0].contact).toBeDefined();
    expect(r.body.metadata).toMatchObject({ count: 3, offset: 2, tooManyToCount: false });
    expect(r.body.metadata.total).toBeGreaterThanOrEqual(300);
    expect(r.body.pagingMetadata).toBeUndefined();
    const dates = r.body.members.map((m: Json) => m.createdDate);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it('the query filters on every field whatever the fieldset, searches free text, and pages by 50 by default', async () => {
    const all = await query({ query: { filter: { status: 'PENDING' } } });
    expect(all.members.length).toBeGreaterThan(0);
    expect(all.members.every((m: Json) => m.status === 'UNKNOWN' && m.loginEmail === undefined)).toBe(true);
    const first = await query({ query: {} });
    expect(first.members).toHaveLength(50);
    const found = await query({ query: {}, search: { expression: 'ada abbott' }, fieldsets: ['FULL'] });
    expect(found.members.map((m: Json) => m.loginEmail)).toContain('ada.abbott@example.com');
    expect(found.members.every((m: Json) => `${m.contact.firstName} ${m.contact.lastName}`.toLowerCase().includes('ada'))).toBe(true);
    const bad = await emu.request('POST', `${BASE}/query`, { query: { paging: { limit: 101 } } });
    expect(bad.status).toBe(400);
    expect(bad.body.details.validationError.fieldViolations[0]).toMatchObject({ field: 'query.paging.limit' });
  });
});

describe('slugs, e-mails, updates and clears', () => {
  it('slugs are unique on the site: a taken one is refused (409), a made one gets a number suffix', async () => {
    const a = await create({ profile: { nickname: 'Slug Twin' } });
    const b = await create({ profile: { nickname: 'Slug Twin' } });
    expect(a.profile.slug).toBe('slug-twin');
    expect(b.profile.slug).toBe('slug-twin-2');
    const taken = await emu.request('POST', BASE, { member: { loginEmail: `t-${tag()}@example.com`, profile: { slug: 'slug-twin' } } });
    expect(taken.status).toBe(409);
    expect(taken.body.details.applicationError).toMatchObject({ code: 'SLUG_ALREADY_EXISTS', data: { slug: 'slug-twin' } });
    const moved = await emu.request('POST', `${BASE}/${b.id}/slug`, { id: b.id, slug: 'slug-twin' });
    expect(moved.status).toBe(409);
    const freed = await emu.request('POST', `${BASE}/${a.id}/slug`, { id: a.id, slug: 'slug-single' });
    expect(freed.body.member.profile.slug).toBe('slug-single');
    // The old slug is free again.
    expect((await emu.request('POST', `${BASE}/${b.id}/slug`, { id: b.id, slug: 'slug-twin' })).body.member.profile.slug).toBe('slug-twin');
    const malformed = await emu.request('POST', `${BASE}/${b.id}/slug`, { id: b.id, slug: 'Not A Slug' });
    expect(malformed.status).toBe(400);
  });

  it('a login e-mail belongs to one member (case-insensitive): 409 EMAIL_ALREADY_EXISTS', async () => {
    const m = await create();
    const r = await emu.request('POST', BASE, { member: { loginEmail: m.loginEmail.toUpperCase() } });
    expect(r.status).toBe(409);
    expect(r.body.details.applicationError.code).toBe('EMAIL_ALREADY_EXISTS');
  });

  it('update changes the fields sent (lists replaced, custom fields merged) and keeps the others; events member.updated', async () => {
    const m = await create({ contact: { firstName: 'Uma', lastName: 'Old', phones: ['1', '2'], customFields: { 'custom.a': { value: { text: 'x' } } } } });
    const seq = await lastEventSeq(emu);
    const r = await emu.request('PATCH', `${BASE}/${m.id}`, { member: { id: m.id, contact: { lastName: 'New', phones: ['3'], customFields: { 'custom.b': { value: { number: 2 } } } } } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.member.contact).toMatchObject({ firstName: 'Uma', lastName: 'New', phones: ['3'], customFields: { 'custom.a': { value: { text: 'x' } }, 'custom.b': { value: { number: 2 } } } });
    expect(r.body.member.status).toBe('APPROVED');
    expect((await eventsAfter(emu, seq)).map((e) => e.type)).toEqual(['member.updated']);
  });

  it('clears phones, e-mails and addresses one list at a time', async () => {
    const m = await create({ contact: { phones: ['+1 415 555 0100'], emails: ['a@example.com'], addresses: [{ city: 'Oakland' }] } });
    const phones = await emu.request('DELETE', `${BASE}/${m.id}/phones?id=${m.id}`);
    expect(phones.body.member.contact).toMatchObject({ phones: [], emails: ['a@example.com'], addresses: [{ city: 'Oakland' }] });
    await emu.request('DELETE', `${BASE}/${m.id}/emails?id=${m.id}`);
    const addresses = await emu.request('DELETE', `${BASE}/${m.id}/addresses?id=${m.id}`);
    expect(addresses.body.member.contact).toMatchObject({ phones: [], emails: [], addresses: [] });
    expect(addresses.body.member.loginEmail).toBe(m.loginEmail);
  });

  it('the "my" calls answer 401 to an API key (no member token yet)', async () => {
    for (const [method, path] of [['GET', `${BASE}/my`], ['POST', `${BASE}/join-community`], ['POST', `${BASE}/leave-community`], ['POST', `${BASE}/my/slug`], ['DELETE', `${BASE}/my`]] as const) {
      const r = await emu.request(method, path, method === 'POST' ? (path.endsWith('slug') ? { slug: 'me' } : {}) : undefined);
      expect(r.status, `${method} ${path}`).toBe(401);
      expect(r.body.details.applicationError.code).toBe('UNAUTHENTICATED');
    }
  });
});

describe('deletes and by-filter jobs', () => {
  it('bulk delete reports each id; delete-by-filter checks contentAssigneeId before deleting anything', async () => {
    const a = await create();
    const r = await emu.request('POST', `${BASE}/bulk/delete`, { memberIds: [a.id, 'no-such-member'] });
    expect(r.body.bulkActionMetadata).toEqual({ totalSuccesses: 1, totalFailures: 1, undetailedFailures: 0 });
    expect(r.body.results[1].itemMetadata.error.code).toBe('MEMBER_NOT_FOUND');
    const b = await create();
    const c = await create();
    const self = await emu.request('POST', `${BASE}/bulk/delete-by-filter`, { filter: { id: { $in: [b.id, c.id] } }, contentAssigneeId: c.id });
    expect(self.status).toBe(400);
    expect(self.body.details.applicationError.code).toBe('CONTENT_ASSIGNEE_IS_DELETED');
    const unknown = await emu.request('POST', `${BASE}/bulk/delete-by-filter`, { filter: { id: b.id }, contentAssigneeId: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.body.details.applicationError.code).toBe('CONTENT_ASSIGNEE_NOT_FOUND');
    expect((await emu.request('GET', `${BASE}/${b.id}?id=${b.id}`)).status).toBe(200);
    const seq = await lastEventSeq(emu);
    const ok = await emu.request('POST', `${BASE}/bulk/delete-by-filter`, { filter: { id: b.id }, contentAssigneeId: c.id });
    expect(ok.body.jobId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await emu.request('GET', `${BASE}/${b.id}?id=${b.id}`)).status).toBe(404);
    expect((await eventsAfter(emu, seq)).map((e) => [e.type, e.entityId])).toEqual([['member.deleted', b.id]]);
  });

  it('approve-by-filter changes exactly the matching members the table allows, and answers a job id', async () => {
    const blocked = await memberIn('BLOCKED');
    const offline = await memberIn('OFFLINE');
    const approved = await memberIn('APPROVED');
    const outside = await memberIn('BLOCKED');
    const r = await emu.request('POST', `${BASE}/bulk/approve-by-filter`, { filter: { id: { $in: [blocked, offline, approved] } } });
    expect(r.status).toBe(200);
    expect(typeof r.body.jobId).toBe('string');
    expect((await getFull(blocked)).status).toBe('APPROVED');
    expect((await getFull(offline)).status).toBe('OFFLINE');
    expect((await getFull(approved)).status).toBe('APPROVED');
    expect((await getFull(outside)).status).toBe('BLOCKED');
    const block = await emu.request('POST', `${BASE}/bulk/block-by-filter`, { filter: { id: { $in: [approved, offline] } } });
    expect(block.status).toBe(200);
    expect((await getFull(approved)).status).toBe('BLOCKED');
    expect((await getFull(offline)).status).toBe('OFFLINE');
  });
});

describe('the demo seed', () => {
  it('holds 300 members across every status (at least 10 PENDING), unique slugs and e-mails, the same on every seed', async () => {
    const seeded: Json[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = await query({ query: { filter: { loginEmail: { $endsWith: '@example.com' }, 'contact.firstName': { $ne: 'Fixture' } }, paging: { limit: 100, offset } }, fieldsets: ['FULL'] });
      seeded.push(...page.members);
      if (page.members.length < 100) break;
    }
    const demo = seeded.filter((m) => !m.loginEmail.startsWith('t-'));
    expect(demo.length).toBeGreaterThanOrEqual(300 - 20);
    const counts = new Map<string, number>();
    for (const m of demo) counts.set(m.status, (counts.get(m.status) ?? 0) + 1);
    for (const s of ['APPROVED', 'PENDING', 'BLOCKED', 'OFFLINE']) expect(counts.get(s), s).toBeGreaterThan(0);
    expect(new Set(demo.map((m) => m.profile.slug)).size).toBe(demo.length);
    const other = await startTestEmulator({ seed: 'demo', size: 10, bookings: 0 });
    try {
      const r = await other.request('POST', `${BASE}/query`, { query: { filter: { status: 'PENDING' }, paging: { limit: 100 } }, fieldsets: ['FULL'] });
      expect(r.body.metadata.total).toBeGreaterThanOrEqual(10);
      const mine = await emu.request('POST', `${BASE}/query`, { query: { paging: { limit: 5 } }, fieldsets: ['FULL'] });
      const theirs = await other.request('POST', `${BASE}/query`, { query: { paging: { limit: 5 } }, fieldsets: ['FULL'] });
      // Ids, e-mails and slugs are the same on every seed (statuses here were changed by the tests above).
      expect(theirs.body.members.map((m: Json) => [m.id, m.loginEmail, m.profile.slug])).toEqual(mine.body.members.map((m: Json) => [m.id, m.loginEmail, m.profile.slug]));
    } finally {
      await other.close();
    }
  });
});
