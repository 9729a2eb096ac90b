/**
 * The services family served from its table (docs/wire.md §14, every row of the services table;
 * docs/wire.md §1, §6-§9): one handler per operation of `servicesFamily`, each receiving a request
 * the table's schema has already validated. Reply shapes are the ones src/api/services.ts documents.
 */
import { servicesFamily } from '../../api/services.js';
import { cancelFutureBookings } from '../bookings/service-deleted.js';
import { bulkReply } from '../bulk.js';
import { addOnGroupHandlers } from './add-ons.js';
import { ApplicationFailure } from '../errors.js';
import { PLANS } from '../plans/model.js';
import { aggregateMatches, checkQuery, checkSearch, compileFilter, runSearch } from '../query/index.js';
import { pinnedIds } from '../query/pinned.js';
import { RawJson, serve, type RequestContext } from '../serve.js';
import type { SiteCollection, Doc, SortSpec } from '../store/collection.js';
import { checkResources, cloneErrorsOf, withoutForm } from './creation-errors.js';
import { catalogOf, type Catalog, type ServiceDoc, type ServiceLocation } from './model.js';
import {
  buildService,
  changePricingPlans,
  cloneService,
  parseMask,
  replaceLocations,
  setCustomSlug,
  slugErrors,
  updateService,
} from './rules.js';

/** Connected services listed per policy or form (the rest are counted). */
const CONNECTED_SHOWN = 5;
/** Default page of the policies and booking-forms queries. */
const DEFAULT_CURSOR_LIMIT = 100;

/** `{"service": <doc>}` from the stored JSON text of the document. */
function serviceReply(cat: Catalog, service: ServiceDoc, fields?: readonly string[]): RawJson {
  return new RawJson(`{"service":${serviceJson(cat, service, fields)}}`);
}

/**
 * A service's JSON text as stored, with the conditional fields asked (`@wix/auto_sdk_bookings_services`
 * V2RequestedFields): STAFF_MEMBER_DETAILS adds `staffMemberDetails.staffMembers`, each staff member of
 * `staffMemberIds` as `{staffMemberId, name, mainMedia}` (the id is the staff member's resource id, here the
 * same). The other conditional fields add nothing: the emulator has no resource types or discounts.
 */
function serviceJson(cat: Catalog, service: ServiceDoc, fields: readonly string[] = []): string {
  const text = cat.services.json(service);
  if (!fields.includes('STAFF_MEMBER_DETAILS')) return text;
  const staffMembers = (service.staffMemberIds ?? []).flatMap((id) => {
    const m = cat.staff.get(id);
    return m ? [{ staffMemberId: m.id, name: m.name, ...(m.mainMedia ? { mainMedia: m.mainMedia } : {}) }] : [];
  });
  return JSON.stringify({ ...(JSON.parse(text) as object), staffMemberDetails: { staffMembers } });
}

/** `{"services": [...], ...rest}` with each service's stored JSON text (and the conditional fields asked); `rest` is serialised as usual. */
function servicesReply(cat: Catalog, services: readonly ServiceDoc[], rest: Record<string, unknown>, fields?: readonly string[]): RawJson {
  let text = '{"services":[';
  for (let i = 0; i < services.length; i++) text += (i ? ',' : '') + serviceJson(cat, services[i]!, fields);
  text += ']';
  for (const [k, v] of Object.entries(rest)) if (v !== undefined) text += `,${JSON.stringify(k)}:${JSON.stringify(v)}`;
  return new RawJson(text + '}');
}

/**
 * Services grouped by the id of something they refer to (a policy, a form): per id the first
 * {@link CONNECTED_SHOWN} services in creation order and how many there are. Streams the services (one parsed
 * at a time), so a site of 100,000 holds a handful of documents per id, not every one.
 */
function connected(cat: Catalog, key: (s: ServiceDoc) => unknown): Map<unknown, { shown: ServiceDoc[]; total: number }> {
  const by = new Map<unknown, { shown: ServiceDoc[]; total: number }>();
  for (const s of cat.services.all()) {
    const k = key(s);
    if (k === undefined) continue;
    let group = by.get(k);
    if (!group) by.set(k, (group = { shown: [], total: 0 }));
    if (group.shown.length < CONNECTED_SHOWN) group.shown.push(s);
    group.total++;
  }
  return by;
}

/** Cursor-paged query over a small collection (`{query:{filter, sort, cursorPaging}}`, default limit 100). */
function cursorQuery<T extends Doc>(docs: SiteCollection<T>, query: { cursorPaging?: object } | undefined) {
  return runSearch([...docs.all()], { ...query, cursorPaging: { limit: DEFAULT_CURSOR_LIMIT, ...query?.cursorPaging } }, 'query');
}

/**
 * The ids of every service matching a by-filter request's filter: a filter that names its ids (query/pinned.ts)
 * reads only those services, in the order it names them, each checked against the whole filter; any other is
 * matched in SQL (SiteCollection.matchingIds), in creation order.
 */
