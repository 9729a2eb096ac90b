/**
 * Business rules for services (spec 000 sections 3, 5, 7; platform-wire.md sections 5, 8, 9): validation,
 * defaults, revisions, field masks, slugs and locations. Every function here works on documents and the store;
 * the HTTP layer lives in routes/services.ts.
 */
import { randomUUID } from 'node:crypto';
import {
  ApplicationFailure,
  ValidationFailure,
  revisionMismatch,
  serviceNotFound,
  type FieldViolation,
} from './errors.js';
import {
  LOCATION_TYPES,
  RATE_TYPES,
  REMOVED_LOCATION_SESSION_ACTIONS,
  SERVICE_TYPES,
  type Address,
  type ServiceDoc,
  type ServiceLocation,
} from './model.js';
import type { Store } from './store.js';

/** Base of the service page urls the emulated site reports. */
export const SITE_URL = 'https://demo-studio.example.com';

/** Fields a caller cannot set: the platform owns them. */
const READ_ONLY = new Set(['id', 'revision', 'createdDate', 'updatedDate', 'mainSlug', 'supportedSlugs', 'urls']);

const SLUG_CHARS = /^[a-z0-9-]+$/;
const MAX_NAME = 400;
const CURRENCY_SYMBOLS: Record<string, string> = { USD: '$', EUR: '€', GBP: '£', ILS: '₪', CAD: 'CA$', AUD: 'A$' };

