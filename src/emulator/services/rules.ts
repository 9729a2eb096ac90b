/**
 * Business rules of services that a schema cannot say (docs/wire.md §13, §14, §5,
 * 8, 9): references to the site's locations, staff, categories, policies and forms; cross-field rules; defaults;
 * slugs; field masks; locations; pricing plans; clones. The shape of a request (types, enumerations, lengths) is
 * checked by the services table's request schemas before a handler runs (serve.ts).
 */
import { serviceInputs } from '../../api/schemas/service.js';
import { getPath, setPathCopying } from '../../api/paths.js';
import { isCurrency } from '../../api/currencies.js';
import { ApplicationFailure, ValidationFailure, type FieldViolation } from '../errors.js';
import { changedFieldViolations } from '../serve.js';
import type { Address, Catalog, ServiceDoc, ServiceLocation } from './model.js';

/** Base of the service page urls the emulated site reports. */
export const SITE_URL = 'https://demo-studio.example.com';

/** Fields a caller cannot set: the platform owns them. */
const READ_ONLY = new Set(['id', 'revision', 'createdDate', 'updatedDate', 'mainSlug', 'supportedSlugs', 'urls', 'addOnDetails']);

const SLUG_CHARS = /^[a-z0-9-]+$/;
const CURRENCY_SYMBOLS: Record<string, string> = { USD: '$', EUR: '€', GBP: '£', ILS: '₪', CAD: 'CA$', AUD: 'A$' };

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function clone<T>(v: T): T {
  return typeof v !== 'object' || v === null ? v : (structuredClone(v) as T);
}

/** `"Hot Yoga: Beginners!"` -> `"hot-yoga-beginners"`; never empty. */
export function slugify(name: string): string {
  const s = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/g, '');
  return s || 'service';
}

/** A slug derived from `name` that no other service owns (`yoga`, `yoga-2`, `yoga-3`, ...). */
export function uniqueSlug(cat: Catalog, name: string, serviceId: string): string {
  const base = slugify(name);
  let candidate = base;
  for (let n = 2; ; n++) {
    const owner = cat.services.owner('slug', candidate);
    if (owner === undefined || owner === serviceId) return candidate;
    candidate = `${base}-${n}`;
  }
}

function urlsFor(slug: string) {
  const page = (relativePath: string) => ({ relativePath, url: SITE_URL + relativePath });
  return {
    servicePage: page(`/service-page/${slug}`),
    bookingPage: page(`/booking-calendar/${slug}`),
    calendarPage: page(`/booking-calendar/${slug}?bookings_sessionId=`),
  };
}

/** Makes `name` the main slug of `doc` (kept in supportedSlugs, which the collection keeps unique). */
function setMainSlug(doc: ServiceDoc, name: string, now: string, custom: boolean): void {
  const existing = doc.supportedSlugs?.find((s) => s.name === name);
  const slug = existing ?? { name, ...(custom ? { custom: true } : {}), createdDate: now };
  doc.mainSlug = slug;
  doc.supportedSlugs = [...(doc.supportedSlugs ?? []).filter((s) => s.name !== name), slug];
  doc.urls = urlsFor(name);
}

/** `$50`, `€12.50`: the platform's formattedValue for a money value. */
export function formatMoney(value: string, currency: string): string {
  const n = Number(value);
  const amount = Number.isInteger(n) ? String(n) : n.toFixed(2);
  const symbol = CURRENCY_SYMBOLS[currency];
  return symbol ? `${symbol}${amount}` : `${amount} ${currency}`;
}

/**
 * The rules of a whole service a schema cannot say: classes and courses need a capacity, a FIXED rate needs a
 * price, and every reference names an entity of the site.
 */
/** True when `value` holds some non-blank text (an address: any of its parts). */
function hasText(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.trim() !== '';
  if (value === null || typeof value !== 'object' || depth > 4) return false;
  return Object.values(value).some((v) => hasText(v, depth + 1));
}

/** A violation for every `currency` of a payment (`fixed.price.currency`, ...) that is not ISO 4217. */
function currencyViolations(node: unknown, at: string, add: (field: string, description: string, rule?: string) => void, depth = 0): void {
  if (node === null || typeof node !== 'object' || depth > 6) return;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'currency' && value !== undefined && value !== null) {
      if (typeof value !== 'string' || !isCurrency(value)) add(`${at}.currency`, `must be an ISO 4217 currency code, got ${JSON.stringify(value)}`, 'FORMAT');
    } else currencyViolations(value, `${at}.${key}`, add, depth + 1);
  }
}

