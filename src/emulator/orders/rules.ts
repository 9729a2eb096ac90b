/**
 * The order state machine (docs/plans-orders.md "Orders: the state table"; the platform's documented behaviour where the spec
 * says "not shown"). The statuses are the SDK's (`@wix/auto_sdk_pricing-plans_orders` OrderStatus): DRAFT
 * "initiated, payment not processed yet" (an online order not yet paid); PENDING "purchased and its start date is
 * set in the future" (an online order paid, an offline one paid or not, a free one, before its start date);
 * ACTIVE "processed, the plan is available for use" (from its start date, on the emulator's clock). The table,
 * also in docs/plans-orders.md:
 *
 * | action | allowed from | result | refused with (HTTP 428 unless noted) |
 * | --- | --- | --- | --- |
 * | pause | ACTIVE, past its free trial | PAUSED; a pause period opens | ORDER_NOT_SUSPENDABLE, `data.reason` PENDING (DRAFT: awaiting payment), NOT_STARTED (PENDING: paid, future start), TRIAL, CANCELED, ENDED, ALREADY_SUSPENDED (PAUSED) |
 * | resume | PAUSED | ACTIVE; the pause period closes; endDate and earliestEndDate move by the paused time | ORDER_NOT_PAUSED |
 * | cancel IMMEDIATELY | DRAFT, PENDING, ACTIVE, PAUSED | CANCELED now (endDate = now, an open pause closes) | ORDER_ALREADY_CANCELED, ORDER_ALREADY_ENDED |
 * | cancel NEXT_PAYMENT_DATE | ACTIVE subscription, auto-renewal on | stays ACTIVE, autoRenewCanceled, endDate = end of the current cycle (of the trial, in a trial); CANCELED then | ORDER_ALREADY_CANCELED, ORDER_ALREADY_ENDED, CANNOT_CANCEL_AT_NEXT_PAYMENT_DATE (`data.reason` NOT_RECURRING, NOT_STARTED for PENDING, NOT_ACTIVE), AUTO_RENEW_ALREADY_CANCELED |
 * | mark as paid | PENDING, ACTIVE or PAUSED, OFFLINE, UNPAID | lastPaymentStatus PAID | ORDER_NOT_OFFLINE, ORDER_ALREADY_PAID, ORDER_IS_FREE, INVALID_ORDER_STATUS |
 * | online payment PAID (hosted checkout page, control plane) | DRAFT, ONLINE, payment PENDING or FAILED | PENDING (start date ahead) or ACTIVE (started), lastPaymentStatus PAID; a start date already past moves to now and the end follows | ORDER_NOT_ONLINE, ORDER_IS_FREE, ORDER_NOT_PENDING, MEMBER_CANNOT_BUY, PURCHASE_LIMIT_EXCEEDED |
 * | online payment FAILED | as PAID | stays DRAFT, lastPaymentStatus FAILED (the buyer may pay again) | as PAID, but the limit |
 * | postpone end date | PENDING, ACTIVE or PAUSED with an end date | endDate (and a fixed order's earliestEndDate) = the later date; the same date again changes nothing | INVALID_ORDER_STATUS, ORDER_HAS_NO_END_DATE, 400 INVALID_END_DATE (not later) |
 * | member cancel request | the member's own order whose plan lets buyers cancel | as cancel, cause MEMBER_ACTION | BUYER_CANNOT_CANCEL; 404 ORDER_NOT_FOUND (another buyer's order) |
 * | time passes | PENDING, ACTIVE | at its start date PENDING becomes ACTIVE (`order.started`); a new cycle begins (`order.cycle_started`); at endDate ENDED (`order.ended`), or CANCELED when auto-renewal was canceled (`order.canceled`) | — |
 *
 * Cycles follow the plan's period: a subscription's cycle i begins when cycle i-1 ends, the first one when the
 * free trial ends; a pause inside a cycle lengthens it by the paused time; a single payment has one cycle over
 * its duration (an unlimited one never ends). `currentCycle` is the cycle holding the current time.
 *
 * Events: order.created, order.purchased, order.started, order.cycle_started, order.paused, order.resumed,
 * order.canceled, order.auto_renew_canceled, order.marked_as_paid, order.end_date_postponed, order.ended; an
 * online payment records order.purchased (then order.start_date_changed when its start moved to now, and
 * order.started when the order starts now), a failed one order.updated.
 */