export interface RuleContext {
  store: Store;
  /** ISO timestamp used for createdDate/updatedDate of this request. */
  now: string;
  newId?: () => string;
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function clone<T>(v: T): T {
  // Primitives are their own copy; undefined must stay undefined (JSON.parse would throw on it).
  if (typeof v !== 'object' || v === null) return v;
  return JSON.parse(JSON.stringify(v)) as T;
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
export function uniqueSlug(store: Store, name: string, serviceId: string): string {
  const base = slugify(name);
  let candidate = base;
  for (let n = 2; ; n++) {
    const owner = store.slugOwner(candidate);
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

/** Makes `name` the main slug of `doc` (recorded in supportedSlugs and claimed in the store). */
function setMainSlug(store: Store, doc: ServiceDoc, name: string, now: string, custom: boolean): void {
  const existing = doc.supportedSlugs?.find((s) => s.name === name);
  const slug = existing ?? { name, ...(custom ? { custom: true } : {}), createdDate: now };
  doc.mainSlug = slug;
  doc.supportedSlugs = [...(doc.supportedSlugs ?? []).filter((s) => s.name !== name), slug];
  doc.urls = urlsFor(name);
  store.claimSlug(name, doc.id, slug.createdDate);
}

/** `$50`, `€12.50`: the platform's formattedValue for a money value. */
export function formatMoney(value: string, currency: string): string {
  const n = Number(value);
  const amount = Number.isInteger(n) ? String(n) : n.toFixed(2);
  const symbol = CURRENCY_SYMBOLS[currency];
  return symbol ? `${symbol}${amount}` : `${amount} ${currency}`;
}

/** Validates a whole service document (after defaults or a patch) and returns every violation found. */
function violationsOf(store: Store, doc: Json, prefix: string): FieldViolation[] {
  const out: FieldViolation[] = [];
  const add = (field: string, description: string, violatedRule = 'INVALID') =>
    out.push({ field: `${prefix}.${field}`, description, violatedRule });
  if (typeof doc.name !== 'string' || doc.name.trim() === '') add('name', 'name is required', 'REQUIRED_FIELD');
  else if (doc.name.length > MAX_NAME) add('name', `must be at most ${MAX_NAME} characters`, 'MAX_LENGTH');
  if (doc.type === undefined) add('type', 'type is required', 'REQUIRED_FIELD');
  else if (!SERVICE_TYPES.includes(doc.type as never)) add('type', `must be one of ${SERVICE_TYPES.join(', ')}`, 'INVALID_ENUM_VALUE');
  if (doc.description !== undefined && typeof doc.description !== 'string') add('description', 'must be a string');
  if (doc.hidden !== undefined && typeof doc.hidden !== 'boolean') add('hidden', 'must be true or false');
  const cap = doc.defaultCapacity;
  if (cap !== undefined && (typeof cap !== 'number' || !Number.isInteger(cap) || cap < 1 || cap > 1000)) {
    add('defaultCapacity', 'must be an integer between 1 and 1000', 'MIN');
  } else if (cap === undefined && (doc.type === 'CLASS' || doc.type === 'COURSE')) {
    add('defaultCapacity', 'is required for classes and courses (at least 1)', 'REQUIRED_FIELD');
  }
  const payment = doc.payment;
  if (payment !== undefined) {
    if (!isObject(payment)) add('payment', 'must be an object');
    else {
      if (!RATE_TYPES.includes(payment.rateType as never)) {
        add('payment.rateType', `must be one of ${RATE_TYPES.join(', ')}`, payment.rateType === undefined ? 'REQUIRED_FIELD' : 'INVALID_ENUM_VALUE');
      }
      if (payment.rateType === 'FIXED') {
        const price = (payment.fixed as Json | undefined)?.price as Json | undefined;
        if (!isObject(price) || typeof price.value !== 'string' || !/^\d+(\.\d{1,2})?$/.test(price.value)) {
          add('payment.fixed.price.value', 'a FIXED rate needs a non-negative decimal string price', 'REQUIRED_FIELD');
        }
        if (isObject(price) && (typeof price.currency !== 'string' || !/^[A-Z]{3}$/.test(price.currency))) {
          add('payment.fixed.price.currency', 'must be an ISO 4217 code such as USD', 'INVALID');
        }
      }
      if (payment.pricingPlanIds !== undefined && (!Array.isArray(payment.pricingPlanIds) || payment.pricingPlanIds.some((p) => typeof p !== 'string'))) {
        add('payment.pricingPlanIds', 'must be an array of ids');
      }
    }
  }
  if (doc.locations !== undefined) {
    if (!Array.isArray(doc.locations)) add('locations', 'must be an array');
    else
      doc.locations.forEach((l: unknown, i) => {
        const loc = l as Json;
        if (!isObject(loc) || !LOCATION_TYPES.includes(loc.type as never)) {
          add(`locations[${i}].type`, `must be one of ${LOCATION_TYPES.join(', ')}`, 'INVALID_ENUM_VALUE');
        } else if (loc.type === 'BUSINESS') {
          const id = (loc.business as Json | undefined)?.id;
          if (typeof id !== 'string' || !store.getEntity('businessLocations', id)) {
            add(`locations[${i}].business.id`, 'must be the id of a business location', 'INVALID');
          }
        }
      });
  }
  const categoryId = (doc.category as Json | undefined)?.id;
  if (doc.category !== undefined && (typeof categoryId !== 'string' || !store.getEntity('categories', categoryId))) {
    add('category.id', 'must be the id of a category', 'INVALID');
  }
  const policyId = (doc.bookingPolicy as Json | undefined)?.id;
  if (doc.bookingPolicy !== undefined && (typeof policyId !== 'string' || !store.getEntity('bookingPolicies', policyId))) {
    add('bookingPolicy.id', 'must be the id of a booking policy', 'INVALID');
  }
  const formId = (doc.form as Json | undefined)?.id;
  if (doc.form !== undefined && (typeof formId !== 'string' || !store.getEntity('bookingForms', formId))) {
    add('form.id', 'must be the id of a booking form', 'INVALID');
  }
  if (doc.staffMemberIds !== undefined) {
    if (!Array.isArray(doc.staffMemberIds)) add('staffMemberIds', 'must be an array of ids');
    else
      doc.staffMemberIds.forEach((id: unknown, i) => {
        if (typeof id !== 'string' || !store.getEntity('staffMembers', id)) {
          add(`staffMemberIds[${i}]`, 'must be the id of a staff member', 'INVALID');
        }
      });
  }
  return out;
}

/**
 * Fills the parts the platform derives from references: names/addresses, embedded policy, formatted price.
 * `previous` is the stored document `doc` was derived from: parts `doc` still shares with it by reference are
 * already normalised (every stored document went through here, and referenced entities only change on a
 * reset, which drops every service), so they are skipped rather than rebuilt for each item of a bulk update.
 */
function normalize(store: Store, doc: ServiceDoc, previous?: ServiceDoc): void {
  if (doc.locations && doc.locations !== previous?.locations) doc.locations = doc.locations.map((l) => normalizeLocation(store, l));
  const category = doc.category as Json | undefined;
  if (category?.id && category !== previous?.category) {
    const c = store.getEntity<Json>('categories', category.id as string);
    if (c) doc.category = { id: c.id, name: c.name, sortOrder: c.sortOrder };
  }
  const policy = doc.bookingPolicy as Json | undefined;
  if (policy?.id && policy !== previous?.bookingPolicy) {
    const p = store.getEntity<Json>('bookingPolicies', policy.id as string);
    // A copy: the store's entity objects are shared and stored documents must not alias them.
    if (p) doc.bookingPolicy = clone(p);
  }
  if (doc.payment && doc.payment !== previous?.payment) {
    // Copy on write: `doc` may share `payment` with the stored document it was derived from.
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

function normalizeLocation(store: Store, l: ServiceLocation): ServiceLocation {
  if (l.type === 'BUSINESS' && l.business?.id) {
    const b = store.getEntity<{ id: string; name: string; default: boolean; address: Address }>('businessLocations', l.business.id);
    if (b) {
      return { id: b.id, type: 'BUSINESS', business: { id: b.id, name: b.name, default: b.default, address: clone(b.address) }, calculatedAddress: clone(b.address) };
    }
  }
  if (l.type === 'CUSTOM') {
    const address = l.custom?.address ?? l.calculatedAddress;
    return { id: l.id ?? l.custom?.id ?? randomUUID(), type: 'CUSTOM', custom: { id: l.custom?.id ?? l.id, address }, ...(address ? { calculatedAddress: address } : {}) };
  }
  return { ...l };
}

function defaultEntityId(store: Store, kind: 'bookingPolicies' | 'bookingForms'): string | undefined {
  const all = store.listEntities<{ id: string; default?: boolean }>(kind);
  return (all.find((e) => e.default) ?? all[0])?.id;
}

/**
 * Builds and validates a new service from a create request's `service` (read-only fields are ignored).
 * Assigns id, revision "1", dates, a unique slug from the name, schedule id, urls and defaults.
 * @param prefix field prefix for violations: `service` or `services[i].service`.
 * @throws ValidationFailure listing every violation.
 */
export function buildService(rc: RuleContext, input: unknown, prefix = 'service'): ServiceDoc {
  if (!isObject(input)) throw ValidationFailure.field(prefix, 'service is required', 'REQUIRED_FIELD');
  const doc: Json = {};
  for (const [k, v] of Object.entries(clone(input))) if (!READ_ONLY.has(k)) doc[k] = v;
  if (doc.type === 'APPOINTMENT' && doc.defaultCapacity === undefined) doc.defaultCapacity = 1;
  const violations = violationsOf(rc.store, doc, prefix);
  if (violations.length) throw new ValidationFailure(violations);
  const id = rc.newId ? rc.newId() : randomUUID();
  const policyId = defaultEntityId(rc.store, 'bookingPolicies');
  const formId = defaultEntityId(rc.store, 'bookingForms');
  const service = {
    id,
    hidden: false,
    description: '',
    media: { items: [] },
    onlineBooking: { enabled: true, requireManualApproval: false, allowMultipleRequests: false },
    payment: { rateType: 'NO_FEE', options: { online: false, inPerson: true, deposit: false, pricingPlan: false }, pricingPlanIds: [] },
    locations: [],
    staffMemberIds: [],
    ...(policyId ? { bookingPolicy: { id: policyId } } : {}),
    ...(formId ? { form: { id: formId } } : {}),
    ...doc,
    schedule: {
      id: randomUUIDFrom(rc),
      availabilityConstraints: { durations: [{ minutes: 60 }], sessionDurations: [60], timeBetweenSessions: 0 },
      ...(isObject(doc.schedule) ? doc.schedule : {}),
    },
    revision: '1',
    createdDate: rc.now,
    updatedDate: rc.now,
  } as unknown as ServiceDoc;
  // Key order as the platform prints a service: identity first (spread keeps the position of existing keys).
  const ordered: ServiceDoc = Object.assign({ id, type: service.type, name: service.name, description: service.description }, service);
  normalize(rc.store, ordered);
  setMainSlug(rc.store, ordered, uniqueSlug(rc.store, ordered.name, id), rc.now, false);
  return ordered;
}

function randomUUIDFrom(rc: RuleContext): string {
  return rc.newId ? rc.newId() : randomUUID();
}

/** Parses a field mask: a comma-joined string (the wire form) or `{paths: [...]}`. Empty -> undefined. */
export function parseMask(mask: unknown, field: string): string[] | undefined {
  if (mask === undefined || mask === null || mask === '') return undefined;
  let paths: unknown[];
  if (typeof mask === 'string') paths = mask.split(',');
  else if (isObject(mask) && Array.isArray(mask.paths)) paths = mask.paths;
  else throw ValidationFailure.field(field, 'must be a comma-joined string of paths or {paths: [...]}');
  const clean = paths.map((p) => (typeof p === 'string' ? p.trim() : '')).filter(Boolean);
  if (clean.length !== paths.length) throw ValidationFailure.field(field, 'contains an empty or non-string path');
  return clean.length ? clean : undefined;
}

function getPath(obj: unknown, path: string[]): unknown {
  let v = obj;
  for (const k of path) {
    if (!isObject(v)) return undefined;
    v = v[k];
  }
  return v;
}

/** Sets (or with undefined deletes) a path, copying each object on the way so shared ones stay unchanged. */
function setPath(obj: Json, path: string[], value: unknown): void {
  let cur = obj;
  for (const k of path.slice(0, -1)) {
    const child = cur[k];
    cur[k] = isObject(child) ? { ...child } : {};
    cur = cur[k] as Json;
  }
  const last = path[path.length - 1];
  if (value === undefined) delete cur[last];
  else cur[last] = value;
}

/** Proto merge: objects merge key by key, arrays and scalars replace. Objects of `target` are copied, not changed. */
function merge(target: Json, patch: Json): void {
  for (const [k, v] of Object.entries(patch)) {
    const t = target[k];
    if (isObject(v) && isObject(t)) {
      const copy = { ...t };
      merge(copy, v);
      target[k] = copy;
    } else target[k] = clone(v);
  }
}

/**
 * Applies an update to a stored service and returns the new document (the stored one is not mutated).
 * Rules: `patch.revision` must equal the stored revision (else 409 REVISION_MISMATCH, nothing changes); with a
 * field mask only the masked paths change (a masked path absent from the patch is cleared); without one the
 * given fields are merged; read-only fields are ignored; type cannot change; a new name gives a new main slug;
 * revision + 1 and updatedDate = now.
 * @param prefix field prefix for violations: `service` or `services[i].service`.
 * @throws ValidationFailure (400), ApplicationFailure SERVICE_NOT_FOUND (404) or REVISION_MISMATCH (409).
 */
export function updateService(rc: RuleContext, patch: Json, mask: string[] | undefined, prefix = 'service', checkRevision = true): ServiceDoc {
  const id = patch.id as string;
  const current = rc.store.getService(id);
  if (!current) throw serviceNotFound(id);
  if (checkRevision && String(patch.revision) !== current.revision) throw revisionMismatch(id, String(patch.revision), current.revision);
  // Structural sharing instead of a deep clone: every change below copies the objects on its path, so
  // `current` (the stored, immutable document) is never modified.
  const next = { ...current } as Json;
  if (mask) {
    for (const path of mask) {
      const parts = path.split('.');
      if (READ_ONLY.has(parts[0])) continue;
      setPath(next, parts, clone(getPath(patch, parts)));
    }
  } else {
    const writable: Json = {};
    for (const [k, v] of Object.entries(patch)) if (!READ_ONLY.has(k)) writable[k] = v;
    merge(next, writable);
  }
  if (next.type !== current.type) throw ValidationFailure.field(`${prefix}.type`, 'the type of a service cannot be changed', 'IMMUTABLE');
  const violations = violationsOf(rc.store, next, prefix);
  if (violations.length) throw new ValidationFailure(violations);
  const doc = next as ServiceDoc;
  normalize(rc.store, doc, current);
  if (doc.name !== current.name) setMainSlug(rc.store, doc, uniqueSlug(rc.store, doc.name, id), rc.now, false);
  return bump(doc, rc.now);
}

/** revision + 1 and updatedDate = now. */
export function bump(doc: ServiceDoc, now: string): ServiceDoc {
  doc.revision = String(Number(doc.revision) + 1);
  doc.updatedDate = now;
  return doc;
}

/** The stored service or 404 SERVICE_NOT_FOUND. */
export function requireService(store: Store, id: unknown): ServiceDoc {
  const doc = typeof id === 'string' ? store.getService(id) : undefined;
  if (!doc) throw serviceNotFound(String(id));
  return doc;
}

/** Slug errors for `slug` on `serviceId` (empty when valid): illegal characters, or owned by another service. */
export function slugErrors(store: Store, slug: string, serviceId: string | undefined): Array<'SLUG_CONTAINS_ILLEGAL_CHARACTERS' | 'SLUG_ALREADY_EXISTS'> {
  if (!SLUG_CHARS.test(slug)) return ['SLUG_CONTAINS_ILLEGAL_CHARACTERS'];
  const owner = store.slugOwner(slug);
  return owner !== undefined && owner !== serviceId ? ['SLUG_ALREADY_EXISTS'] : [];
}

/**
 * Sets a custom main slug (spec 000 section 5). @throws ApplicationFailure 400
 * SLUG_CONTAINS_ILLEGAL_CHARACTERS (only a-z, 0-9 and '-') or 409 SLUG_ALREADY_EXISTS.
 */
export function setCustomSlug(rc: RuleContext, service: ServiceDoc, slug: string): ServiceDoc {
  const [error] = slugErrors(rc.store, slug, service.id);
  if (error === 'SLUG_CONTAINS_ILLEGAL_CHARACTERS') {
    throw new ApplicationFailure(400, error, `slug "${slug}" may contain only lower-case letters, digits and '-'`, { slug });
  }
  if (error === 'SLUG_ALREADY_EXISTS') {
    throw new ApplicationFailure(409, error, `slug "${slug}" is already used by another service`, { slug });
  }
  const doc = clone(service);
  setMainSlug(rc.store, doc, slug, rc.now, true);
  return bump(doc, rc.now);
}

/** A copy of `source` under a new id, name "<name> (copy)", a new unique slug and revision "1". */
export function cloneService(rc: RuleContext, source: ServiceDoc): ServiceDoc {
  const id = rc.newId ? rc.newId() : randomUUID();
  const doc = clone(source);
  doc.id = id;
  doc.name = `${source.name} (copy)`.slice(0, MAX_NAME);
  doc.revision = '1';
  doc.createdDate = rc.now;
  doc.updatedDate = rc.now;
  doc.supportedSlugs = [];
  delete doc.mainSlug;
  doc.schedule = { ...((source.schedule as Json | undefined) ?? {}), id: randomUUIDFrom(rc) };
  setMainSlug(rc.store, doc, uniqueSlug(rc.store, doc.name, id), rc.now, false);
  return doc;
}

/**
 * Replaces a service's locations (spec 000 section 7, "{serviceId}/locations"). `removedLocationSessionsAction`
 * says what happens to sessions at removed locations: KEEP_AT_CURRENT_LOCATION (default), MOVE_TO_LOCATION
 * (needs `moveToLocationOptions.newLocation`) or DELETE. Returns the new document and the removed locations.
 * @throws ValidationFailure on bad locations or action.
 */
export function replaceLocations(rc: RuleContext, service: ServiceDoc, body: Json): { doc: ServiceDoc; removed: ServiceLocation[]; action: string } {
  if (!Array.isArray(body.locations)) throw ValidationFailure.field('locations', 'locations is required', 'REQUIRED_FIELD');
  const actionSpec = body.removedLocationSessionsAction;
  let action = 'KEEP_AT_CURRENT_LOCATION';
  if (actionSpec !== undefined) {
    if (!isObject(actionSpec)) throw ValidationFailure.field('removedLocationSessionsAction', 'must be an object');
    action = (actionSpec.action as string | undefined) ?? action;
    if (!REMOVED_LOCATION_SESSION_ACTIONS.includes(action as never)) {
      throw ValidationFailure.field('removedLocationSessionsAction.action', 'must be KEEP_AT_CURRENT_LOCATION, MOVE_TO_LOCATION or DELETE', 'INVALID_ENUM_VALUE');
    }
    if (action === 'MOVE_TO_LOCATION') {
      const opts = actionSpec.moveToLocationOptions;
      if (!isObject(opts) || !isObject(opts.newLocation)) {
        throw ValidationFailure.field('removedLocationSessionsAction.moveToLocationOptions', 'MOVE_TO_LOCATION needs moveToLocationOptions.newLocation', 'REQUIRED_FIELD');
      }
    }
  }
  const violations = violationsOf(rc.store, { ...clone(service), locations: body.locations }, 'service').map((v) => ({
    ...v,
    field: v.field.replace(/^service\./, ''),
  }));
  const locationViolations = violations.filter((v) => v.field.startsWith('locations'));
  if (locationViolations.length) throw new ValidationFailure(locationViolations);
  const doc = clone(service);
  doc.locations = (body.locations as ServiceLocation[]).map((l) => normalizeLocation(rc.store, l));
  const key = (l: ServiceLocation) => (l.type === 'BUSINESS' ? `B:${l.business?.id}` : `${l.type}:${l.id ?? l.calculatedAddress?.formatted ?? ''}`);
  const kept = new Set(doc.locations.map(key));
  const removed = (service.locations ?? []).filter((l) => !kept.has(key(l)));
  return { doc: bump(doc, rc.now), removed, action };
}

/** Adds or removes pricing plan ids (set semantics) and keeps `payment.options.pricingPlan` in step. */
export function changePricingPlans(rc: RuleContext, service: ServiceDoc, ids: unknown, op: 'add' | 'remove'): ServiceDoc {
  if (!Array.isArray(ids) || ids.length === 0 || ids.some((i) => typeof i !== 'string' || i === '')) {
    throw ValidationFailure.field('pricingPlanIds', 'must be a non-empty array of plan ids', 'REQUIRED_FIELD');
  }
  const doc = clone(service);
  const payment = (doc.payment ??= { rateType: 'NO_FEE' });
  const set = new Set(payment.pricingPlanIds ?? []);
  for (const id of ids as string[]) {
    if (op === 'add') set.add(id);
    else set.delete(id);
  }
  payment.pricingPlanIds = [...set];
  payment.options = { ...(payment.options ?? {}), pricingPlan: set.size > 0 };
  return bump(doc, rc.now);
}