function ruleViolations(cat: Catalog, doc: Json, prefix: string): FieldViolation[] {
  const out: FieldViolation[] = [];
  const add = (field: string, description: string, violatedRule = 'INVALID') => out.push({ field: `${prefix}.${field}`, description, violatedRule });
  if (doc.defaultCapacity === undefined && (doc.type === 'CLASS' || doc.type === 'COURSE')) {
    add('defaultCapacity', 'is required for classes and courses (at least 1)', 'REQUIRED_FIELD');
  }
  const payment = doc.payment as Json | undefined;
  if (payment?.rateType === 'FIXED' && getPath(payment, 'fixed.price.value') === undefined) {
    add('payment.fixed.price', 'a FIXED rate needs a price', 'REQUIRED_FIELD');
  }
  if (payment) currencyViolations(payment, 'payment', add);
  if (Array.isArray(doc.locations)) {
    doc.locations.forEach((loc: Json, i) => {
      const id = getPath(loc, 'business.id');
      if (loc.type === 'BUSINESS' && (typeof id !== 'string' || !cat.locations.get(id))) {
        add(`locations[${i}].business.id`, 'must be the id of a business location', 'INVALID');
      }
      // A custom location is an address: one with no text in it (`--custom-address ''`) is refused.
      if (loc.type === 'CUSTOM' && !hasText(getPath(loc, 'custom.address') ?? loc.calculatedAddress)) {
        add(`locations[${i}].custom.address`, 'must not be empty: a custom location needs an address', 'REQUIRED_FIELD');
      }
    });
  }
  const refs: Array<[string, { get(id: string): unknown }, string]> = [
    ['category', cat.categories, 'a category'],
    ['bookingPolicy', cat.policies, 'a booking policy'],
    ['form', cat.forms, 'a booking form'],
  ];
  for (const [field, collection, what] of refs) {
    const id = getPath(doc, `${field}.id`);
    if (doc[field] !== undefined && (typeof id !== 'string' || !collection.get(id))) add(`${field}.id`, `must be the id of ${what}`);
  }
  if (Array.isArray(doc.staffMemberIds)) {
    doc.staffMemberIds.forEach((id: unknown, i) => {
      if (typeof id !== 'string' || !cat.staff.get(id)) add(`staffMemberIds[${i}]`, 'must be the id of a staff member');
    });
  }
  return out;
}

/**
 * Fills the parts the platform derives from references: names and addresses of locations, the embedded
 * policy, the category's name, the formatted price. `previous` is the stored document `doc` was derived from:
 * parts `doc` still shares with it by reference are already normalised and are skipped (a bulk update of
 * 10,000 services does not rebuild them).
 */
function normalize(cat: Catalog, doc: ServiceDoc, previous?: ServiceDoc): void {
  if (doc.locations && doc.locations !== previous?.locations) doc.locations = doc.locations.map((l) => normalizeLocation(cat, l));
  const category = doc.category as Json | undefined;
  if (category?.id && category !== previous?.category) {
    const c = cat.categories.get(category.id as string);
    if (c) doc.category = { id: c.id, name: c.name, sortOrder: c.sortOrder };
  }
  const policy = doc.bookingPolicy as Json | undefined;
  if (policy?.id && policy !== previous?.bookingPolicy) {
    const p = cat.policies.get(policy.id as string);
    if (p) doc.bookingPolicy = clone(p);
  }
  if (doc.payment && doc.payment !== previous?.payment) {
    const payment = { ...doc.payment };
    const price = payment.fixed?.price;
    if (payment.rateType === 'FIXED' && price) {
      payment.fixed = { ...payment.fixed, price: { ...price, formattedValue: formatMoney(price.value, price.currency) } };
    }
    const ids = payment.pricingPlanIds ?? [];
    payment.pricingPlanIds = ids;
    payment.options = { ...(payment.options ?? {}), pricingPlan: ids.length > 0 };
    doc.payment = payment;
  }
}

function normalizeLocation(cat: Catalog, l: ServiceLocation): ServiceLocation {
  if (l.type === 'BUSINESS' && l.business?.id) {
    const b = cat.locations.get(l.business.id);
    if (b) {
      return { id: b.id, type: 'BUSINESS', business: { id: b.id, name: b.name, default: b.default, address: clone(b.address) }, calculatedAddress: clone(b.address) };
    }
  }
  if (l.type === 'CUSTOM') {
    const address: Address | undefined = l.custom?.address ?? l.calculatedAddress;
    return { id: l.id ?? l.custom?.id ?? crypto.randomUUID(), type: 'CUSTOM', custom: { id: l.custom?.id ?? l.id, address }, ...(address ? { calculatedAddress: address } : {}) };
  }
  return { ...l };
}

function defaultId(all: Iterable<{ id: string; default?: boolean }>): string | undefined {
  let first: string | undefined;
  for (const e of all) {
    if (e.default) return e.id;
    first ??= e.id;
  }
  return first;
}