import type { CancellationEffectiveAt, NotSuspendableReason } from '../../api/schemas/order.js';
import { ApplicationFailure } from '../errors.js';
import type { DurationDoc } from '../plans/model.js';
import type { CycleDoc, OrderBook, OrderDoc } from './model.js';

/** Tolerance for a start date "now" sent by a client whose clock is a little behind, in ms. */
export const START_SLACK = 60_000;

export const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const precondition = (code: string, description: string, data: Record<string, unknown> = {}) => new ApplicationFailure(428, code, description, data);

/** `ms` moved forward by `count` units on the UTC calendar (a month from Jan 31 is the last day of February). */
export function addPeriod(ms: number, d: DurationDoc, times = 1): number {
  const count = d.count * times;
  const date = new Date(ms);
  switch (d.unit) {
    case 'DAY':
      return ms + count * DAY;
    case 'WEEK':
      return ms + count * 7 * DAY;
    case 'MONTH':
    case 'YEAR': {
      const months = d.unit === 'YEAR' ? count * 12 : count;
      const day = date.getUTCDate();
      date.setUTCDate(1);
      date.setUTCMonth(date.getUTCMonth() + months);
      const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
      date.setUTCDate(Math.min(day, last));
      return date.getTime();
    }
  }
}

/** When the free trial ends (the start, without one). */
function trialEnd(o: OrderDoc): number {
  return Date.parse(o.startDate) + (o.pricing.subscription ? (o.freeTrialDays ?? 0) * DAY : 0);
}

/** The end of a cycle that runs from `start` for `length`, lengthened by the pauses that begin inside it (undefined while one goes on). */
function cycleEnd(o: OrderDoc, start: number, nominal: number): number | undefined {
  let end = nominal;
  for (const p of o.pausePeriods) {
    const at = Date.parse(p.pauseDate);
    if (at < start || at >= end) continue;
    if (p.resumeDate === undefined) return undefined;
    end += Date.parse(p.resumeDate) - at;
  }
  return end;
}

/**
 * The cycles of an order that have begun by `nowMs` (spec: "cycles computed from the plan's period"), the
 * last one possibly still running.
 */
export function cyclesOf(o: OrderDoc, nowMs: number): CycleDoc[] {
  const first = trialEnd(o);
  if (nowMs < first) return [];
  const end = o.endDate !== undefined ? Date.parse(o.endDate) : undefined;
  const sub = o.pricing.subscription;
  if (!sub) return [{ index: 1, startedDate: iso(first), ...(end !== undefined ? { endedDate: iso(end) } : {}) }];
  const out: CycleDoc[] = [];
  let start = first;
  for (let index = 1; start <= nowMs && (sub.cycleCount === 0 || index <= sub.cycleCount) && (end === undefined || start < end); index++) {
    const stop = cycleEnd(o, start, addPeriod(start, sub.cycleDuration));
    out.push({ index, startedDate: iso(start), ...(stop !== undefined ? { endedDate: iso(stop) } : {}) });
    if (stop === undefined) break;
    start = stop;
  }
  return out;
}

/** The end of the natural period of a new order: the last cycle's end, the duration's, or none (renews until canceled; unlimited). */
export function naturalEnd(pricing: OrderDoc['pricing'], startMs: number, trialDays: number): number | undefined {
  if (pricing.subscription) {
    const { cycleCount, cycleDuration } = pricing.subscription;
    return cycleCount > 0 ? addPeriod(startMs + trialDays * DAY, cycleDuration, cycleCount) : undefined;
  }
  if (pricing.singlePaymentForDuration) return addPeriod(startMs, pricing.singlePaymentForDuration);
  return undefined;
}