function matching(cat: Catalog, filter: Record<string, unknown>): string[] {
  const predicate = compileFilter(filter, 'filter');
  const pinned = pinnedIds(filter);
  if (pinned) return [...pinned].filter((id) => { const s = cat.services.get(id); return s !== undefined && predicate(s); });
  return cat.services.matchingIds(filter);
}

const cat = (ctx: RequestContext<unknown>) => catalogOf(ctx);

/** Every services operation, served. */
export const servicesServed = serve(servicesFamily, {
  createService(ctx) {
    const c = cat(ctx);
    const doc = buildService(c, ctx.body.service);
    checkResources(c, doc, ctx.faults);
    return serviceReply(c, c.services.insert(doc));
  },

  bulkCreateServices(ctx) {
    const c = cat(ctx);
    return bulkReply(ctx.store, ctx.body.services, ctx.body.returnEntity === true, () => undefined, (item, i) => {
      const doc = buildService(c, item, `services[${i}]`);
      checkResources(c, doc, ctx.faults, `services[${i}]`);
      return c.services.insert(doc);
    });
  },

  getService(ctx) {
    const c = cat(ctx);
    return serviceReply(c, c.services.require(ctx.body.serviceId), ctx.body.conditionalFields);
  },

  updateService(ctx) {
    const c = cat(ctx);
    const { service, mask } = ctx.body;
    const next = updateService(c, service, parseMask(mask));
    return serviceReply(c, c.services.update(next, { expectedRevision: String(service.revision) }));
  },

  bulkUpdateServices(ctx) {
    const c = cat(ctx);
    return bulkReply(ctx.store, ctx.body.services, ctx.body.returnEntity === true, (item) => item.service.id, (item, i) => {
      const next = updateService(c, item.service, parseMask(item.mask), `services[${i}].service`);
      return c.services.update(next, { expectedRevision: String(item.service.revision) });
    });
  },

  bulkUpdateServicesByFilter(ctx) {
    const c = cat(ctx);
    const mask = parseMask(ctx.body.mask);
    for (const id of matching(c, ctx.body.filter)) c.services.update(updateService(c, { ...ctx.body.service, id }, mask));
    return { jobId: crypto.randomUUID() };
  },

  // Each delete takes the service's future bookings with it unless told to preserve them
  // (bookings/service-deleted.ts), notifying their customers when asked.
  deleteService(ctx) {
    const deleted = cat(ctx).services.delete(ctx.body.serviceId);
    cancelFutureBookings(ctx, deleted.id, ctx.body);
    return {};
  },

  bulkDeleteServices(ctx) {
    const c = cat(ctx);
    // A deleted service is never returned as the item, whatever returnEntity says.
    return bulkReply(ctx.store, ctx.body.ids, false, (id) => id, (id) => {
      const deleted = c.services.delete(id);
      cancelFutureBookings(ctx, deleted.id, ctx.body);
      return deleted;
    });
  },

  bulkDeleteServicesByFilter(ctx) {
    const c = cat(ctx);
    for (const id of matching(c, ctx.body.filter)) {
      c.services.delete(id);
      cancelFutureBookings(ctx, id, ctx.body);
    }
    return { jobId: crypto.randomUUID() };
  },

  // Filter, sort and offset paging run in SQLite (SiteCollection.page over the services' query table): only the
  // page's services are read, however many the site holds; validated as the in-memory query is (checkQuery).
  queryServices(ctx) {
    const c = cat(ctx);
    const q = (ctx.body.query ?? {}) as { filter?: unknown; sort?: unknown; paging?: { limit?: unknown; offset?: unknown } };
    const { limit, offset } = checkQuery(q, 'query');
    const sort = Array.isArray(q.sort) && q.sort.length ? (q.sort as SortSpec[]) : undefined;
    const page = c.services.page({ filter: q.filter, sort, offset, limit });
    const pagingMetadata = { count: page.items.length, offset, total: page.total, tooManyToCount: false };
    return servicesReply(c, page.items, { pagingMetadata }, ctx.body.conditionalFields);
  },

  // Filter, free-text search, sort and cursor paging run in SQLite as the query does (SiteCollection.page): only
  // the page's services are parsed; aggregations read every match one at a time, cut to the fields they name.
  // Validated as the in-memory search is (checkSearch); the results are its results (docs/wire.md §6).
  searchServices(ctx) {
    const c = cat(ctx);
    const s = checkSearch(ctx.body.search, 'search');
    const { filter, sort: rawSort, search: rawText } = s.state;
    const sort = Array.isArray(rawSort) && rawSort.length ? (rawSort as SortSpec[]) : undefined;
    const search = s.text && {
      fields: s.text.fields,
      test: s.textTest,
      key: JSON.stringify(rawText),
      // A fuzzy word's near misses are the evaluator's to find (a call per row, on the columns, no document parsed).
      ...(s.text.fuzzy ? {} : { words: s.text.words, any: s.text.mode === 'OR' }),
    };
    const page = c.services.page({ filter, sort, search, offset: s.state.o, limit: s.limit });
    const aggregationData = aggregateMatches(s, s.aggregationPaths.length ? c.services.matching({ filter, sort, search }) : []);
    return servicesReply(c, page.items, { pagingMetadata: s.paging(page.items.length, page.total), aggregationData });
  },

  countServices(ctx) {
    compileFilter(ctx.body.filter, 'filter');
    return { count: cat(ctx).services.page({ filter: ctx.body.filter, offset: 0, limit: 1 }).total };
  },

  queryPolicies(ctx) {
    const c = cat(ctx);
    const page = cursorQuery(c.policies, ctx.body.query);
    const byPolicy = connected(c, (s) => (s.bookingPolicy as { id?: string } | undefined)?.id);
    return {
      bookingPolicies: page.items.map((bookingPolicy) => {
        const { shown, total } = byPolicy.get(bookingPolicy.id) ?? { shown: [], total: 0 };
        return {
          bookingPolicy,
          connectedServices: shown.map((s) => ({ id: s.id, name: s.name })),
          services: shown,
          totalServiceCount: total,
        };
      }),
      pagingMetadata: page.pagingMetadata,
    };
  },

  queryBookingForms(ctx) {
    const c = cat(ctx);
    const page = cursorQuery(c.forms, ctx.body.query);
    const byForm = connected(c, (s) => (s.form as { id?: string } | undefined)?.id);
    return {
      bookingForms: page.items.map((form) => {
        const { shown, total } = byForm.get(form.id) ?? { shown: [], total: 0 };
        return {
          form,
          connectedServices: shown.map((s) => ({ id: s.id, name: s.name })),
          totalServiceCount: total,
        };
      }),
      pagingMetadata: page.pagingMetadata,
    };
  },

  queryCategories(ctx) {
    const predicate = compileFilter(ctx.body.filter, 'filter');
    return { categories: [...cat(ctx).categories.all()].filter(predicate) };
  },

  queryLocations(ctx) {
    const c = cat(ctx);
    const predicate = compileFilter(ctx.body.filter, 'filter');
    const kinds = new Set<string>();
    for (const s of c.services.all()) for (const l of s.locations ?? []) kinds.add(l.type);
    return {
      businessLocations: { exists: kinds.has('BUSINESS'), locations: [...c.locations.all()].filter(predicate) },
      customLocations: { exists: kinds.has('CUSTOM') },
      customerLocations: { exists: kinds.has('CUSTOMER') },
    };
  },

  setServiceLocations(ctx) {
    const c = cat(ctx);
    const current = c.services.require(ctx.body.serviceId);
    const { doc } = replaceLocations(c, current, ctx.body.locations as ServiceLocation[], ctx.body.removedLocationSessionsAction);
    return { service: c.services.update(doc) };
  },

  enablePricingPlansForService(ctx) {
    const c = cat(ctx);
    const service = c.services.require(ctx.body.serviceId);
    // The platform answers 400 for plan ids that are not plans of the site (docs/plans-orders.md).
    const plans = ctx.db(PLANS);
    const unknown = ctx.body.pricingPlanIds.filter((id) => !plans.get(id));
    if (unknown.length) throw new ApplicationFailure(400, 'INVALID_PRICING_PLAN', `no pricing plan ${unknown.join(', ')} on this site`, { pricingPlanIds: unknown });
    const next = changePricingPlans(service, ctx.body.pricingPlanIds, 'add');
    return serviceReply(c, next ? c.services.update(next) : service);
  },

  disablePricingPlansForService(ctx) {
    const c = cat(ctx);
    const service = c.services.require(ctx.body.serviceId);
    const next = changePricingPlans(service, ctx.body.pricingPlanIds, 'remove');
    return serviceReply(c, next ? c.services.update(next) : service);
  },

  setCustomSlug(ctx) {
    const c = cat(ctx);
    const service = c.services.update(setCustomSlug(c, c.services.require(ctx.body.serviceId), ctx.body.slug));
    return { slug: service.mainSlug!, service };
  },

  validateSlug(ctx) {
    const errors = slugErrors(cat(ctx), ctx.body.slug, ctx.body.serviceId);
    return { valid: errors.length === 0, slug: ctx.body.slug, errors };
  },

  cloneService(ctx) {
    const c = cat(ctx);
    const source = c.services.require(ctx.body.sourceServiceId);
    const errors = cloneErrorsOf(c, source, ctx.faults);
    let doc = cloneService(c, source);
    if (errors.includes('FORM')) doc = withoutForm(c, doc);
    checkResources(c, doc, ctx.faults);
    return { service: c.services.insert(doc), errors };
  },

  ...addOnGroupHandlers,
});

