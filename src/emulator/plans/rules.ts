/**
 * The rules of plans (docs/wire.md §13, docs/plans-orders.md "Plans"; the platform's documented behaviour where the spec says
 * "not shown"; choices recorded in docs/plans-orders.md):
 *
 * - create: a name and exactly one pricing model; a free trial only for a subscription; the slug comes from
 *   the name (made unique with -2, -3, ...); public, not primary, not archived, buyers may cancel by default.
 * - update: the fields of the field mask when one is given, else the fields sent (the official client sends
 *   no mask); id, slug, archived, primary and hasOrders are the platform's. An archived plan is not changed
 *   (428 PLAN_ARCHIVED).
 * - visibility: a hidden plan is no longer primary (the site highlights only what it shows).
 * - primary: at most one plan; not an archived one (428 ARCHIVED_PLAN_CANNOT_BE_PRIMARY), not a hidden one
 *   (428 HIDDEN_PLAN_CANNOT_BE_PRIMARY); making a plan primary clears the previous one.
 * - archive: final; the plan stops being primary and can no longer be bought (checkout: 428 PLAN_ARCHIVED);
 *   its orders go on (428 PLAN_ALREADY_ARCHIVED on a second archive).
 *
 * Events: plan.created, plan.updated, plan.archived, plan.buyer_can_cancel_updated (docs/plans-orders.md "Plans").
 */
import type { PlanCreate, PlanPatch } from '../../api/schemas/plan.js';
import { isCurrency } from '../../api/currencies.js';
import { ApplicationFailure, ValidationFailure, type FieldViolation } from '../errors.js';
import type { PlanBook, PlanDoc, PlanPricingDoc } from './model.js';

const precondition = (code: string, description: string, data: Record<string, unknown> = {}) => new ApplicationFailure(428, code, description, data);

/** Fields of a plan an update may set (the rest are the platform's). */
const SETTABLE = ['name', 'description', 'perks', 'pricing', 'public', 'maxPurchasesPerBuyer', 'allowFutureStartDate', 'buyerCanCancel', 'termsAndConditions', 'formId'] as const;
type Settable = (typeof SETTABLE)[number];

/**
 * The pricing violations of a plan's pricing: not exactly one model, or a free trial on a single payment.
 * @returns the violations (empty when valid), fields under `prefix`
 */
export function pricingViolations(pricing: PlanPricingDoc, prefix: string): FieldViolation[] {
  const models = [pricing.subscription ? 'subscription' : undefined, pricing.singlePaymentForDuration ? 'singlePaymentForDuration' : undefined, pricing.singlePaymentUnlimited ? 'singlePaymentUnlimited' : undefined].filter(Boolean);
  const out: FieldViolation[] = [];
  if (!isCurrency(pricing.price.currency)) {
    out.push({ field: `${prefix}.price.currency`, description: `must be an ISO 4217 currency code, got '${pricing.price.currency}'`, violatedRule: 'FORMAT' });
  }
  if (models.length !== 1) {
    out.push({ field: prefix, description: `give exactly one of subscription, singlePaymentForDuration or singlePaymentUnlimited (got ${models.length ? models.join(', ') : 'none'})`, violatedRule: 'INVALID' });
  }
  if (pricing.freeTrialDays && !pricing.subscription) {
    out.push({ field: `${prefix}.freeTrialDays`, description: 'a free trial is only for a subscription', violatedRule: 'INVALID' });
  }
  return out;
}

/** The plan's slug from its name: lower case, `[a-z0-9-]`, unique on the site. */
function slugFor(book: PlanBook, name: string, own?: string): string {
  const base = name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'plan';
  for (let n = 1; ; n++) {
    const slug = n === 1 ? base : `${base}-${n}`;
    const owner = book.plans.owner('slug', slug);
    if (owner === undefined || owner === own) return slug;
  }
}