/** The order's cycle fields at `nowMs`: `cycles`, `currentCycle`, and a renewing subscription's `earliestEndDate`. */
export function withCycles(o: OrderDoc, nowMs: number): OrderDoc {
  const cycles = cyclesOf(o, nowMs);
  const current = cycles.length ? cycles[cycles.length - 1] : undefined;
  const next: OrderDoc = { ...o, cycles };
  if (current) next.currentCycle = current;
  else delete next.currentCycle;
  if (o.pricing.subscription) {
    const earliest = current?.endedDate ?? (cycles.length === 0 ? iso(trialEnd(o)) : undefined);
    if (earliest !== undefined) next.earliestEndDate = earliest;
  } else if (o.endDate !== undefined) {
    next.earliestEndDate = o.endDate;
  }
  return next;
}

/**
 * Why the order cannot be paused now (docs/wire.md §13; the SDK's ReasonNotSuspendable: PENDING "awaiting
 * payment", NOT_STARTED "paid for orders with future start dates"), or undefined when it can.
 */
export function notSuspendableReason(o: OrderDoc, nowMs: number): NotSuspendableReason | undefined {
  switch (o.status) {
    case 'DRAFT':
      return 'PENDING';
    case 'PENDING':
      return 'NOT_STARTED';
    case 'CANCELED':
      return 'CANCELED';
    case 'ENDED':
      return 'ENDED';
    case 'PAUSED':
      return 'ALREADY_SUSPENDED';
  }
  if (nowMs < Date.parse(o.startDate)) return 'NOT_STARTED';
  if (nowMs < trialEnd(o)) return 'TRIAL';
  return undefined;
}

/** Writes an order at the book's time with `event` (and extra events after it). */
function save(book: OrderBook, next: OrderDoc, event: string, extra: string[] = []): OrderDoc {
  const stored = book.orders.update({ ...next, updatedDate: book.now }, { event });
  for (const type of extra) book.event(type, stored.id, book.orders.json(stored));
  return stored;
}

/** The status of a bought order at `nowMs`: PENDING before its start date, ACTIVE from it (the SDK's OrderStatus). */
export function boughtStatus(startDate: string, nowMs: number): 'PENDING' | 'ACTIVE' {
  return nowMs < Date.parse(startDate) ? 'PENDING' : 'ACTIVE';
}

/**
 * What time does to one order by the book's time: the start (PENDING becomes ACTIVE), a new cycle, the end.
 * Writes only a changed order.
 * @returns the order as it is now
 */
export function advance(book: OrderBook, o: OrderDoc): OrderDoc {
  if (o.status !== 'ACTIVE' && o.status !== 'PENDING') return o;
  const now = book.nowMs;
  if (o.status === 'PENDING' && now < Date.parse(o.startDate)) return o;
  if (o.endDate !== undefined && now >= Date.parse(o.endDate)) {
    const canceled = o.autoRenewCanceled && o.cancellation?.effectiveAt === 'NEXT_PAYMENT_DATE';
    const at = withCycles({ ...o, status: canceled ? 'CANCELED' : 'ENDED' }, Date.parse(o.endDate));
    return save(book, at, canceled ? 'order.canceled' : 'order.ended', o.status === 'PENDING' ? ['order.started'] : []);
  }
  const next = withCycles({ ...o, status: 'ACTIVE' }, now);
  const started = o.status === 'PENDING';
  const cycleBegan = (next.currentCycle?.index ?? 0) !== (o.currentCycle?.index ?? 0);
  if (!started && !cycleBegan) return o;
  return save(book, next, started ? 'order.started' : 'order.cycle_started', started && cycleBegan ? ['order.cycle_started'] : []);
}

/** Brings every order of the site up to the book's time (before a read or an action). */
export function advanceAll(book: OrderBook): void {
  for (const o of [...book.orders.all()]) if (o.status === 'ACTIVE' || o.status === 'PENDING') advance(book, o);
}

/** The order by id, brought up to the book's time. @throws ApplicationFailure 404 ORDER_NOT_FOUND */
export function currentOrder(book: OrderBook, id: string): OrderDoc {
  return advance(book, book.orders.require(id));
}

