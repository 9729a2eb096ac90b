/**
 * The interactive tables' server sort, per noun: each view's `sortFields` names columns it has and fields its
 * schema has (checked as `--sort` is), a list the platform returns in its own order sorts nothing on the server,
 * and the list's own `--sort` shows as the table's first sort.
 */
import { describe, expect, it } from 'vitest';
import type { Context } from '../../../src/context.js';
import { columnSorts, sortedColumn } from '../../../src/commands/shared/browse.js';
import type { EntityView } from '../../../src/commands/shared/entity-view.js';
import { BOOKING_VIEW, bookingColumns } from '../../../src/commands/bookings/shared/view.js';
import { MEMBER_VIEW } from '../../../src/commands/members/shared/view.js';
import { ORDER_VIEW } from '../../../src/commands/orders/shared/view.js';
import { PLAN_VIEW } from '../../../src/commands/plans/shared/view.js';
import { SERVICE_VIEW } from '../../../src/commands/services/shared/view.js';

const ctx = { flags: { allowUnknownFields: false } } as unknown as Context;
const views = [SERVICE_VIEW, BOOKING_VIEW, MEMBER_VIEW, ORDER_VIEW, PLAN_VIEW] as Array<EntityView<unknown>>;

describe('server sort of the interactive tables', () => {
  it.each(views.map((v) => [v.noun.many, v] as const))('%s: every sort field is a column of the view and a field of the schema', (_, view) => {
    const keys = view.columns.map((c) => c.key);
    for (const key of Object.keys(view.sortFields ?? {})) expect(keys).toContain(key);
    expect(() => columnSorts(ctx, view, view.query, view.columns)).not.toThrow();
  });

  it('sends the platform paths: bookings by start time, by staff through the documented path', () => {
    const sorts = columnSorts(ctx, BOOKING_VIEW, BOOKING_VIEW.query, bookingColumns('UTC'));
    const byHeader = Object.fromEntries(bookingColumns().map((c, i) => [c.key, sorts[i]]));
    expect(byHeader).toMatchObject({ id: 'id', start: 'startDate', status: 'status', contact: undefined, revision: undefined });
    expect(byHeader.staff).toMatch(/^bookedEntity\.(item\.)?slot\.resource\.name$/);
  });

  it('sorts nothing on the server for plans (the platform lists them in its own order)', () => {
    expect(columnSorts(ctx, PLAN_VIEW, PLAN_VIEW.query, PLAN_VIEW.columns).every((f) => f === undefined)).toBe(true);
  });

  it("shows the list's one-key --sort as the table's first sort", () => {
    const fields = ['id', 'startDate', undefined];
    expect(sortedColumn([{ fieldName: 'startDate', order: 'DESC' }], fields)).toEqual({ col: 1, desc: true });
    expect(sortedColumn([{ fieldName: 'startDate', order: 'ASC' }, { fieldName: 'id' }], fields)).toBeUndefined();
    expect(sortedColumn([{ fieldName: 'createdDate' }], fields)).toBeUndefined();
    expect(sortedColumn(undefined, fields)).toBeUndefined();
  });
});

describe('the filter a list starts with, as filter-line text', () => {
  it('writes equality, one-value lists and operators as --where terms, and refuses what cannot be written so', async () => {
    const { whereText } = await import('../../../src/commands/shared/browse.js');
    expect(whereText(undefined)).toBe('');
    expect(whereText({ status: 'PENDING' })).toBe('status=PENDING');
    expect(whereText({ $and: [{ status: { $in: ['PENDING'] } }, { hidden: false }] })).toBe('status=PENDING hidden=false');
    expect(whereText({ status: { $in: ['PENDING', 'CREATED'] } })).toBe('status={"$in":["PENDING","CREATED"]}');
    expect(whereText({ 'contactDetails.lastName': 'van Dyke' })).toBe('contactDetails.lastName="van Dyke"');
    expect(whereText({ name: 'true' })).toBe('name="true"');
    expect(whereText({ $or: [{ status: 'PENDING' }] })).toBeUndefined();
  });
});