/**
 * Builds a new service from a validated create request's `service` (read-only fields are ignored): id, a unique
 * slug from the name, schedule id, urls and defaults. Revision and dates are set when it is stored.
 * @param prefix field prefix for violations: `service` or `services[i]`.
 * @throws ValidationFailure listing every violation of the rules a schema cannot say
 */
export function buildService(cat: Catalog, input: Json, prefix = 'service'): ServiceDoc {
  const doc: Json = {};
  for (const [k, v] of Object.entries(clone(input))) if (!READ_ONLY.has(k)) doc[k] = v;
  if (doc.type === 'APPOINTMENT' && doc.defaultCapacity === undefined) doc.defaultCapacity = 1;
  const violations = ruleViolations(cat, doc, prefix);
  if (violations.length) throw new ValidationFailure(violations);
  const id = cat.newId();
  const policyId = defaultId(cat.policies.all());
  const formId = defaultId(cat.forms.all());
  const service = {
    id,
    type: doc.type,
    name: doc.name,
    description: '',
    hidden: false,
    media: { items: [] },
    onlineBooking: { enabled: true, requireManualApproval: false, allowMultipleRequests: false },
    payment: { rateType: 'NO_FEE', options: { online: false, inPerson: true, deposit: false, pricingPlan: false }, pricingPlanIds: [] },
    locations: [],
    staffMemberIds: [],
    ...(policyId ? { bookingPolicy: { id: policyId } } : {}),
    ...(formId ? { form: { id: formId } } : {}),
    ...doc,
    schedule: {
      id: cat.newId(),
      availabilityConstraints: { durations: [{ minutes: 60 }], sessionDurations: [60], timeBetweenSessions: 0 },
      ...(isObject(doc.schedule) ? doc.schedule : {}),
    },
  } as unknown as ServiceDoc;
  normalize(cat, service);
  setMainSlug(service, uniqueSlug(cat, service.name, id), cat.now, false);
  return service;
}

/**
 * Applies an update to a stored service and returns the new document (the stored one is not changed; the
 * collection checks the revision and bumps it). With a field mask only the masked paths change (a masked path
 * absent from the patch is cleared); without one the given fields are merged; read-only fields are ignored; the
 * type cannot change; the result must still be a valid service; a new name gives a new main slug.
 * @param prefix field prefix for violations: `service` or `services[i].service`.
 * @throws ValidationFailure (400), ApplicationFailure SERVICE_NOT_FOUND (404)
 */
export function updateService(cat: Catalog, patch: Json, mask: string[] | undefined, prefix = 'service'): ServiceDoc {
  const current = cat.services.require(patch.id);
  // Structural sharing instead of a deep copy: every change copies the objects on its path.
  const next = { ...current } as Json;
  if (mask) {
    for (const path of mask) {
      if (READ_ONLY.has(path.split('.')[0]!)) continue;
      setPathCopying(next, path, clone(getPath(patch, path)));
    }
  } else {
    merge(next, patch);
  }
  if (next.type !== current.type) throw ValidationFailure.field(`${prefix}.type`, 'the type of a service cannot be changed', 'IMMUTABLE');
  // The changed fields against the create schema (the request schema saw only the patch), then the rules.
  const violations = [...changedFieldViolations(serviceInputs().ServiceCreate, next, current as Json, prefix), ...ruleViolations(cat, next, prefix)];
  if (violations.length) throw new ValidationFailure(violations);
  const doc = next as ServiceDoc;
  normalize(cat, doc, current);
  if (doc.name !== current.name) setMainSlug(doc, uniqueSlug(cat, doc.name, doc.id), cat.now, false);
  return doc;
}

/** Proto merge: objects merge key by key, arrays and scalars replace; read-only top-level keys are skipped. */
function merge(target: Json, patch: Json, top = true): void {
  for (const [k, v] of Object.entries(patch)) {
    if (top && READ_ONLY.has(k)) continue;
    const t = target[k];
    if (isObject(v) && isObject(t)) {
      const copy = { ...t };
      merge(copy, v, false);
      target[k] = copy;
    } else target[k] = clone(v);
  }
}

/** Splits a field mask, the comma-joined string of the wire (docs/wire.md §5); empty means none. */
export function parseMask(mask: string | undefined): string[] | undefined {
  if (mask === undefined) return undefined;
  const paths = mask.split(',').map((p) => p.trim()).filter(Boolean);
  return paths.length ? paths : undefined;
}

/** Slug errors for `slug` on `serviceId` (empty when valid): illegal characters, or owned by another service. */
export function slugErrors(cat: Catalog, slug: string, serviceId: string | undefined): Array<'SLUG_CONTAINS_ILLEGAL_CHARACTERS' | 'SLUG_ALREADY_EXISTS'> {
  if (!SLUG_CHARS.test(slug)) return ['SLUG_CONTAINS_ILLEGAL_CHARACTERS'];
  const owner = cat.services.owner('slug', slug);
  return owner !== undefined && owner !== serviceId ? ['SLUG_ALREADY_EXISTS'] : [];
}