/**
 * Pauses an ACTIVE order (`order.paused`).
 * @throws ApplicationFailure 404 ORDER_NOT_FOUND; 428 ORDER_NOT_SUSPENDABLE with `data.reason`
 */
export function pauseOrder(book: OrderBook, id: string): OrderDoc {
  const o = currentOrder(book, id);
  const reason = notSuspendableReason(o, book.nowMs);
  if (reason) throw precondition('ORDER_NOT_SUSPENDABLE', `order ${id} cannot be paused: ${REASON_TEXT[reason]}`, { id, reason, status: o.status });
  return save(book, withCycles({ ...o, status: 'PAUSED', pausePeriods: [...o.pausePeriods, { status: 'ACTIVE', pauseDate: book.now }] }, book.nowMs), 'order.paused');
}

const REASON_TEXT: Record<NotSuspendableReason, string> = {
  PENDING: 'it is waiting for its payment (DRAFT)',
  TRIAL: 'it is in its free trial',
  CANCELED: 'it is CANCELED',
  ENDED: 'it has ENDED',
  NOT_STARTED: 'it has not started yet (PENDING until its start date)',
  ALREADY_SUSPENDED: 'it is paused already',
  OLD_STRIPE: 'its payment method cannot be paused',
};

/** `ms` moved by `by` ms, as ISO (undefined stays undefined). */
const shifted = (date: string | undefined, by: number) => (date === undefined ? undefined : iso(Date.parse(date) + by));

/**
 * Resumes a PAUSED order (`order.resumed`): the end date and the earliest end date move by the paused time.
 * @throws ApplicationFailure 404 ORDER_NOT_FOUND; 428 ORDER_NOT_PAUSED
 */
export function resumeOrder(book: OrderBook, id: string): OrderDoc {
  const o = currentOrder(book, id);
  if (o.status !== 'PAUSED') throw precondition('ORDER_NOT_PAUSED', `order ${id} is ${o.status}, not PAUSED`, { id, status: o.status });
  const open = o.pausePeriods.findIndex((p) => p.status === 'ACTIVE');
  const pausedAt = open >= 0 ? Date.parse(o.pausePeriods[open]!.pauseDate) : book.nowMs;
  const paused = Math.max(0, book.nowMs - pausedAt);
  const pausePeriods = o.pausePeriods.map((p, i) => (i === open ? { status: 'ENDED' as const, pauseDate: p.pauseDate, resumeDate: book.now } : p));
  const next: OrderDoc = { ...o, status: 'ACTIVE', pausePeriods };
  const end = shifted(o.endDate, paused);
  const earliest = shifted(o.earliestEndDate, paused);
  if (end !== undefined) next.endDate = end;
  if (earliest !== undefined) next.earliestEndDate = earliest;
  return save(book, withCycles(next, book.nowMs), 'order.resumed');
}

/**
 * Cancels an order now or at its next payment date.
 * @param cause OWNER_ACTION (the owner's call) or MEMBER_ACTION (a member's request)
 * @throws ApplicationFailure 404 ORDER_NOT_FOUND; 428 ORDER_ALREADY_CANCELED, ORDER_ALREADY_ENDED,
 *   CANNOT_CANCEL_AT_NEXT_PAYMENT_DATE (`data.reason`: NOT_RECURRING, NOT_ACTIVE, NOT_STARTED), AUTO_RENEW_ALREADY_CANCELED
 */
