/**
 * Order rules the HTTP tests cannot reach yet or test only indirectly: a member's cancel request (its calls
 * answer 401 until member tokens exist), and the calendar arithmetic of cycles. Run on a real store in a temp
 * dir, as a handler would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMBERS, type MemberDoc } from '../../../src/emulator/members/model.js';
import { createOrder } from '../../../src/emulator/orders/checkout.js';
import { ORDERS, orderBookOf, type OrderBook } from '../../../src/emulator/orders/model.js';
import { addPeriod, requestCancellation } from '../../../src/emulator/orders/rules.js';
import { COUPONS, PLANS } from '../../../src/emulator/plans/model.js';
import { createPlan } from '../../../src/emulator/plans/rules.js';
import { ApplicationFailure } from '../../../src/emulator/errors.js';
import { Store } from '../../../src/emulator/store/store.js';

const SITE = 'site-1';
let dir: string;
let store: Store;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sitectl-order-rules-'));
  store = new Store(dir, { defaultSite: { id: SITE, name: 'Test' } });
  for (const def of [MEMBERS, PLANS, COUPONS, ORDERS]) store.collection(def as never);
});
afterAll(() => {
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `fn` in a transaction with the site's book, as a handler does. */
function inBook<T>(fn: (book: OrderBook) => T): T {
  return store.tx(() => fn(orderBookOf({ db: (def) => store.collection(def).at(SITE), now: store.clock.nowIso(), store, site: SITE })));
}

let n = 0;
function member(book: OrderBook): string {
  const id = `member-${n++}`;
  const doc: MemberDoc = {
    id,
    loginEmail: `${id}@example.com`,
    status: 'APPROVED',
    contactId: `contact-${id}`,
    contact: { phones: [], emails: [], addresses: [], customFields: {} },
    profile: { slug: id },
    privacyStatus: 'PUBLIC',
    activityStatus: 'ACTIVE',
  };
  book.members.insert(doc);
  return id;
}

function failure(fn: () => unknown): { status: number; code: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApplicationFailure) return { status: err.status, code: err.code };
    throw err;
  }
  throw new Error('no failure');
}

describe("a member's cancel request", () => {
  it('cancels only the member’s own order, only when the plan lets buyers cancel; cause MEMBER_ACTION', () => {
    inBook((book) => {
      const pricing = { subscription: { cycleDuration: { count: 1, unit: 'MONTH' as const }, cycleCount: 0 }, price: { value: '10', currency: 'USD' } };
      const open = createPlan(book, { name: 'Open', pricing, buyerCanCancel: true });
      const locked = createPlan(book, { name: 'Locked', pricing, buyerCanCancel: false });
      const buyer = member(book);
      const other = member(book);
      const mine = createOrder(book, { planId: open.id, memberId: buyer, type: 'OFFLINE', paid: true });
      const kept = createOrder(book, { planId: locked.id, memberId: buyer, type: 'OFFLINE', paid: true });
      expect(failure(() => requestCancellation(book, other, mine.id, 'IMMEDIATELY'))).toEqual({ status: 404, code: 'ORDER_NOT_FOUND' });
      expect(failure(() => requestCancellation(book, buyer, kept.id, 'IMMEDIATELY'))).toEqual({ status: 428, code: 'BUYER_CANNOT_CANCEL' });
      expect(book.orders.get(kept.id)!.status).toBe('ACTIVE');
      const canceled = requestCancellation(book, buyer, mine.id, 'NEXT_PAYMENT_DATE');
      expect(canceled).toMatchObject({ status: 'ACTIVE', autoRenewCanceled: true, cancellation: { cause: 'MEMBER_ACTION', effectiveAt: 'NEXT_PAYMENT_DATE' } });
      expect(canceled.endDate).toBe(canceled.currentCycle!.endedDate);
      expect(failure(() => requestCancellation(book, buyer, mine.id, 'NEXT_PAYMENT_DATE'))).toEqual({ status: 428, code: 'AUTO_RENEW_ALREADY_CANCELED' });
      expect(requestCancellation(book, buyer, mine.id, 'IMMEDIATELY').status).toBe('CANCELED');
    });
  });
});

describe('addPeriod', () => {
  const at = (iso: string) => Date.parse(iso);
  it('adds days and weeks exactly, months and years on the calendar, ending on the last day of a shorter month', () => {
    expect(new Date(addPeriod(at('2026-01-31T10:00:00Z'), { count: 1, unit: 'MONTH' })).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(new Date(addPeriod(at('2028-01-31T10:00:00Z'), { count: 1, unit: 'MONTH' })).toISOString()).toBe('2028-02-29T10:00:00.000Z');
    expect(new Date(addPeriod(at('2026-11-15T00:00:00Z'), { count: 1, unit: 'MONTH' }, 3)).toISOString()).toBe('2027-02-15T00:00:00.000Z');
    expect(new Date(addPeriod(at('2028-02-29T00:00:00Z'), { count: 1, unit: 'YEAR' })).toISOString()).toBe('2029-02-28T00:00:00.000Z');
    expect(new Date(addPeriod(at('2026-12-30T00:00:00Z'), { count: 2, unit: 'WEEK' })).toISOString()).toBe('2027-01-13T00:00:00.000Z');
    expect(new Date(addPeriod(at('2026-12-30T00:00:00Z'), { count: 3, unit: 'DAY' })).toISOString()).toBe('2027-01-02T00:00:00.000Z');
  });
});
