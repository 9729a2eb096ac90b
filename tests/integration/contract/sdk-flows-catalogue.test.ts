/**
 * The catalogue through the official modules (`@wix/auto_sdk_bookings_staff-members`, `-categories-v-2`,
 * `-services`) against a real emulator on port 0 (docs/wire.md §9 revisions, §14 services and the catalogue):
 * staff members created, read, queried, updated and deleted, their working-hours schedule chosen; categories
 * created and queried; services created and updated with their revision, and a bulk update with per-item results.
 * A staff member's working hours themselves are Calendar Events v3 (WORKING_HOURS events), and no calendar module is
 * among the SDK packages: they are driven by `staff hours` and the REST reference, not here. Setup: sdk-client.ts.
 */
import * as categories from '@wix/auto_sdk_bookings_categories-v-2';
import * as services from '@wix/auto_sdk_bookings_services';
import * as staff from '@wix/auto_sdk_bookings_staff-members';
import { describe, expect, it } from 'vitest';
import { apiKeyClient, useOfficialClient } from './sdk-client.js';

const ctx = useOfficialClient('sdk-catalogue');
const client = () => apiKeyClient(ctx, { staff, categories, services });

describe('staff members through the official module', () => {
  it('create, get, query, update with the revision, delete', async () => {
    const c = client();
    const name = `Sdk Staff ${ctx.stamp()}`;
    const made = await c.staff.createStaffMember({ name, email: 'sdk-staff@example.com', description: 'Cuts hair' });
    expect(made).toMatchObject({ name, email: 'sdk-staff@example.com', description: 'Cuts hair', revision: '1' });
    expect(made._id).toMatch(/./);
    expect(made._createdDate).toBeInstanceOf(Date);

    const got = await c.staff.getStaffMember(made._id!, { fields: ['RESOURCE_DETAILS'] });
    expect(got).toMatchObject({ _id: made._id, name, resource: { usesDefaultWorkingHours: true } });
    expect(got.resource!.workingHoursSchedules).toEqual([expect.objectContaining({ shared: true })]);
    expect((await c.staff.getStaffMember(made._id!)).resource).toBeUndefined();

    const page = await c.staff.queryStaffMembers().eq('name', name).find();
    expect(page.items.map((s) => s._id)).toEqual([made._id]);

    const renamed = await c.staff.updateStaffMember(made._id!, { revision: made.revision!, name: `${name} B`, phone: '+1 415 555 0100' });
    expect(renamed).toMatchObject({ _id: made._id, name: `${name} B`, phone: '+1 415 555 0100', email: 'sdk-staff@example.com', revision: '2' });
    await expect(c.staff.updateStaffMember(made._id!, { revision: '1', name: 'stale' })).rejects.toMatchObject({ details: { applicationError: { code: 'REVISION_MISMATCH' } } });

    await c.staff.deleteStaffMember(made._id!);
    await expect(c.staff.getStaffMember(made._id!)).rejects.toMatchObject({ details: { applicationError: { code: 'STAFF_MEMBER_NOT_FOUND' } } });
    expect((await c.staff.queryStaffMembers().eq('name', `${name} B`).find()).items).toEqual([]);
  });

  it("its own working-hours schedule (assignCustomSchedule) and back to the business's (assignWorkingHoursSchedule)", async () => {
    const c = client();
    const made = await c.staff.createStaffMember({ name: `Sdk Hours ${ctx.stamp()}` }, { fields: ['RESOURCE_DETAILS'] });
    const own = made.resource!.eventsSchedule!._id!;
    const shared = made.resource!.workingHoursSchedules![0]!._id!;
    expect(made.resource).toMatchObject({ usesDefaultWorkingHours: true });
    const assigned = await c.staff.assignCustomSchedule(made._id!, own, { fields: ['RESOURCE_DETAILS'] });
    expect(assigned.staffMember!.resource).toMatchObject({ usesDefaultWorkingHours: false, workingHoursSchedules: [{ _id: own }] });
    const back = await c.staff.assignWorkingHoursSchedule(made._id!, shared, { fields: ['RESOURCE_DETAILS'] });
    expect(back.staffMember!.resource).toMatchObject({ usesDefaultWorkingHours: true, workingHoursSchedules: [{ _id: shared, shared: true }] });
    await expect(c.staff.assignCustomSchedule(made._id!, shared)).rejects.toMatchObject({ details: { validationError: { fieldViolations: [expect.objectContaining({ field: 'scheduleId' })] } } });
  });
});

