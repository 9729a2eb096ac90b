/**
 * The members query served from SQLite (docs/members.md "At scale") through the real emulator on port 0: pages
 * walked by offset (each one seeking from where the previous ended) give the in-memory evaluator's order, a
 * write between two pages shows in the next one, and by-filter jobs select what the query selects.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runQuery } from '../../../src/emulator/query/index.js';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const BASE = '/members/v1/members';
/** The fields the members search reads when the request names none (src/emulator/members/rules.ts). */
const SEARCH_FIELDS = ['profile.nickname', 'contact.firstName', 'contact.lastName', 'loginEmail'];
let emu: TestEmulator;
/** Every member, FULL, in creation order (the order of a query without sorting). */
let everyone: Json[] = [];

async function query(body: Json): Promise<Json> {
  const r = await emu.request('POST', `${BASE}/query`, { fieldsets: ['FULL'], ...body });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

async function walk(filter: Json, sorting: Json[], limit: number): Promise<{ ids: string[]; totals: number[] }> {
  const ids: string[] = [];
  const totals: number[] = [];
  for (let offset = 0; ; offset += limit) {
    const page = await query({ query: { filter, sorting, paging: { limit, offset } } });
    ids.push(...page.members.map((m: Json) => m.id));
    totals.push(page.metadata.total);
    if (page.members.length < limit) return { ids, totals };
  }
}

/** The evaluator's order of every match. */
function expected(filter: Json, sort: Json[]): string[] {
  const out: string[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = runQuery(everyone, { filter, sort, paging: { limit: 100, offset } });
    out.push(...page.items.map((m) => m.id as string));
    if (page.items.length < 100) return out;
  }
}

beforeAll(async () => {
  emu = await startTestEmulator({ members: 1500, bookings: 0 });
  for (let offset = 0; ; offset += 100) {
    const page = await query({ query: { paging: { limit: 100, offset } } });
    everyone.push(...page.members);
    if (page.members.length < 100) break;
  }
});

afterAll(async () => {
  await emu?.close();
});

describe('members queried in SQLite', () => {
  it('walks pages by offset in the evaluator\'s order, whatever the filter and sorting', async () => {
    expect(everyone.length).toBeGreaterThanOrEqual(1500);
    const cases: Array<[Json, Json[]]> = [
      [{ status: 'APPROVED' }, [{ fieldName: 'contact.lastName', order: 'ASC' }, { fieldName: 'profile.nickname', order: 'DESC' }]],
      [{ $or: [{ status: 'PENDING' }, { privacyStatus: { $ne: 'PUBLIC' } }] }, [{ fieldName: 'createdDate', order: 'DESC' }]],
      [{ loginEmail: { $endsWith: '@EXAMPLE.com' }, 'contact.firstName': { $startsWith: 'a' } }, [{ fieldName: 'loginEmail', order: 'ASC' }]],
      [{ $not: { activityStatus: 'ACTIVE' } }, []],
      [{ 'contact.addresses.city': 'Oakland' }, [{ fieldName: 'profile.slug', order: 'DESC' }]],
    ];
    for (const [filter, sorting] of cases) {
      const want = expected(filter, sorting);
      const got = await walk(filter, sorting, 37);
      expect(got.ids, JSON.stringify({ filter, sorting })).toEqual(want);
      expect(new Set(got.totals)).toEqual(new Set([want.length]));
    }
  });

  it('shows a write between two pages in the next page', async () => {
    const sorting = [{ fieldName: 'profile.nickname', order: 'ASC' }];
    const first = await query({ query: { filter: { status: 'APPROVED' }, sorting, paging: { limit: 20, offset: 0 } } });
    const moved = first.members[5];
    const r = await emu.request('PATCH', `${BASE}/${moved.id}`, { member: { id: moved.id, profile: { nickname: 'zzz last of all' } } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    everyone = everyone.map((m) => (m.id === moved.id ? r.body.member : m));
    const second = await query({ query: { filter: { status: 'APPROVED' }, sorting, paging: { limit: 20, offset: 20 } } });
    expect(second.members.map((m: Json) => m.id)).toEqual(expected({ status: 'APPROVED' }, sorting).slice(20, 40));
  });

  it('searches free text in SQL as the evaluator does', async () => {
    const found = await query({ query: { sorting: [{ fieldName: 'loginEmail', order: 'ASC' }], paging: { limit: 100 } }, search: { expression: 'MAYA la' } });
    const text = (m: Json) => SEARCH_FIELDS.map((f) => String(f.split('.').reduce((o: Json | undefined, k) => o?.[k], m) ?? '')).join(' ').toLowerCase();
    const want = everyone.filter((m) => ['maya', 'la'].every((w) => text(m).includes(w))).map((m) => m.loginEmail as string).sort();
    expect(found.members.map((m: Json) => m.loginEmail)).toEqual(want.slice(0, 100));
    expect(found.metadata.total).toBe(want.length);
  });

  it('blocks by filter exactly the members the query selects', async () => {
    const filter = { status: 'APPROVED', 'contact.lastName': 'Okafor', loginEmail: { $startsWith: 'b' } };
    const before = expected(filter, []);
    expect(before.length).toBeGreaterThan(0);
    const r = await emu.request('POST', `${BASE}/bulk/block-by-filter`, { filter });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const blocked = await walk({ id: { $in: before } }, [], 100);
    const now = await query({ query: { filter: { id: { $in: before } }, paging: { limit: 100 } } });
    expect(blocked.ids).toEqual(before);
    expect(now.members.every((m: Json) => m.status === 'BLOCKED')).toBe(true);
  });
});
