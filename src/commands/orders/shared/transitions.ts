/**
 * The owner's order actions as shared transition verbs (docs/plans-orders.md "Orders: the state table", docs/wire.md §20; the state
 * table in docs/plans-orders.md): pause, resume, cancel (now, or at the next payment date), mark as paid and
 * postpone the end date, each for one order or many through the entity bulk engine (selected by `--status`,
 * `--plan`, `--buyer`, `--payment-status`, `--filter`/`--where`, `--ids`). Orders have no revisions.
 *
 * What the command can tell from an order's fields (its status, type, payment, and for pause whether a cycle
 * has begun: in a free trial) is checked before anything is sent: the single form refuses (exit 1), the bulk
 * form's plan and run skip with the reason. What else depends on the time is the platform's to say: it refuses
 * with its code (ORDER_NOT_SUSPENDABLE and its reason), and a bulk run skips the order.
 *
 * The statuses are the SDK's OrderStatus: DRAFT (an online order not paid yet), PENDING (bought, its start date
 * ahead), ACTIVE (from its start date), PAUSED, ENDED, CANCELED. What each verb says of them:
 *
 * | verb | DRAFT | PENDING | ACTIVE | PAUSED | ENDED, CANCELED |
 * | --- | --- | --- | --- | --- | --- |
 * | pause | waiting for its payment | not started yet | pauses (not in a free trial) | paused already | final |
 * | resume | only a PAUSED order resumes | same | same | resumes | same |
 * | cancel | cancels (now) | cancels (now; next-payment: the platform refuses, not started) | cancels | cancels | ENDED: has ended; CANCELED: done |
 * | mark-paid | only PENDING, ACTIVE or PAUSED (an offline order is never DRAFT) | marks | marks | marks | final |
 * | postpone | only PENDING, ACTIVE or PAUSED | moves | moves | moves | final |
 */
import type { KeyedVerb, TransitionOptions, TransitionSpec } from '../../shared/entity-view.js';
import type { Command } from 'commander';
import type { ApiClient } from '../../../api/client.js';
import { orderOps } from '../../../api/orders.js';
import { eachSender } from '../../../bulk/actions.js';
import type { ChunkRunner } from '../../../bulk/execute.js';
import type { Order } from '../../../api/schemas/order.js';
import { UserError } from '../../../core/errors.js';
import { choiceOf } from '../../shared/choices.js';
import { parseWhen } from '../../shared/time.js';
import { transitionVerb } from '../../shared/transition.js';
import { addCriteriaFlags, criteriaFilter, type CriteriaFlags, hasCriteria } from './criteria.js';
import { cancelOutcome, fetchOrder, ORDER_VIEW } from './view.js';

type Verb = 'pause' | 'resume' | 'cancel' | 'mark-paid' | 'postpone';
type Row = Order & { revision?: string | null };

const plural = (n: number) => `${n} order${n === 1 ? '' : 's'}`;

/** Why an order in this status cannot change at all (CANCELED, ENDED), or undefined. */
const finalReason = (o: Order) => (o.status === 'CANCELED' || o.status === 'ENDED' ? `it is ${o.status}` : undefined);

/**
 * Why an order cannot be paused, from its status (the SDK's ReasonNotSuspendable: PENDING "awaiting payment" is
 * a DRAFT order, NOT_STARTED "paid for, future start date" a PENDING one), or, for an ACTIVE order, when no
 * cycle of it has begun: the platform computes `currentCycle` (the last cycle begun, docs/plans-orders.md "Time
 * and cycles"), and the first cycle begins at the end of a free trial. So the plan tells these orders by their
 * fields, with no clock of its own, and skips them with the reason the platform would give.
 */
function notPausable(o: Order): string | undefined {
  if (o.status === 'DRAFT') return 'it is DRAFT (waiting for its payment)';
  if (o.status === 'PENDING') return 'it is PENDING (bought, it has not started yet)';
  if (o.status !== 'ACTIVE' || o.currentCycle || !o.startDate) return undefined;
  return o.freeTrialDays ? 'it is in its free trial (no cycle has begun)' : undefined;
}

/**
 * The new end date of `orders postpone` (`--to`) as an ISO instant: a date or date-time in UTC unless it
 * carries an offset. Checked before anything is read. @throws UserError (exit 2)
 */
