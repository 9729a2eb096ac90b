/**
 * The services API (spec 000 section 7, every row of the services table; platform-wire.md sections 1, 6-9).
 * Paths are the proto paths; the router maps every alias (`/_api/bookings/v2/services...`,
 * `/bookings/v2/services...`, the bulk prefixes) onto them.
 *
 * Replies: get/create/update/locations/pricing plans -> `{service}`; query -> `{services, pagingMetadata}`
 * (offset); search -> `{services, pagingMetadata}` (cursor) + `aggregationData`; count -> `{count}`;
 * delete -> `{}`; bulk -> `{results:[{itemMetadata:{id, originalIndex, success, error?}, item?}],
 * bulkActionMetadata}` (item only with returnEntity, never for delete); by-filter -> `{jobId}`; policies ->
 * `{bookingPolicies:[{bookingPolicy, connectedServices, services, totalServiceCount}], pagingMetadata}`
 * (connectedServices: up to 5 `{id, name}`; services: up to 5 full services); booking forms ->
 * `{bookingForms:[{form, connectedServices, totalServiceCount}], pagingMetadata}`; categories -> `{categories}`;
 * business locations -> `{businessLocations:{locations}}`; custom slug -> `{slug, service}`; validate slug ->
 * `{valid, slugName, errors}`; clone -> `{service, errors:[]}`.
 */
import { randomUUID } from 'node:crypto';
import { ValidationFailure, serviceNotFound, toItemError } from '../errors.js';
import type { ServiceDoc } from '../model.js';
import { compileFilter, runCount, runQuery, runSearch } from '../query/index.js';
import {
  buildService,
  changePricingPlans,
  cloneService,
  parseMask,
  replaceLocations,
  requireService,
  setCustomSlug,
  slugErrors,
  updateService,
  type RuleContext,
} from '../service-rules.js';
import type { Store } from '../store.js';
import { RawJson, type Body, type HandlerContext, type Route } from './types.js';

/** Most items one bulk call accepts (platform-wire.md section 7). */
export const MAX_BULK_ITEMS = 100;
/** Connected services listed per policy or form (the rest are counted). */
const CONNECTED_SHOWN = 5;

export type ServiceEventType = 'service_created' | 'service_updated' | 'service_deleted';

function emit(store: Store, ctx: HandlerContext, type: ServiceEventType, service: ServiceDoc): void {
  store.appendEvent(type, service.id, service, ctx.now);
}

/** `{"service": <doc>}` from the store's JSON text of the document (same bytes as JSON.stringify). */
function serviceReply(store: Store, service: ServiceDoc): RawJson {
  return new RawJson(`{"service":${store.serviceJson(service)}}`);
}

/** `{"services": [...], ...rest}` with each service's stored JSON text; `rest` is serialised as usual. */
function servicesReply(store: Store, services: readonly ServiceDoc[], rest: Record<string, unknown>): RawJson {
  let text = '{"services":[';
  for (let i = 0; i < services.length; i++) text += (i ? ',' : '') + store.serviceJson(services[i]);
  text += ']';
  for (const [k, v] of Object.entries(rest)) if (v !== undefined) text += `,${JSON.stringify(k)}:${JSON.stringify(v)}`;
  return new RawJson(text + '}');
}

