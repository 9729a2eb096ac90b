/** The pure parts of `events` and the dashboard's work lists: type patterns, webhook URLs, orders needing attention. */
import { describe, expect, it } from 'vitest';
import { attentionOf } from '../../../src/commands/orders/shared/work-lists.js';
import { andParams } from '../../../src/commands/shared/work-lists.js';
import { andFilters } from '../../../src/commands/shared/browse.js';
import { forwardUrl, typeMatcher } from '../../../src/commands/events/index.js';
import type { Order } from '../../../src/api/schemas/order.js';

describe('events', () => {
  it('matches dotted type patterns with *, several at once, everything without one', () => {
    const m = typeMatcher(['booking.*', 'member.approved,*.deleted']);
    expect(['booking.confirmed', 'member.approved', 'service.deleted'].map(m)).toEqual([true, true, true]);
    expect(['member.blocked', 'bookings.x', 'service.updated'].map(m)).toEqual([false, false, false]);
    expect(typeMatcher(undefined)('anything')).toBe(true);
    expect(() => typeMatcher(['booking.(x)'])).toThrow(/not an event type pattern/);
  });

  it('takes http(s) URLs for --forward-to, host:port as http', () => {
    expect(forwardUrl('localhost:4242/hooks')!.href).toBe('http://localhost:4242/hooks');
    expect(forwardUrl('https://example.com/x')!.protocol).toBe('https:');
    expect(() => forwardUrl('ftp://x')).toThrow(/http or https/);
    expect(forwardUrl(undefined)).toBeUndefined();
  });
});

describe('dashboard', () => {
  it('ANDs a pane\'s own selection with the / filter: filters under $and, GET parameters by the values both allow', () => {
    expect(andFilters({ status: { $in: ['PENDING', 'CREATED'] } }, { status: 'PENDING' })).toEqual({ $and: [{ status: { $in: ['PENDING', 'CREATED'] } }, { status: 'PENDING' }] });
    expect(andFilters({ status: 'PENDING' }, undefined)).toEqual({ status: 'PENDING' });
    expect(andFilters(undefined, { status: 'PENDING' })).toEqual({ status: 'PENDING' });
    expect(andParams({ orderStatuses: ['DRAFT', 'PENDING'] }, { orderStatuses: ['PENDING'], planIds: ['p1'] })).toEqual({ orderStatuses: ['PENDING'], planIds: ['p1'] });
    expect(andParams({ orderStatuses: ['PAUSED'] }, { orderStatuses: ['ACTIVE'] })).toBeNull();
    expect(andParams({ autoRenewCanceled: true }, { autoRenewCanceled: false })).toBeNull();
    expect(andParams({ paymentStatuses: ['UNPAID'] }, undefined)).toEqual({ paymentStatuses: ['UNPAID'] });
  });

  const now = new Date('2026-11-23T12:00:00Z');
  const order = (o: Partial<Order>) => ({ id: 'o', ...o }) as Order;
  it('says why an order needs attention: paused, unpaid offline, ending soon', () => {
    const week = 7 * 24 * 3600 * 1000;
    expect(attentionOf(order({ status: 'PAUSED' }), now, week, 'UTC')).toBe('paused');
    expect(attentionOf(order({ status: 'ACTIVE', type: 'OFFLINE', lastPaymentStatus: 'UNPAID' }), now, week, 'UTC')).toBe('unpaid offline');
    expect(attentionOf(order({ status: 'ACTIVE', type: 'ONLINE', lastPaymentStatus: 'UNPAID' }), now, week, 'UTC')).toBeUndefined();
    expect(attentionOf(order({ status: 'ACTIVE', endDate: new Date('2026-11-25T12:00:00Z') }), now, week, 'UTC')).toBe('ends in 2 days');
    expect(attentionOf(order({ status: 'ACTIVE', endDate: new Date('2026-11-24T01:00:00Z') }), now, week, 'UTC')).toBe('ends tomorrow');
    expect(attentionOf(order({ status: 'ACTIVE', endDate: new Date('2026-12-25T12:00:00Z') }), now, week, 'UTC')).toBeUndefined();
    expect(attentionOf(order({ status: 'CANCELED', type: 'OFFLINE', lastPaymentStatus: 'UNPAID' }), now, week, 'UTC')).toBeUndefined();
    // The SDK's statuses: DRAFT awaits its payment; PENDING is bought and starts later.
    expect(attentionOf(order({ status: 'DRAFT', type: 'ONLINE', lastPaymentStatus: 'PENDING' }), now, week, 'UTC')).toBe('awaiting payment');
    expect(attentionOf(order({ status: 'DRAFT', type: 'ONLINE', lastPaymentStatus: 'FAILED' }), now, week, 'UTC')).toBe('payment failed');
    expect(attentionOf(order({ status: 'PENDING', type: 'ONLINE', lastPaymentStatus: 'PAID', startDate: new Date('2026-11-26T12:00:00Z') }), now, week, 'UTC')).toBe('starts in 3 days');
    expect(attentionOf(order({ status: 'PENDING', type: 'ONLINE', lastPaymentStatus: 'PAID', startDate: new Date('2027-01-26T12:00:00Z') }), now, week, 'UTC')).toBeUndefined();
  });
});
