/**
 * The official SDK modules of staff members and categories against a real emulator on port 0 (docs/contracts.md
 * "The official SDK as the reference"; docs/wire.md §14 "Staff search, count and the trash bin", "Categories"):
 * `@wix/sdk` `createClient` with an API key and the modules `@wix/auto_sdk_bookings_staff-members` and
 * `@wix/auto_sdk_bookings_categories-v-2`, every request to the platform's host rewritten to the emulator's
 * origin (setup: sdk-client.ts). Each flow checks what the module's typings describe: the count equals the query's total, the search
 * finds by name, a deleted staff member is in the trash bin (and restorable, by the REST call the module types
 * but does not export), a moved category changes the order, an update bumps the revision.
 */
import * as categories from '@wix/auto_sdk_bookings_categories-v-2';
import * as staffMembers from '@wix/auto_sdk_bookings_staff-members';
import { describe, expect, it } from 'vitest';
import { apiKeyClient, useOfficialClient } from './sdk-client.js';

const ctx = useOfficialClient('sdk-staff', { size: 10, bookings: 0 });
const client = () => apiKeyClient(ctx, { staffMembers, categories });
/** The URLs the SDK sent (path and query), in order. */
const sentUrls = () => ctx.sent.map((r) => r.url);

describe('the official staff members module against the emulator', () => {
  it('counts what the query lists, v1 and V2 alike, and by a filter', async () => {
    const c = client();
    await c.staffMembers.createStaffMember({ name: 'Sdk Counted One' });
    await c.staffMembers.createStaffMember({ name: 'Sdk Counted Two' });
    const listed = await c.staffMembers.queryStaffMembers().limit(100).find();
    const { count } = await c.staffMembers.countStaffMembers();
    expect(count).toBe(listed.items.length);
    expect((await c.staffMembers.countStaffMembersV2()).count).toBe(listed.items.length);
    expect((await c.staffMembers.countStaffMembers({ filter: { name: { $startsWith: 'Sdk Counted' } } })).count).toBe(2);
    expect(sentUrls()).toContain('/bookings/v1/staff-members/count');
    expect(sentUrls()).toContain('/bookings/staff/v2/staff-members/count');
  });

  it('searches by a word of the name, with a filter and cursor paging', async () => {
    const c = client();
    const made = await c.staffMembers.createStaffMember({ name: 'Zebulon Searchable', email: 'zebulon@example.com' });
    await c.staffMembers.createStaffMember({ name: 'Zebulon Other' });
    const found = await c.staffMembers.searchStaffMembers({ search: { expression: 'zebulon' }, cursorPaging: { limit: 1 } });
    expect(found.staffMembers).toHaveLength(1);
    expect(found.pagingMetadata?.hasNext).toBe(true);
    const next = await c.staffMembers.searchStaffMembers({ cursorPaging: { limit: 10, cursor: found.pagingMetadata!.cursors!.next! } });
    expect([...(found.staffMembers ?? []), ...(next.staffMembers ?? [])].map((s) => s.name).sort()).toEqual(['Zebulon Other', 'Zebulon Searchable']);
    const filtered = await c.staffMembers.searchStaffMembers({ search: { expression: 'zebulon' }, filter: { email: 'zebulon@example.com' } });
    expect((filtered.staffMembers ?? []).map((s) => s._id)).toEqual([made._id]);
    expect((await c.staffMembers.searchStaffMembers({ search: { expression: 'nobody-by-this-name' } })).staffMembers).toEqual([]);
  });

  it('a deleted staff member is in the trash bin, can be restored, and removed from it for good', async () => {
    const c = client();
    const made = await c.staffMembers.createStaffMember({ name: 'Sdk Trashed', email: 'trashed@example.com' });
    await c.staffMembers.deleteStaffMember(made._id!);
    const trash = await c.staffMembers.listDeletedStaffMembers({ staffMemberIds: [made._id!], paging: { limit: 10 } });
    expect((trash.staffMembers ?? []).map((s) => [s._id, s.name])).toEqual([[made._id, 'Sdk Trashed']]);
    const one = await c.staffMembers.getDeletedStaffMember(made._id!, { fields: ['RESOURCE_DETAILS'] });
    expect(one.staffMember).toMatchObject({ _id: made._id, email: 'trashed@example.com', resource: { usesDefaultWorkingHours: true } });
    expect(sentUrls().some((u) => u.startsWith('/bookings/staff/v2/staff-members/trash-bin'))).toBe(true);

    // Restorable: the module types the restore but exports no method; its REST call, with the same API key.
    const restore = await fetch(`${ctx.emu.url}/bookings/staff/v2/staff-members/trash-bin/${made._id}/restore`, {
      method: 'POST',
      headers: { authorization: ctx.emu.apiKey, 'wix-site-id': ctx.emu.siteId, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(restore.status).toBe(200);
    expect((await c.staffMembers.getStaffMember(made._id!)).name).toBe('Sdk Trashed');
    expect((await c.staffMembers.listDeletedStaffMembers({ staffMemberIds: [made._id!] })).staffMembers).toEqual([]);

    await c.staffMembers.deleteStaffMember(made._id!);
    await c.staffMembers.removeStaffMemberFromTrashBin(made._id!);
    await expect(c.staffMembers.getDeletedStaffMember(made._id!)).rejects.toMatchObject({ details: { applicationError: { code: 'STAFF_MEMBER_NOT_FOUND' } } });
  });
});

describe('the official categories module against the emulator', () => {
  it('get, update (the revision goes up by one; a stale one is refused), count as the query, delete', async () => {
    const c = client();
    const made = await c.categories.createCategory({ name: 'Sdk Category' });
    const got = await c.categories.getCategory(made._id!);
    expect(got).toMatchObject({ _id: made._id, name: 'Sdk Category', revision: '1' });
    const updated = await c.categories.updateCategory(made._id!, { revision: got.revision!, name: 'Sdk Category Renamed' });
    expect(updated).toMatchObject({ _id: made._id, name: 'Sdk Category Renamed', revision: '2' });
    await expect(c.categories.updateCategory(made._id!, { revision: '1', name: 'Stale' })).rejects.toMatchObject({ details: { applicationError: { code: 'REVISION_MISMATCH' } } });
    const all = await c.categories.queryCategories().limit(100).find();
    expect((await c.categories.countCategories()).count).toBe(all.items.length);
    expect((await c.categories.countCategories({ filter: { name: 'Sdk Category Renamed' } })).count).toBe(1);
    await c.categories.deleteCategory(made._id!);
    expect((await c.categories.countCategories()).count).toBe(all.items.length - 1);
  });

  it('moves a category first, after another and last: the order by sortOrder follows', async () => {
    const c = client();
    const a = await c.categories.createCategory({ name: 'Sdk Move A' });
    const b = await c.categories.createCategory({ name: 'Sdk Move B' });
    const names = async () => (await c.categories.queryCategories().ascending('sortOrder').limit(100).find()).items.map((x) => x.name);
    const moved = await c.categories.moveCategory(b._id!, { position: 'FIRST' });
    expect(moved.category).toMatchObject({ _id: b._id, revision: '2' });
    expect((await names())[0]).toBe('Sdk Move B');
    await c.categories.moveCategory(a._id!, { position: 'AFTER_CATEGORY', afterCategoryId: b._id! });
    expect((await names()).slice(0, 2)).toEqual(['Sdk Move B', 'Sdk Move A']);
    await c.categories.moveCategory(b._id!, { position: 'LAST' });
    expect((await names()).at(-1)).toBe('Sdk Move B');
    expect(sentUrls()).toContain(`/bookings/v2/categories/set-position/${b._id}`);
  });
});