export function cancelOrder(book: OrderBook, id: string, effectiveAt: CancellationEffectiveAt, cause: 'OWNER_ACTION' | 'MEMBER_ACTION' = 'OWNER_ACTION'): OrderDoc {
  const o = currentOrder(book, id);
  if (o.status === 'CANCELED') throw precondition('ORDER_ALREADY_CANCELED', `order ${id} is canceled already`, { id, status: o.status });
  if (o.status === 'ENDED') throw precondition('ORDER_ALREADY_ENDED', `order ${id} has ended; there is nothing to cancel`, { id, status: o.status });
  const cancellation = { requestedDate: book.now, cause, effectiveAt };
  if (effectiveAt === 'IMMEDIATELY') {
    const pausePeriods = o.pausePeriods.map((p) => (p.status === 'ACTIVE' ? { status: 'ENDED' as const, pauseDate: p.pauseDate, resumeDate: book.now } : p));
    const endsLater = o.endDate === undefined || Date.parse(o.endDate) > book.nowMs;
    const next: OrderDoc = { ...o, status: 'CANCELED', cancellation, pausePeriods, autoRenewCanceled: o.pricing.subscription ? true : o.autoRenewCanceled, ...(endsLater ? { endDate: book.now } : {}) };
    return save(book, withCycles(next, book.nowMs), 'order.canceled');
  }
  const cannot = (reason: string, text: string) => precondition('CANNOT_CANCEL_AT_NEXT_PAYMENT_DATE', `order ${id} cannot be canceled at its next payment date: ${text}`, { id, reason, status: o.status });
  if (!o.pricing.subscription) throw cannot('NOT_RECURRING', 'it is a single payment (cancel it IMMEDIATELY)');
  if (o.status === 'PENDING') throw cannot('NOT_STARTED', 'it has not started yet (PENDING until its start date)');
  if (o.status !== 'ACTIVE') throw cannot('NOT_ACTIVE', `it is ${o.status}`);
  if (o.autoRenewCanceled) throw precondition('AUTO_RENEW_ALREADY_CANCELED', `order ${id} already ends at its next payment date`, { id, endDate: o.endDate });
  const current = withCycles(o, book.nowMs);
  const end = current.currentCycle?.endedDate ?? iso(trialEnd(o));
  return save(book, withCycles({ ...current, autoRenewCanceled: true, cancellation, endDate: end, earliestEndDate: end }, book.nowMs), 'order.auto_renew_canceled');
}

/**
 * Records the payment of an unpaid offline order (`order.marked_as_paid`).
 * @throws ApplicationFailure 404 ORDER_NOT_FOUND; 428 ORDER_NOT_OFFLINE, ORDER_IS_FREE, ORDER_ALREADY_PAID, INVALID_ORDER_STATUS
 */
export function markAsPaid(book: OrderBook, id: string): OrderDoc {
  const o = currentOrder(book, id);
  if (o.type !== 'OFFLINE') throw precondition('ORDER_NOT_OFFLINE', `order ${id} is ${o.type}; only offline orders are marked as paid`, { id, type: o.type });
  if (o.lastPaymentStatus === 'NOT_APPLICABLE') throw precondition('ORDER_IS_FREE', `order ${id} is free; there is nothing to pay`, { id });
  if (o.lastPaymentStatus === 'PAID') throw precondition('ORDER_ALREADY_PAID', `order ${id} is paid already`, { id });
  if (o.status !== 'PENDING' && o.status !== 'ACTIVE' && o.status !== 'PAUSED') throw precondition('INVALID_ORDER_STATUS', `order ${id} is ${o.status}; only a PENDING, ACTIVE or PAUSED order is marked as paid`, { id, status: o.status });
  return save(book, { ...o, lastPaymentStatus: 'PAID' }, 'order.marked_as_paid');
}

/** What a payment of an online order comes to: paid, or declined (the card was refused). */
export type PaymentOutcome = 'PAID' | 'FAILED';
export const PAYMENT_OUTCOMES: readonly PaymentOutcome[] = ['PAID', 'FAILED'];