describe('categories through the official module', () => {
  it('createCategory, then queryCategories finds it by name', async () => {
    const c = client();
    const name = `Sdk Category ${ctx.stamp()}`;
    const made = await c.categories.createCategory({ name });
    expect(made).toMatchObject({ name });
    expect(made._id).toMatch(/./);
    const page = await c.categories.queryCategories().eq('name', name).find();
    expect(page.items.map((x) => [x._id, x.name])).toEqual([[made._id, name]]);
  });
});

describe('services through the official module', () => {
  it('createService then updateService: revision 1, then 2; a stale revision is refused and changes nothing', async () => {
    const c = client();
    const name = `Sdk Service ${ctx.stamp()}`;
    const made = await c.services.createService({
      name,
      type: 'APPOINTMENT',
      staffMemberIds: [ctx.studio.staff[0]!],
      payment: { rateType: 'FIXED', fixed: { price: { value: '35', currency: 'USD' } }, options: { inPerson: true } },
      schedule: { availabilityConstraints: { sessionDurations: [45] } },
    });
    expect(made).toMatchObject({ name, type: 'APPOINTMENT', revision: '1', staffMemberIds: [ctx.studio.staff[0]], payment: { rateType: 'FIXED', fixed: { price: { value: '35', currency: 'USD' } } } });
    expect(made._id).toMatch(/./);

    const updated = await c.services.updateService(made._id!, { revision: made.revision!, description: 'Forty-five minutes', payment: { rateType: 'FIXED', fixed: { price: { value: '40', currency: 'USD' } }, options: { inPerson: true } } });
    expect(updated).toMatchObject({ _id: made._id, name, description: 'Forty-five minutes', revision: '2', payment: { fixed: { price: { value: '40' } } } });
    await expect(c.services.updateService(made._id!, { revision: '1', description: 'stale' })).rejects.toMatchObject({ details: { applicationError: { code: 'REVISION_MISMATCH' } } });
    expect((await c.services.getService(made._id!)).description).toBe('Forty-five minutes');
  });

  it('bulkUpdateServices: per-item results in order with bulkActionMetadata, each updated one a revision higher', async () => {
    const c = client();
    const tag = ctx.stamp();
    const a = await c.services.createService({ name: `Sdk Bulk A ${tag}`, type: 'APPOINTMENT' });
    const b = await c.services.createService({ name: `Sdk Bulk B ${tag}`, type: 'APPOINTMENT' });
    const res = await c.services.bulkUpdateServices({
      services: [
        { service: { _id: a._id!, revision: a.revision!, tagLine: 'First' } },
        { service: { _id: b._id!, revision: '99', tagLine: 'Stale' } },
      ],
      returnEntity: true,
    });
    expect(res.bulkActionMetadata).toMatchObject({ totalSuccesses: 1, totalFailures: 1 });
    expect(res.results!.map((r) => [r.itemMetadata?.originalIndex, r.itemMetadata?.success])).toEqual([
      [0, true],
      [1, false],
    ]);
    expect(res.results![0]!.item).toMatchObject({ _id: a._id, tagLine: 'First', revision: '2' });
    expect(res.results![1]!.itemMetadata?.error?.code).toBe('REVISION_MISMATCH');
    expect((await c.services.getService(b._id!)).revision).toBe(b.revision);
  });
});