/** The pricing as stored: only the chosen model, counts as numbers, a trial only when given. */
function pricingDoc(p: NonNullable<PlanCreate['pricing']>): PlanPricingDoc {
  return {
    ...(p.subscription ? { subscription: { cycleDuration: { count: p.subscription.cycleDuration.count, unit: p.subscription.cycleDuration.unit }, cycleCount: p.subscription.cycleCount ?? 0 } } : {}),
    ...(p.singlePaymentForDuration ? { singlePaymentForDuration: { count: p.singlePaymentForDuration.count, unit: p.singlePaymentForDuration.unit } } : {}),
    ...(p.singlePaymentUnlimited ? { singlePaymentUnlimited: true } : {}),
    price: { value: p.price.value, currency: p.price.currency },
    ...(p.freeTrialDays ? { freeTrialDays: p.freeTrialDays } : {}),
  };
}

/**
 * A new plan from a validated create request.
 * @throws ValidationFailure for a pricing that is not exactly one model, or a trial on a single payment
 */
export function buildPlan(book: PlanBook, input: PlanCreate, id = book.newId()): PlanDoc {
  const pricing = pricingDoc(input.pricing);
  const violations = pricingViolations(pricing, 'plan.pricing');
  if (violations.length) throw new ValidationFailure(violations);
  return {
    id,
    name: input.name,
    ...(input.description != null ? { description: input.description } : {}),
    perks: { values: input.perks?.values ?? [] },
    pricing,
    public: input.public ?? true,
    archived: false,
    primary: false,
    hasOrders: false,
    slug: slugFor(book, input.name),
    maxPurchasesPerBuyer: input.maxPurchasesPerBuyer ?? 0,
    allowFutureStartDate: input.allowFutureStartDate ?? false,
    buyerCanCancel: input.buyerCanCancel ?? true,
    ...(input.termsAndConditions != null ? { termsAndConditions: input.termsAndConditions } : {}),
    ...(input.formId != null ? { formId: input.formId } : {}),
    createdDate: book.now,
    updatedDate: book.now,
  };
}

/**
 * Stores a new plan (`plan.created`).
 * @throws as {@link buildPlan}
 */
export function createPlan(book: PlanBook, input: PlanCreate): PlanDoc {
  return book.plans.insert(buildPlan(book, input));
}

/** The fields a mask names (top-level; `pricing.price` names `pricing`). @throws ValidationFailure for a field that cannot be set */
function maskedFields(mask: string | undefined, sent: PlanPatch): Settable[] {
  if (mask === undefined) return SETTABLE.filter((k) => Object.hasOwn(sent, k));
  const paths = mask.split(',').map((p) => p.trim()).filter(Boolean);
  const out = new Set<Settable>();
  for (const path of paths) {
    const top = path.split('.')[0]!;
    if (!(SETTABLE as readonly string[]).includes(top)) {
      throw ValidationFailure.field('fieldMask', `${top} cannot be changed (settable: ${SETTABLE.join(', ')})`, 'INVALID');
    }
    out.add(top as Settable);
  }
  return [...out];
}

function writeAt(book: PlanBook, next: PlanDoc, event?: string): PlanDoc {
  return book.plans.update({ ...next, updatedDate: book.now }, event ? { event } : {});
}

/**
 * Changes the fields of `sent` named by `mask` (all of the settable ones sent when there is no mask). A field
 * the mask names but the request leaves out is cleared when it may be (description, terms, form), else kept.
 * @returns the plan as stored
 * @throws ApplicationFailure 404 PLAN_NOT_FOUND, 428 PLAN_ARCHIVED; ValidationFailure for an unsettable field
 *   or an invalid pricing
 */