/**
 * Sets a custom main slug (docs/wire.md §14).
 * @throws ApplicationFailure 400 SLUG_CONTAINS_ILLEGAL_CHARACTERS (only a-z, 0-9 and '-') or 409 SLUG_ALREADY_EXISTS
 */
export function setCustomSlug(cat: Catalog, service: ServiceDoc, slug: string): ServiceDoc {
  const [error] = slugErrors(cat, slug, service.id);
  if (error === 'SLUG_CONTAINS_ILLEGAL_CHARACTERS') {
    throw new ApplicationFailure(400, error, `slug "${slug}" may contain only lower-case letters, digits and '-'`, { slug });
  }
  if (error === 'SLUG_ALREADY_EXISTS') {
    throw new ApplicationFailure(409, error, `slug "${slug}" is already used by another service`, { slug });
  }
  const doc = clone(service);
  setMainSlug(doc, slug, cat.now, true);
  return doc;
}

/** A copy of `source` under a new id, name "<name> (copy)" and a new unique slug. */
export function cloneService(cat: Catalog, source: ServiceDoc): ServiceDoc {
  const doc = clone(source);
  doc.id = cat.newId();
  doc.name = `${source.name} (copy)`.slice(0, 400);
  delete (doc as Partial<ServiceDoc>).revision;
  delete (doc as Partial<ServiceDoc>).createdDate;
  delete (doc as Partial<ServiceDoc>).updatedDate;
  doc.supportedSlugs = [];
  delete doc.mainSlug;
  doc.schedule = { ...((source.schedule as Json | undefined) ?? {}), id: cat.newId() };
  // An add-on group belongs to one service (docs/wire.md "Add-on groups and add-ons"): the copy's are its own.
  if (doc.addOnGroups) doc.addOnGroups = doc.addOnGroups.map((g) => ({ ...g, id: cat.newId() }));
  setMainSlug(doc, uniqueSlug(cat, doc.name, doc.id), cat.now, false);
  return doc;
}

/**
 * Replaces a service's locations (docs/wire.md §14 "{serviceId}/locations"). MOVE_TO_LOCATION needs
 * `moveToLocationOptions.newLocation`; business locations must exist. Returns the new document and the
 * removed locations.
 * @throws ValidationFailure on bad locations or action
 */
export function replaceLocations(
  cat: Catalog,
  service: ServiceDoc,
  locations: ServiceLocation[],
  action: { action: string; moveToLocationOptions?: { newLocation?: unknown } } | undefined,
): { doc: ServiceDoc; removed: ServiceLocation[] } {
  if (action?.action === 'MOVE_TO_LOCATION' && !isObject(action.moveToLocationOptions?.newLocation)) {
    throw ValidationFailure.field('removedLocationSessionsAction.moveToLocationOptions', 'MOVE_TO_LOCATION needs moveToLocationOptions.newLocation', 'REQUIRED_FIELD');
  }
  const violations = ruleViolations(cat, { locations }, 'service').map((v) => ({ ...v, field: v.field.replace(/^service\./, '') }));
  if (violations.length) throw new ValidationFailure(violations);
  const doc = clone(service);
  doc.locations = locations.map((l) => normalizeLocation(cat, l));
  const key = (l: ServiceLocation) => (l.type === 'BUSINESS' ? `B:${l.business?.id}` : `${l.type}:${l.id ?? l.calculatedAddress?.formatted ?? ''}`);
  const kept = new Set(doc.locations.map(key));
  const removed = (service.locations ?? []).filter((l) => !kept.has(key(l)));
  return { doc, removed };
}

/**
 * Adds or removes pricing plan ids (set semantics) and keeps `payment.options.pricingPlan` in step.
 * @returns the new document, or undefined when nothing changes (a plan already linked, or never linked)
 */
export function changePricingPlans(service: ServiceDoc, ids: readonly string[], op: 'add' | 'remove'): ServiceDoc | undefined {
  const before = new Set(service.payment?.pricingPlanIds ?? []);
  const after = new Set(before);
  for (const id of ids) {
    if (op === 'add') after.add(id);
    else after.delete(id);
  }
  if (after.size === before.size && [...after].every((id) => before.has(id))) return undefined;
  const doc = clone(service);
  const payment = (doc.payment ??= { rateType: 'NO_FEE' });
  payment.pricingPlanIds = [...after];
  payment.options = { ...(payment.options ?? {}), pricingPlan: after.size > 0 };
  return doc;
}