function rules(store: Store, ctx: HandlerContext): RuleContext {
  return { store, now: ctx.now };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function bulkItems(body: Body, field: string): unknown[] {
  const items = isObject(body) ? body[field] : undefined;
  if (!Array.isArray(items) || items.length === 0) {
    throw ValidationFailure.field(field, `${field} must hold between 1 and ${MAX_BULK_ITEMS} items`, 'REQUIRED_FIELD');
  }
  if (items.length > MAX_BULK_ITEMS) {
    throw ValidationFailure.field(field, `at most ${MAX_BULK_ITEMS} items are allowed, got ${items.length}`, 'MAX_SIZE', { max: MAX_BULK_ITEMS });
  }
  return items;
}

interface BulkResult {
  itemMetadata: { id?: string; originalIndex: number; success: boolean; error?: { code: string; description: string; data: Record<string, unknown> } };
  item?: ServiceDoc;
}

/**
 * Runs `fn` for each item; an item's expected failure (validation, not found, revision mismatch) is reported
 * for that item and the others go on. Each item runs in a savepoint so a failing item leaves nothing behind.
 */
function bulk<T>(store: Store, items: T[], returnEntity: boolean, idOf: (item: T) => string | undefined, fn: (item: T, index: number) => ServiceDoc) {
  const results: BulkResult[] = [];
  let failures = 0;
  items.forEach((item, originalIndex) => {
    try {
      const doc = store.db.transaction(() => fn(item, originalIndex))();
      results.push({ itemMetadata: { id: doc.id, originalIndex, success: true }, ...(returnEntity ? { item: doc } : {}) });
    } catch (err) {
      failures++;
      const id = idOf(item);
      results.push({ itemMetadata: { ...(id ? { id } : {}), originalIndex, success: false, error: toItemError(err) } });
    }
  });
  return {
    results,
    bulkActionMetadata: { totalSuccesses: items.length - failures, totalFailures: failures, undetailedFailures: 0 },
  };
}

function requireRevision(service: Record<string, unknown>, field: string): void {
  const r = service.revision;
  if (r === undefined || r === null || r === '') throw ValidationFailure.field(field, 'revision is required', 'REQUIRED_FIELD');
  if ((typeof r !== 'string' && typeof r !== 'number') || !/^\d+$/.test(String(r))) {
    throw ValidationFailure.field(field, 'revision must be a decimal string', 'INVALID');
  }
}

function connected(store: Store, key: (s: ServiceDoc) => unknown): Map<unknown, ServiceDoc[]> {
  const by = new Map<unknown, ServiceDoc[]>();
  for (const s of store.services()) {
    const k = key(s);
    if (k === undefined) continue;
    const list = by.get(k);
    if (list) list.push(s);
    else by.set(k, [s]);
  }
  return by;
}

/** Cursor-paged query over a small collection (`{query:{filter, sort, cursorPaging}}`, default limit 100). */
function cursorQuery<T>(docs: T[], body: Body) {
  const query = isObject(body) && isObject(body.query) ? body.query : {};
  const cursorPaging = isObject(query.cursorPaging) ? query.cursorPaging : {};
  return runSearch(docs, { ...query, cursorPaging: { limit: 100, ...cursorPaging } }, 'query');
}

const create = (store: Store, body: Body, ctx: HandlerContext) => {
  const service = buildService(rules(store, ctx), body?.service);
  store.insertService(service);
  emit(store, ctx, 'service_created', service);
  return { service };
};

const get = (store: Store, _body: Body, ctx: HandlerContext) => serviceReply(store, requireService(store, ctx.params.id));

const update = (store: Store, body: Body, ctx: HandlerContext) => {
  const patch = body?.service;
  if (!isObject(patch)) throw ValidationFailure.field('service', 'service is required', 'REQUIRED_FIELD');
  if (patch.id !== undefined && patch.id !== ctx.params.id) {
    throw ValidationFailure.field('service.id', 'must match the id in the path', 'INVALID');
  }
  requireRevision(patch, 'service.revision');
  const mask = parseMask(body.mask ?? body.fieldMask, 'mask');
  const service = updateService(rules(store, ctx), { ...patch, id: ctx.params.id }, mask);
  store.replaceService(service);
  emit(store, ctx, 'service_updated', service);
  return serviceReply(store, service);
};

const remove = (store: Store, _body: Body, ctx: HandlerContext) => {
  const service = requireService(store, ctx.params.id);
  store.deleteService(service.id);
  emit(store, ctx, 'service_deleted', service);
  return {};
};

const bulkCreate = (store: Store, body: Body, ctx: HandlerContext) => {
  const items = bulkItems(body, 'services');
  return bulk(store, items, body.returnEntity === true, () => undefined, (item, i) => {
    const service = buildService(rules(store, ctx), item, `services[${i}]`);
    store.insertService(service);
    emit(store, ctx, 'service_created', service);
    return service;
  });
};

const bulkUpdate = (store: Store, body: Body, ctx: HandlerContext) => {
  const items = bulkItems(body, 'services');
  // Structural problems fail the whole request, as the platform validates the request before running it.
  const parsed = items.map((item, i) => {
    const service = isObject(item) ? item.service : undefined;
    if (!isObject(service)) throw ValidationFailure.field(`services[${i}].service`, 'service is required', 'REQUIRED_FIELD');
    if (typeof service.id !== 'string' || service.id === '') {
      throw ValidationFailure.field(`services[${i}].service.id`, 'id is required', 'REQUIRED_FIELD');
    }
    requireRevision(service, `services[${i}].service.revision`);
    return { service, mask: parseMask((item as Body).mask ?? (item as Body).fieldMask, `services[${i}].mask`) };
  });
  return bulk(store, parsed, body.returnEntity === true, (p) => p.service.id as string, (p, i) => {
    const service = updateService(rules(store, ctx), p.service, p.mask, `services[${i}].service`);
    store.replaceService(service);
    emit(store, ctx, 'service_updated', service);
    return service;
  });
};

const bulkDelete = (store: Store, body: Body, ctx: HandlerContext) => {
  const ids = bulkItems(body, 'ids');
  ids.forEach((id, i) => {
    if (typeof id !== 'string' || id === '') throw ValidationFailure.field(`ids[${i}]`, 'must be a service id', 'INVALID');
  });
  // A deleted service is never returned as the item, whatever returnEntity says.
  return bulk(store, ids as string[], false, (id) => id, (id) => {
    const service = store.getService(id);
    if (!service) throw serviceNotFound(id);
    store.deleteService(id);
    emit(store, ctx, 'service_deleted', service);
    return service;
  });
};

function requireFilter(body: Body): (doc: unknown) => boolean {
  if (!isObject(body) || !isObject(body.filter)) throw ValidationFailure.field('filter', 'filter is required', 'REQUIRED_FIELD');
  return compileFilter(body.filter, 'filter');
}

const updateByFilter = (store: Store, body: Body, ctx: HandlerContext) => {
  const predicate = requireFilter(body);
  if (!isObject(body.service)) throw ValidationFailure.field('service', 'service is required', 'REQUIRED_FIELD');
  const mask = parseMask(body.mask ?? body.fieldMask, 'mask');
  const targets = [...store.services()].filter(predicate);
  for (const target of targets) {
    const service = updateService(rules(store, ctx), { ...body.service, id: target.id }, mask, 'service', false);
    store.replaceService(service);
    emit(store, ctx, 'service_updated', service);
  }
  return { jobId: randomUUID() };
};

const deleteByFilter = (store: Store, body: Body, ctx: HandlerContext) => {
  const predicate = requireFilter(body);
  const targets = [...store.services()].filter(predicate);
  for (const target of targets) {
    store.deleteService(target.id);
    emit(store, ctx, 'service_deleted', target);
  }
  return { jobId: randomUUID() };
};

const query = (store: Store, body: Body) => {
  const page = runQuery(store.services(), isObject(body) ? body.query : undefined, 'query', store.serviceMatches);
  return servicesReply(store, page.items, { pagingMetadata: page.pagingMetadata });
};

const search = (store: Store, body: Body) => {
  const page = runSearch(store.services(), isObject(body) ? body.search : undefined, 'search', store.serviceMatches);
  return servicesReply(store, page.items, { pagingMetadata: page.pagingMetadata, aggregationData: page.aggregationData });
};

const count = (store: Store, body: Body) => ({ count: runCount(store.services(), isObject(body) ? body.filter : undefined, 'filter') });

const clone = (store: Store, body: Body, ctx: HandlerContext) => {
  if (!isObject(body) || typeof body.sourceServiceId !== 'string' || body.sourceServiceId === '') {
    throw ValidationFailure.field('sourceServiceId', 'sourceServiceId is required', 'REQUIRED_FIELD');
  }
  const service = cloneService(rules(store, ctx), requireService(store, body.sourceServiceId));
  store.insertService(service);
  emit(store, ctx, 'service_created', service);
  return { service, errors: [] };
};

function requireSlug(body: Body): string {
  if (!isObject(body) || typeof body.slug !== 'string' || body.slug === '') throw ValidationFailure.field('slug', 'slug is required', 'REQUIRED_FIELD');
  return body.slug;
}

const validateSlug = (store: Store, body: Body) => {
  const slug = requireSlug(body);
  const serviceId = typeof body.serviceId === 'string' ? body.serviceId : undefined;
  const errors = slugErrors(store, slug, serviceId);
  return { valid: errors.length === 0, slugName: slug, errors };
};

const customSlug = (store: Store, body: Body, ctx: HandlerContext) => {
  const slug = requireSlug(body);
  const service = setCustomSlug(rules(store, ctx), requireService(store, ctx.params.id), slug);
  store.replaceService(service);
  emit(store, ctx, 'service_updated', service);
  return { slug: service.mainSlug, service };
};

const setLocations = (store: Store, body: Body, ctx: HandlerContext) => {
  const current = requireService(store, ctx.params.id);
  const { doc } = replaceLocations(rules(store, ctx), current, isObject(body) ? body : {});
  store.replaceService(doc);
  emit(store, ctx, 'service_updated', doc);
  return { service: doc };
};

const pricingPlans = (op: 'add' | 'remove') => (store: Store, body: Body, ctx: HandlerContext) => {
  const service = changePricingPlans(rules(store, ctx), requireService(store, ctx.params.id), body?.pricingPlanIds, op);
  store.replaceService(service);
  emit(store, ctx, 'service_updated', service);
  return { service };
};

const queryPolicies = (store: Store, body: Body) => {
  const page = cursorQuery(store.listEntities('bookingPolicies'), body);
  const byPolicy = connected(store, (s) => (s.bookingPolicy as { id?: string } | undefined)?.id);
  return {
    bookingPolicies: page.items.map((bookingPolicy) => {
      const services = byPolicy.get(bookingPolicy.id) ?? [];
      return {
        bookingPolicy,
        connectedServices: services.slice(0, CONNECTED_SHOWN).map((s) => ({ id: s.id, name: s.name })),
        services: services.slice(0, CONNECTED_SHOWN),
        totalServiceCount: services.length,
      };
    }),
    pagingMetadata: page.pagingMetadata,
  };
};

const queryBookingForms = (store: Store, body: Body) => {
  const page = cursorQuery(store.listEntities('bookingForms'), body);
  const byForm = connected(store, (s) => (s.form as { id?: string } | undefined)?.id);
  return {
    bookingForms: page.items.map((form) => {
      const services = byForm.get(form.id) ?? [];
      return {
        form,
        connectedServices: services.slice(0, CONNECTED_SHOWN).map((s) => ({ id: s.id, name: s.name })),
        totalServiceCount: services.length,
      };
    }),
    pagingMetadata: page.pagingMetadata,
  };
};

function filterOf(body: Body): unknown {
  if (!isObject(body)) return undefined;
  if (isObject(body.query)) return body.query.filter;
  return body.filter;
}

const queryCategories = (store: Store, body: Body) => {
  const field = isObject(body) && isObject(body.query) ? 'query.filter' : 'filter';
  const predicate = compileFilter(filterOf(body), field);
  return { categories: store.listEntities('categories').filter(predicate) };
};

const queryBusinessLocations = (store: Store, body: Body) => {
  const field = isObject(body) && isObject(body.query) ? 'query.filter' : 'filter';
  const predicate = compileFilter(filterOf(body), field);
  return { businessLocations: { locations: store.listEntities('businessLocations').filter(predicate) } };
};

/** Every services route, on its canonical path. */
export const serviceRoutes: Route[] = [
  { method: 'POST', path: '/v2/services', write: true, handler: create },
  { method: 'POST', path: '/v2/services/query', write: false, handler: query },
  { method: 'POST', path: '/v2/services/search', write: false, handler: search },
  { method: 'POST', path: '/v2/services/count', write: false, handler: count },
  { method: 'POST', path: '/v2/services/clone', write: true, handler: clone },
  { method: 'POST', path: '/v2/services/slugs/validate', write: false, handler: validateSlug },
  { method: 'POST', path: '/v2/services/policies/query', write: false, handler: queryPolicies },
  { method: 'POST', path: '/v2/services/booking-forms/query', write: false, handler: queryBookingForms },
  { method: 'POST', path: '/v2/services/categories/query', write: false, handler: queryCategories },
  { method: 'POST', path: '/v2/services/locations/query', write: false, handler: queryBusinessLocations },
  { method: 'GET', path: '/v2/services/:id', write: false, handler: get },
  { method: 'PATCH', path: '/v2/services/:id', write: true, handler: update },
  { method: 'DELETE', path: '/v2/services/:id', write: true, handler: remove },
  { method: 'POST', path: '/v2/services/:id/locations', write: true, handler: setLocations },
  { method: 'POST', path: '/v2/services/:id/pricing-plans/add', write: true, handler: pricingPlans('add') },
  { method: 'POST', path: '/v2/services/:id/pricing-plans/remove', write: true, handler: pricingPlans('remove') },
  { method: 'POST', path: '/v2/services/:id/slugs/custom', write: true, handler: customSlug },
  { method: 'POST', path: '/v2/bulk/services/create', write: true, handler: bulkCreate },
  { method: 'POST', path: '/v2/bulk/services/update', write: true, handler: bulkUpdate },
  { method: 'POST', path: '/v2/bulk/services/delete', write: true, handler: bulkDelete },
  { method: 'POST', path: '/v2/bulk/services/update-by-filter', write: true, handler: updateByFilter },
  { method: 'POST', path: '/v2/bulk/services/delete-by-filter', write: true, handler: deleteByFilter },
];

/** Path aliases of the services family (platform-wire.md section 1), longest first: alias prefix -> proto prefix. */
export const serviceAliases: Array<[string, string]> = [
  ['/bookings/services/v2/bulk/services', '/v2/bulk/services'],
  ['/_api/bookings/v2/bulk/services', '/v2/bulk/services'],
  ['/bookings/v2/bulk/services', '/v2/bulk/services'],
  ['/_api/bookings/v2/services', '/v2/services'],
  ['/bookings/v2/services', '/v2/services'],
];