export function updatePlan(book: PlanBook, sent: PlanPatch, mask: string | undefined): PlanDoc {
  const current = book.plans.require(sent.id);
  if (current.archived) throw precondition('PLAN_ARCHIVED', `plan ${current.id} is archived and cannot be changed`, { id: current.id });
  const fields = maskedFields(mask, sent);
  const next: PlanDoc = { ...current };
  const given = sent as Record<string, unknown>;
  for (const key of fields) {
    const value = given[key];
    if (key === 'pricing') {
      if (value === undefined) continue;
      next.pricing = pricingDoc(value as NonNullable<PlanCreate['pricing']>);
      const violations = pricingViolations(next.pricing, 'plan.pricing');
      if (violations.length) throw new ValidationFailure(violations);
    } else if (key === 'perks') {
      next.perks = { values: (value as PlanDoc['perks'] | undefined)?.values ?? [] };
    } else if (value === undefined || value === null) {
      if (key === 'description' || key === 'termsAndConditions' || key === 'formId') delete (next as unknown as Record<string, unknown>)[key];
      else if (value === null) throw ValidationFailure.field(`plan.${key}`, 'cannot be cleared', 'INVALID');
    } else {
      (next as unknown as Record<string, unknown>)[key] = value;
    }
  }
  if (next.public === false && next.primary) next.primary = false;
  const stored = writeAt(book, next);
  if (current.buyerCanCancel !== stored.buyerCanCancel) book.event('plan.buyer_can_cancel_updated', stored.id, book.plans.json(stored));
  return stored;
}

/**
 * Shows (`visible`) or hides a plan; a hidden plan stops being primary. Nothing is written when it already is so.
 * @throws ApplicationFailure 404 PLAN_NOT_FOUND, 428 PLAN_ARCHIVED
 */
export function setVisibility(book: PlanBook, id: string, visible: boolean): PlanDoc {
  const current = book.plans.require(id);
  if (current.public === visible) return current;
  if (current.archived) throw precondition('PLAN_ARCHIVED', `plan ${id} is archived; its visibility cannot change`, { id });
  return writeAt(book, { ...current, public: visible, primary: visible ? current.primary : false });
}

/**
 * Makes a plan the primary one (the previous primary plan is cleared).
 * @throws ApplicationFailure 404 PLAN_NOT_FOUND, 428 ARCHIVED_PLAN_CANNOT_BE_PRIMARY, 428 HIDDEN_PLAN_CANNOT_BE_PRIMARY
 */
export function makePrimary(book: PlanBook, id: string): PlanDoc {
  const current = book.plans.require(id);
  if (current.archived) throw precondition('ARCHIVED_PLAN_CANNOT_BE_PRIMARY', `plan ${id} is archived and cannot be primary`, { id });
  if (!current.public) throw precondition('HIDDEN_PLAN_CANNOT_BE_PRIMARY', `plan ${id} is hidden and cannot be primary; show it first`, { id });
  if (current.primary) return current;
  clearPrimary(book);
  return writeAt(book, { ...current, primary: true });
}

/** No plan is primary any more (the one that was is written; nothing when none was). */
export function clearPrimary(book: PlanBook): void {
  for (const p of [...book.plans.all()]) if (p.primary) writeAt(book, { ...p, primary: false });
}

/**
 * Archives a plan (`plan.archived`): it can no longer be bought, changed or made primary.
 * @throws ApplicationFailure 404 PLAN_NOT_FOUND, 428 PLAN_ALREADY_ARCHIVED
 */
export function archivePlan(book: PlanBook, id: string): PlanDoc {
  const current = book.plans.require(id);
  if (current.archived) throw precondition('PLAN_ALREADY_ARCHIVED', `plan ${id} is archived already`, { id });
  return writeAt(book, { ...current, archived: true, primary: false }, 'plan.archived');
}

/** A plan that can be bought now. @throws ApplicationFailure 404 PLAN_NOT_FOUND, 428 PLAN_ARCHIVED */
export function purchasablePlan(book: PlanBook, id: string): PlanDoc {
  const plan = book.plans.require(id);
  if (plan.archived) throw precondition('PLAN_ARCHIVED', `plan ${id} (${plan.name}) is archived and cannot be bought`, { planId: id });
  return plan;
}