/**
 * Applies the outcome of a payment to a DRAFT online order, as the site's checkout page does when the buyer
 * pays (the emulator's hosted checkout page and `POST /__emulator/orders/{id}/pay` both come here).
 *
 * - PAID: payment PAID (`order.purchased`): the order is ACTIVE when it starts now (`order.started`), PENDING
 *   when it was bought to start later (it keeps its start date, and becomes ACTIVE then); one whose start date
 *   has passed while it waited for the payment starts now (`order.start_date_changed`), and its end date, trial
 *   and cycles follow from then, as for an order paid at once.
 * - FAILED: the order stays DRAFT with payment FAILED (`order.updated`); paying again is allowed.
 * @throws ApplicationFailure 404 ORDER_NOT_FOUND, MEMBER_NOT_FOUND (the buyer was deleted); 428 ORDER_NOT_ONLINE
 *   (an offline order: mark it as paid), ORDER_IS_FREE, ORDER_NOT_PENDING (`data.status`,
 *   `data.lastPaymentStatus`: paid already, canceled, ...), MEMBER_CANNOT_BUY (the buyer is BLOCKED or
 *   OFFLINE), PURCHASE_LIMIT_EXCEEDED (PAID: the buyer bought the plan up to its limit meanwhile)
 */
export function applyPayment(book: OrderBook, id: string, outcome: PaymentOutcome): OrderDoc {
  const o = currentOrder(book, id);
  checkPayable(o);
  checkBuyer(book, o.buyer.memberId);
  if (outcome === 'PAID') checkLimit(book, o);
  if (outcome === 'FAILED') return save(book, { ...o, lastPaymentStatus: 'FAILED' }, 'order.updated');
  const startMs = Math.max(Date.parse(o.startDate), book.nowMs);
  const next: OrderDoc = { ...o, status: boughtStatus(iso(startMs), book.nowMs), lastPaymentStatus: 'PAID', startDate: iso(startMs) };
  delete next.endDate;
  delete next.earliestEndDate;
  const end = naturalEnd(o.pricing, startMs, o.freeTrialDays ?? 0);
  if (end !== undefined) next.endDate = iso(end);
  if (next.freeTrialDays && end === undefined) next.earliestEndDate = iso(startMs + next.freeTrialDays * DAY);
  // A later start the buyer chose that passed before the payment, now moved to the payment's time, is the
  // start-date change of seed B §4 "Events emitted" (SDK pricing-plans_orders `OrderStartDateChanged`: "Order whose
  // startDate changed"), told after the purchase, before the start. An order bought to start at once (its start
  // is its creation) starts when paid: no change.
  const chosenLater = Date.parse(o.startDate) > Date.parse(o.createdDate ?? o.startDate) + START_SLACK;
  const moved = chosenLater && startMs !== Date.parse(o.startDate) ? ['order.start_date_changed'] : [];
  return save(book, withCycles(next, book.nowMs), 'order.purchased', [...moved, ...(startMs <= book.nowMs ? ['order.started'] : [])]);
}

/**
 * True when the order was bought: paid, free or recorded offline, whatever became of it since. An online order
 * never paid (waiting, declined, or canceled before its payment) was not.
 */
export function wasBought(o: OrderDoc): boolean {
  return o.type !== 'ONLINE' || (o.lastPaymentStatus !== 'PENDING' && o.lastPaymentStatus !== 'FAILED');
}

/** How many orders of `plan` the member bought ({@link wasBought}): what a plan's `maxPurchasesPerBuyer` limits. */
export function purchasesOf(book: OrderBook, planId: string, memberId: string): number {
  let n = 0;
  for (const o of book.orders.all()) if (o.planId === planId && o.buyer.memberId === memberId && wasBought(o)) n++;
  return n;
}

/** Refuses paying an order whose buyer reached the plan's purchase limit. @throws ApplicationFailure 428 PURCHASE_LIMIT_EXCEEDED */
function checkLimit(book: OrderBook, o: OrderDoc): void {
  const plan = book.plans.get(o.planId);
  const limit = plan?.maxPurchasesPerBuyer ?? 0;
  if (limit > 0 && purchasesOf(book, o.planId, o.buyer.memberId) >= limit) {
    throw precondition('PURCHASE_LIMIT_EXCEEDED', `member ${o.buyer.memberId} has bought plan "${o.planName}" ${limit} time(s), its limit`, { planId: o.planId, memberId: o.buyer.memberId, maxPurchasesPerBuyer: limit });
  }
}

