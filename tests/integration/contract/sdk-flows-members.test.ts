/**
 * Members through the official module (`@wix/auto_sdk_members_members`) against a real emulator on port 0
 * (docs/wire.md §18): a member created with contact details and custom fields, read with a fieldset, updated,
 * approved, blocked, muted, given a slug, stripped of its phones, deleted, and a bulk delete with per-item results.
 * Setup: sdk-client.ts.
 */
import * as members from '@wix/auto_sdk_members_members';
import { describe, expect, it } from 'vitest';
import { apiKeyClient, useOfficialClient } from './sdk-client.js';

const ctx = useOfficialClient('sdk-members');
const client = () => apiKeyClient(ctx, { members });

describe('members through the official module', () => {
  it('createMember, getMember (FULL), updateMember: the contact and its custom fields as sent, the status the typings name', async () => {
    const c = client();
    const email = `sdk-member-${ctx.stamp()}@example.com`;
    const made = await c.members.createMember({
      member: { loginEmail: email, contact: { firstName: 'Ada', lastName: 'Lovelace', phones: ['+1 415 555 0101'], customFields: { team: { name: 'Team', value: { text: 'Blue' } } } } },
    });
    expect(made._id).toMatch(/./);
    expect(made).toMatchObject({ loginEmail: email, contact: { firstName: 'Ada', lastName: 'Lovelace', phones: ['+1 415 555 0101'] } });
    expect(['PENDING', 'APPROVED']).toContain(made.status);
    expect(made._createdDate).toBeInstanceOf(Date);

    const full = await c.members.getMember(made._id!, { fieldsets: ['FULL'] });
    expect(ctx.sent.at(-1)?.url).toContain('fieldsets=FULL');
    expect(full).toMatchObject({ _id: made._id, loginEmail: email, contact: { firstName: 'Ada', customFields: { team: { value: { text: 'Blue' } } } } });
    expect(full.profile?.slug).toMatch(/./);

    const updated = await c.members.updateMember(made._id!, { contact: { jobTitle: 'Analyst' }, profile: { nickname: 'Countess' } });
    expect(updated).toMatchObject({ _id: made._id, contact: { firstName: 'Ada', jobTitle: 'Analyst' }, profile: { nickname: 'Countess' } });
  });

  it('approve, block, mute and unmute, a new slug, phones deleted: each answered with the member as it now is', async () => {
    const c = client();
    const made = await c.members.createMember({ member: { loginEmail: `sdk-status-${ctx.stamp()}@example.com`, contact: { firstName: 'Bo', phones: ['+1 415 555 0102'] } } });
    expect((await c.members.blockMember(made._id!)).member).toMatchObject({ _id: made._id, status: 'BLOCKED' });
    expect((await c.members.approveMember(made._id!)).member).toMatchObject({ _id: made._id, status: 'APPROVED' });
    // The PUBLIC fieldset (the default) leaves the status out: the SDK fills its enum's UNKNOWN.
    expect((await c.members.getMember(made._id!)).status).toBe('UNKNOWN');
    expect((await c.members.getMember(made._id!, { fieldsets: ['FULL'] })).status).toBe('APPROVED');
    expect((await c.members.muteMember(made._id!)).member?.activityStatus).toBe('MUTED');
    expect((await c.members.unmuteMember(made._id!)).member?.activityStatus).toBe('ACTIVE');

    const slug = `sdk-slug-${ctx.stamp()}`;
    expect((await c.members.updateMemberSlug(made._id!, slug)).member?.profile?.slug).toBe(slug);
    const other = await c.members.createMember({ member: { loginEmail: `sdk-other-${ctx.stamp()}@example.com` } });
    await expect(c.members.updateMemberSlug(other._id!, slug)).rejects.toMatchObject({ details: { applicationError: { code: 'SLUG_ALREADY_EXISTS' } } });

    expect((await c.members.deleteMemberPhones(made._id!)).member?.contact?.phones).toEqual([]);
  });

  it('deleteMember removes it; bulkDeleteMembers answers per id in order with bulkActionMetadata', async () => {
    const c = client();
    const one = await c.members.createMember({ member: { loginEmail: `sdk-del-${ctx.stamp()}@example.com` } });
    await c.members.deleteMember(one._id!);
    await expect(c.members.getMember(one._id!)).rejects.toMatchObject({ details: { applicationError: { code: 'MEMBER_NOT_FOUND' } } });

    const a = await c.members.createMember({ member: { loginEmail: `sdk-bulk-a-${ctx.stamp()}@example.com` } });
    const b = await c.members.createMember({ member: { loginEmail: `sdk-bulk-b-${ctx.stamp()}@example.com` } });
    const res = await c.members.bulkDeleteMembers([a._id!, one._id!, b._id!]);
    expect(res.results!.map((r) => [r.itemMetadata?.originalIndex, r.itemMetadata?.success, r.itemMetadata?._id])).toEqual([
      [0, true, a._id],
      [1, false, one._id],
      [2, true, b._id],
    ]);
    expect(res.bulkActionMetadata).toMatchObject({ totalSuccesses: 2, totalFailures: 1 });
    const left = await c.members.queryMembers().in('_id', [a._id!, b._id!]).find();
    expect(left.items).toEqual([]);
  });
});