function postponeTo(o: TransitionOptions): string {
  const to = o.to as string | undefined;
  if (to === undefined) throw new UserError('postpone needs --to DATE', 'e.g. --to 2027-03-01 or --to 2027-03-01T18:00:00Z');
  try {
    return new Date(parseWhen(to, 'UTC', '--to')).toISOString();
  } catch (err) {
    // parseWhen's hint speaks of the site's zone; an order's end date here is read in UTC.
    if (err instanceof UserError) throw new UserError(err.message, 'use 2027-03-01 or 2027-03-01T18:00 (UTC), or an instant with an offset such as 2027-03-01T18:00:00+02:00');
    throw err;
  }
}

type OrderAction = 'pauseOrder' | 'resumeOrder' | 'markAsPaid' | 'cancelOrder' | 'postponeEndDate';

/** Orders per chunk (the engine runs several chunks at once). */
const EACH_CHUNK = 10;

/**
 * The sender of one order action: each order on its own call (the platform has no bulk order call). Orders have
 * no revisions: an action sent again is refused by the order's state and settled by reading the order.
 */
function orderSender(api: ApiClient, action: OrderAction, options: Record<string, unknown>): ChunkRunner['send'] {
  switch (action) {
    case 'cancelOrder':
      return eachSender(api, orderOps.cancelOrder, (item) => ({ id: item.id, effectiveAt: options.effectiveAt === 'NEXT_PAYMENT_DATE' ? ('NEXT_PAYMENT_DATE' as const) : ('IMMEDIATELY' as const) }));
    case 'postponeEndDate':
      return eachSender(api, orderOps.postponeEndDate, (item) => ({ id: item.id, endDate: String(options.endDate) }));
    default:
      return eachSender(api, orderOps[action], (item) => ({ id: item.id }));
  }
}

const SPECS: Record<Verb, Omit<TransitionSpec<Row>, 'view' | 'fetch' | 'command' | 'send' | 'chunkSize'> & { action: OrderAction }> = {
  pause: {
    verb: 'pause',
    action: 'pauseOrder',
    description: 'Pause an active order (its end date moves by the paused time when it resumes), or many in bulk',
    examples: ['sitectl orders pause 7c1e --yes', "sitectl orders pause --plan 'Gold Monthly' --status ACTIVE --dry-run", 'sitectl orders pause --ids-file ids.txt --yes --json'],
    done: 'paused',
    title: 'Pausing',
    destructive: true,
    confirmOne: (o) => `Pause order ${o.id}? Its member loses access until it is resumed.`,
    reached: (o) => o.status === 'PAUSED',
    blocked: (o) => finalReason(o) ?? notPausable(o),
    question: (n) => `Pause ${plural(n)}? Their members lose access until they are resumed.`,
  },
  resume: {
    verb: 'resume',
    action: 'resumeOrder',
    description: 'Resume a paused order (its end date moves by the paused time), or many in bulk',
    examples: ['sitectl orders resume 7c1e', 'sitectl orders resume --status PAUSED --yes'],
    done: 'resumed',
    title: 'Resuming',
    destructive: false,
    reached: (o) => o.status === 'ACTIVE',
    blocked: (o) => (o.status === 'PAUSED' ? undefined : `it is ${o.status} (only a PAUSED order resumes)`),
    question: (n) => `Resume ${plural(n)}?`,
  },
  cancel: {
    verb: 'cancel',
    action: 'cancelOrder',
    description: 'Cancel an order now, or at its next payment date (--at next-payment: auto-renewal stops), or many in bulk',
    examples: ['sitectl orders cancel 7c1e --yes', 'sitectl orders cancel 7c1e --at next-payment --yes', "sitectl orders cancel --status DRAFT --plan 'Silver 12 Months' --dry-run"],
    done: 'canceled',
    title: 'Cancelling',
    destructive: true,
    flags: (cmd: Command) => cmd.option('--at <when>', 'now (default) or next-payment'),
    options: (o) => ({ effectiveAt: effectiveAtOf(o.at as string | undefined) }),
    // Canceled at the next payment date already (auto-renewal off, the cancellation set): asking again changes
    // nothing, and the platform refuses it (AUTO_RENEW_ALREADY_CANCELED); canceling such an order now still can.
    reached: (o, opts) =>
      o.status === 'CANCELED' || (opts.effectiveAt === 'NEXT_PAYMENT_DATE' && Boolean(o.autoRenewCanceled) && o.cancellation?.effectiveAt === 'NEXT_PAYMENT_DATE'),
    // --at next-payment on a PENDING order is the platform's to refuse (CANNOT_CANCEL_AT_NEXT_PAYMENT_DATE, NOT_STARTED).
    blocked: (o) => (o.status === 'ENDED' ? 'it has ENDED' : undefined),
    confirmOne: (o, opts) =>
      opts.effectiveAt === 'NEXT_PAYMENT_DATE' ? `Cancel order ${o.id} at its next payment date? It does not renew.` : `Cancel order ${o.id} now? The member loses the plan at once.`,
    // Canceled at the next payment date, the order stays ACTIVE until then: say when it ends.
    outcome: (o, label, opts) => (opts.effectiveAt === 'NEXT_PAYMENT_DATE' ? cancelOutcome(o, 'NEXT_PAYMENT_DATE', label) : undefined),
    question: (n) => `Cancel ${plural(n)}? Their members lose their plans.`,
  },
  'mark-paid': {
    verb: 'mark-paid',
    action: 'markAsPaid',
    description: 'Record the payment of an unpaid offline order, or of many in bulk',
    examples: ['sitectl orders mark-paid 7c1e', 'sitectl orders mark-paid --payment-status UNPAID --status ACTIVE --dry-run'],
    done: 'marked paid',
    title: 'Marking paid',
    destructive: false,
    reached: (o) => o.lastPaymentStatus === 'PAID',
    blocked: (o) => {
      if (o.type !== 'OFFLINE') return `it is an ${o.type} order (only offline orders are marked paid)`;
      if (o.lastPaymentStatus === 'NOT_APPLICABLE') return 'it is free';
      if (o.status !== 'PENDING' && o.status !== 'ACTIVE' && o.status !== 'PAUSED') return `it is ${o.status}`;
      return undefined;
    },
    question: (n) => `Mark ${plural(n)} as paid?`,
  },
  postpone: {
    verb: 'postpone',
    action: 'postponeEndDate',
    description: 'Move the end date of an order later (--to DATE), or of many in bulk',
    examples: ['sitectl orders postpone 7c1e --to 2027-03-01', "sitectl orders postpone --plan '10-Class Pack' --status ACTIVE --to 2099-12-31 --dry-run"],
    done: 'postponed',
    title: 'Postponing',
    destructive: false,
    flags: (cmd: Command) => cmd.option('--to <date>', 'the new end date, later than the current one (UTC unless an offset is given: 2027-03-01, 2027-03-01T18:00:00+02:00)'),
    options: (o) => ({ endDate: postponeTo(o) }),
    reached: () => false,
    question: (n) => `Postpone the end of ${plural(n)}?`,
  },
};

