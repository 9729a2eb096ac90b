/** Filters turned into the parameters of a GET list (src/api/list-params.ts). */
import { describe, expect, it } from 'vitest';
import { paramsOfFilter, UnsupportedFilterError } from '../../../src/api/list-params.js';
import { ORDER_LIST_PARAMS } from '../../../src/api/schemas/order.js';

describe('paramsOfFilter', () => {
  it('sends equality and $in as (repeated) parameters, ANDed conditions intersected', () => {
    expect(paramsOfFilter(undefined, ORDER_LIST_PARAMS)).toEqual({});
    expect(paramsOfFilter({ status: 'ACTIVE', planId: { $in: ['p1', 'p2'] } }, ORDER_LIST_PARAMS)).toEqual({ orderStatuses: ['ACTIVE'], planIds: ['p1', 'p2'] });
    expect(paramsOfFilter({ $and: [{ status: { $in: ['ACTIVE', 'PAUSED'] } }, { status: { $eq: 'PAUSED' } }, { autoRenewCanceled: true }] }, ORDER_LIST_PARAMS)).toEqual({ orderStatuses: ['PAUSED'], autoRenewCanceled: true });
    expect(paramsOfFilter({ 'buyer.memberId': 'm1', lastPaymentStatus: 'UNPAID' }, ORDER_LIST_PARAMS)).toEqual({ buyerIds: ['m1'], paymentStatuses: ['UNPAID'] });
  });

  it('says when conditions exclude each other (null: nothing matches)', () => {
    expect(paramsOfFilter({ $and: [{ status: 'ACTIVE' }, { status: 'ENDED' }] }, ORDER_LIST_PARAMS)).toBeNull();
  });

  it('refuses what the parameters cannot express, naming the fields they can', () => {
    const refused = (filter: Record<string, unknown>) => {
      try {
        paramsOfFilter(filter, ORDER_LIST_PARAMS);
      } catch (err) {
        expect(err).toBeInstanceOf(UnsupportedFilterError);
        expect((err as UnsupportedFilterError).supported).toContain('buyer.memberId');
        return (err as Error).message;
      }
      throw new Error('not refused');
    };
    expect(refused({ startDate: { $gt: '2026-01-01' } })).toMatch(/cannot select by startDate/);
    expect(refused({ status: { $ne: 'ACTIVE' } })).toMatch(/only equality or \$in/);
    expect(refused({ $or: [{ status: 'ACTIVE' }] })).toMatch(/\$or cannot be sent/);
    expect(refused({ autoRenewCanceled: { $in: [true, false] } })).toMatch(/takes one value/);
  });
});