/**
 * Refuses a buyer who may not buy online: a member BLOCKED or OFFLINE (who may not sign in either) or deleted.
 * @throws ApplicationFailure 404 MEMBER_NOT_FOUND; 428 MEMBER_CANNOT_BUY (`data.status`)
 */
export function checkBuyer(book: OrderBook, memberId: string): void {
  const m = book.members.require(memberId);
  if (m.status === 'BLOCKED' || m.status === 'OFFLINE') throw precondition('MEMBER_CANNOT_BUY', `member ${memberId} is ${m.status}: they may not buy`, { memberId, status: m.status });
}

/** Refuses an order that does not wait for an online payment. @throws as {@link applyPayment} */
export function checkPayable(o: OrderDoc): void {
  const id = o.id;
  if (o.type !== 'ONLINE') throw precondition('ORDER_NOT_ONLINE', `order ${id} is ${o.type}: it is not paid on the site's checkout; mark it as paid instead`, { id, type: o.type });
  if (o.lastPaymentStatus === 'NOT_APPLICABLE') throw precondition('ORDER_IS_FREE', `order ${id} is free; there is nothing to pay`, { id });
  if (o.status !== 'DRAFT') {
    const why = o.lastPaymentStatus === 'PAID' ? 'it is paid already' : 'only a DRAFT order waits for its payment';
    throw precondition('ORDER_NOT_PENDING', `order ${id} is ${o.status} (payment ${o.lastPaymentStatus}): ${why}`, { id, status: o.status, lastPaymentStatus: o.lastPaymentStatus });
  }
}

/**
 * Moves the end date of an ACTIVE or PAUSED order later (`order.end_date_postponed`); the same date again
 * changes nothing.
 * @throws ApplicationFailure 404 ORDER_NOT_FOUND; 428 INVALID_ORDER_STATUS, ORDER_HAS_NO_END_DATE; 400 INVALID_END_DATE
 */
export function postponeEndDate(book: OrderBook, id: string, endDate: string): OrderDoc {
  const o = currentOrder(book, id);
  if (o.status !== 'PENDING' && o.status !== 'ACTIVE' && o.status !== 'PAUSED') throw precondition('INVALID_ORDER_STATUS', `order ${id} is ${o.status}; only a PENDING, ACTIVE or PAUSED order's end date moves`, { id, status: o.status });
  if (o.endDate === undefined) throw precondition('ORDER_HAS_NO_END_DATE', `order ${id} has no end date (it renews until canceled, or never ends)`, { id });
  const wanted = Date.parse(endDate);
  const current = Date.parse(o.endDate);
  if (wanted === current) return o;
  if (wanted < current) throw new ApplicationFailure(400, 'INVALID_END_DATE', `the new end date must be later than the current one (${o.endDate})`, { id, endDate: o.endDate, requested: endDate });
  const next: OrderDoc = { ...o, endDate: iso(wanted) };
  if (!o.pricing.subscription || o.autoRenewCanceled) next.earliestEndDate = iso(wanted);
  return save(book, withCycles(next, book.nowMs), 'order.end_date_postponed');
}

/**
 * A member's request to cancel one of their own orders (docs/wire.md §20): only when
 * the plan lets buyers cancel; then as {@link cancelOrder} with cause MEMBER_ACTION.
 * @throws ApplicationFailure 404 ORDER_NOT_FOUND (also for another buyer's order); 428 BUYER_CANNOT_CANCEL; as cancelOrder
 */
export function requestCancellation(book: OrderBook, memberId: string, id: string, effectiveAt: CancellationEffectiveAt): OrderDoc {
  const o = book.orders.get(id);
  if (!o || o.buyer.memberId !== memberId) throw new ApplicationFailure(404, 'ORDER_NOT_FOUND', `order ${id} was not found`, { id });
  const plan = book.plans.get(o.planId);
  if (plan && !plan.buyerCanCancel) throw precondition('BUYER_CANNOT_CANCEL', `the plan "${plan.name}" does not let buyers cancel; ask the site owner`, { id, planId: o.planId });
  return cancelOrder(book, id, effectiveAt, 'MEMBER_ACTION');
}