/** `--at now|next-payment` as the platform's effectiveAt. @throws UserError (exit 2) */
function effectiveAtOf(at: string | undefined): 'IMMEDIATELY' | 'NEXT_PAYMENT_DATE' {
  const a = choiceOf((at ?? 'now').replace(/_/g, '-'), ['now', 'immediately', 'next-payment', 'next-payment-date'], '--at', { fold: (v) => v.trim().toLowerCase() });
  return a === 'now' || a === 'immediately' ? 'IMMEDIATELY' : 'NEXT_PAYMENT_DATE';
}

/** The shared transition verb of one order action. */
export function orderTransition(verb: Verb) {
  const spec = SPECS[verb];
  return transitionVerb<Row>({
    ...spec,
    view: ORDER_VIEW,
    command: `orders ${verb}`,
    revisioned: false,
    flags: (cmd) => {
      spec.flags?.(cmd);
      addCriteriaFlags(cmd);
    },
    hasCriteria: (o) => hasCriteria(o as CriteriaFlags),
    criteria: (o, ctx) => criteriaFilter(o as CriteriaFlags, ctx),
    options: (o) => spec.options?.(o) ?? {},
    fetch: (api, id, signal) => fetchOrder(api, id, signal),
    ...(verb === 'postpone'
      ? {
          // The target date is known only from the options: an order already ending then is left alone.
          blocked: (o: Row) => (o.status !== 'PENDING' && o.status !== 'ACTIVE' && o.status !== 'PAUSED' ? `it is ${o.status}` : !o.endDate ? 'it has no end date (it renews until canceled, or never ends)' : undefined),
        }
      : {}),
    send: (api, o) => orderSender(api, spec.action, o),
    chunkSize: EACH_CHUNK,
  });
}

/** The single-key actions of orders in the interactive browser and the dashboard (k9s-style letters). */
export function orderKeys(): KeyedVerb[] {
  return [
    { key: 'p', label: 'Pause', spec: orderTransition('pause').spec },
    { key: 'u', label: 'Resume', spec: orderTransition('resume').spec },
    { key: 'm', label: 'Mark paid', spec: orderTransition('mark-paid').spec },
  ];
}
