/**
 * Add-ons and the add-on groups of a service (docs/wire.md "Add-on groups and add-ons"): the Add-ons API's
 * create, get and query, the services module's five AddOnGroupsService calls, and the check of the add-ons a new booking
 * selects. A group lives in its service's `addOnGroups` (at most 3, each with at most 7 add-on ids); the service's
 * read-only `addOnDetails` lists every add-on of its groups once, `{addOnId, durationInMinutes}`. Every group
 * write is a change of the service: its revision goes up and `service.updated` is recorded.
 *
 * Codes: the module's application errors where it names them, `GROUP_NOT_ON_SERVICE` (update, delete) and
 * `ADD_ON_GROUP_NOT_FOUND` (set add-ons) [404]; `SUBSCRIPTION_SERVICE_NOT_SUPPORTED` [428] for a group on a
 * subscription-paid service; `ADD_ON_NOT_FOUND` [404] for an add-on id the site does not have; field violations
 * [400] for a fourth group, a repeated add-on id, and an add-on with both or neither of `durationInMinutes` and
 * `maxQuantity`.
 */
import { randomUUID } from 'node:crypto';
import { addOnsFamily } from '../../api/add-ons.js';
import type { Family } from '../../api/family.js';
import type { servicesFamily } from '../../api/services.js';
import { MAX_ADD_ON_GROUPS } from '../../api/schemas/service-add-ons.js';
import { ApplicationFailure, ValidationFailure, type FieldViolation } from '../errors.js';
import { runSearch } from '../query/index.js';
import { serve, type Handlers } from '../serve.js';
import { parseMask } from './rules.js';
import { catalogOf, type Catalog, type ServiceDoc } from './model.js';

export { ADD_ONS, type AddOnDoc } from './model.js';

/** An add-on group as its service holds it. */
export type AddOnGroupDoc = {
  id: string;
  name: string;
  maxNumberOfAddOns?: number | null;
  addOnIds: string[];
  prompt?: string | null;
};

const groupsOf = (s: ServiceDoc): AddOnGroupDoc[] => ((s as { addOnGroups?: AddOnGroupDoc[] }).addOnGroups ?? []).map((g) => ({ ...g, addOnIds: [...(g.addOnIds ?? [])] }));

/** Every add-on id given exists on the site. @throws 404 ADD_ON_NOT_FOUND naming the unknown ids; 400 for a repeated id */
function checkAddOnIds(cat: Catalog, ids: readonly string[], field: string): void {
  const seen = new Set<string>();
  const violations: FieldViolation[] = [];
  ids.forEach((id, i) => {
    if (seen.has(id)) violations.push({ field: `${field}[${i}]`, description: `add-on ${id} is in the group already`, violatedRule: 'DUPLICATE' });
    seen.add(id);
  });
  if (violations.length) throw new ValidationFailure(violations);
  const unknown = ids.filter((id) => !cat.addOns.get(id));
  if (unknown.length) throw new ApplicationFailure(404, 'ADD_ON_NOT_FOUND', `no add-on ${unknown.join(', ')} on this site`, { addOnIds: unknown });
}

/** The service with these groups, and its `addOnDetails` derived from them. */
function withGroups(cat: Catalog, service: ServiceDoc, groups: AddOnGroupDoc[]): ServiceDoc {
  const ids = [...new Set(groups.flatMap((g) => g.addOnIds))];
  const addOnDetails = ids.map((addOnId) => {
    const a = cat.addOns.get(addOnId);
    return { addOnId, ...(a?.durationInMinutes !== undefined ? { durationInMinutes: a.durationInMinutes } : {}) };
  });
  return { ...service, addOnGroups: groups, addOnDetails } as ServiceDoc;
}

/** The group `id` of the service. @throws 404 `code` when the service has no such group */
function groupIndex(service: ServiceDoc, id: string, code: string): number {
  const i = groupsOf(service).findIndex((g) => g.id === id);
  if (i < 0) throw new ApplicationFailure(404, code, `service ${service.id} has no add-on group ${id}`, { serviceId: service.id, addOnGroupId: id });
  return i;
}

type ServiceOps = typeof servicesFamily extends Family<infer O> ? O : never;
type GroupOps = Pick<ServiceOps, 'createAddOnGroup' | 'updateAddOnGroup' | 'deleteAddOnGroup' | 'listAddOnGroupsByServiceId' | 'setAddOnsForGroup'>;

/** The five add-on group calls of the services family (handlers.ts serves them with the rest). */
export const addOnGroupHandlers: Handlers<GroupOps> = {
  createAddOnGroup(ctx) {
    const cat = catalogOf(ctx);
    const service = cat.services.require(ctx.body.serviceId);
    if ((service.payment as { rateType?: string } | undefined)?.rateType === 'SUBSCRIPTION') {
      throw new ApplicationFailure(428, 'SUBSCRIPTION_SERVICE_NOT_SUPPORTED', `service ${service.id} is paid by subscription: it cannot have add-ons`, { serviceId: service.id });
    }
    const groups = groupsOf(service);
    if (groups.length >= MAX_ADD_ON_GROUPS) throw ValidationFailure.field('serviceId', `service ${service.id} has ${MAX_ADD_ON_GROUPS} add-on groups, the most a service may have`, 'MAX_SIZE');
    const given = ctx.body.addOnGroup;
    const addOnIds = given.addOnIds ?? [];
    checkAddOnIds(cat, addOnIds, 'addOnGroup.addOnIds');
    const group: AddOnGroupDoc = {
      id: randomUUID(),
      name: given.name.trim(),
      addOnIds: [...addOnIds],
      ...(given.maxNumberOfAddOns != null ? { maxNumberOfAddOns: given.maxNumberOfAddOns } : {}),
      ...(given.prompt != null ? { prompt: given.prompt } : {}),
    };
    cat.services.update(withGroups(cat, service, [...groups, group]));
    return { addOnGroup: group };
  },
  updateAddOnGroup(ctx) {
    const cat = catalogOf(ctx);
    const service = cat.services.require(ctx.body.serviceId);
    const given = ctx.body.addOnGroup as Record<string, unknown> & { id: string };
    const i = groupIndex(service, given.id, 'GROUP_NOT_ON_SERVICE');
    const groups = groupsOf(service);
    const mask = parseMask(ctx.body.mask);
    const next: Record<string, unknown> = { ...groups[i]! };
    for (const key of ['name', 'maxNumberOfAddOns', 'addOnIds', 'prompt'] as const) {
      const masked = mask ? mask.some((p) => p === key || p.startsWith(`${key}.`)) : key in given;
      if (!masked) continue;
      if (given[key] === undefined || given[key] === null) delete next[key];
      else next[key] = key === 'name' ? String(given[key]).trim() : given[key];
    }
    if (!next.name) throw ValidationFailure.field('addOnGroup.name', 'an add-on group needs a name', 'REQUIRED_FIELD');
    next.addOnIds = (next.addOnIds as string[] | undefined) ?? [];
    checkAddOnIds(cat, next.addOnIds as string[], 'addOnGroup.addOnIds');
    groups[i] = next as unknown as AddOnGroupDoc;
    cat.services.update(withGroups(cat, service, groups));
    return { addOnGroup: groups[i] };
  },
  deleteAddOnGroup(ctx) {
    const cat = catalogOf(ctx);
    const service = cat.services.require(ctx.body.serviceId);
    const i = groupIndex(service, ctx.body.addOnGroupId, 'GROUP_NOT_ON_SERVICE');
    const groups = groupsOf(service);
    groups.splice(i, 1);
    cat.services.update(withGroups(cat, service, groups));
    return {};
  },
  listAddOnGroupsByServiceId(ctx) {
    const cat = catalogOf(ctx);
    const service = cat.services.require(ctx.body.serviceId);
    const wanted = ctx.body.groupIds?.length ? new Set(ctx.body.groupIds) : undefined;
    const addOnGroupsDetails = groupsOf(service)
      .filter((g) => !wanted || wanted.has(g.id))
      .map((g) => ({
        groupId: g.id,
        groupName: g.name,
        ...(g.maxNumberOfAddOns != null ? { maxNumberOfAddOns: g.maxNumberOfAddOns } : {}),
        ...(g.prompt != null ? { prompt: g.prompt } : {}),
        addOns: g.addOnIds.flatMap((id) => {
          const a = cat.addOns.get(id);
          if (!a) return [];
          return [{ addOnId: a.id, name: a.name, price: a.price, ...(a.durationInMinutes !== undefined ? { durationInMinutes: a.durationInMinutes } : { maxQuantity: a.maxQuantity }) }];
        }),
      }));
    return { addOnGroupsDetails };
  },
  setAddOnsForGroup(ctx) {
    const cat = catalogOf(ctx);
    const service = cat.services.require(ctx.body.serviceId);
    const i = groupIndex(service, ctx.body.groupId, 'ADD_ON_GROUP_NOT_FOUND');
    checkAddOnIds(cat, ctx.body.addOnIds, 'addOnIds');
    const groups = groupsOf(service);
    groups[i] = { ...groups[i]!, addOnIds: [...ctx.body.addOnIds] };
    cat.services.update(withGroups(cat, service, groups));
    return { addOnGroup: groups[i] };
  },
};

/** The Add-ons API's create and get, served. */
export const addOnsServed = serve(addOnsFamily, {
  createAddOn(ctx) {
    const given = ctx.body.addOn;
    const duration = given.durationInMinutes !== undefined;
    if (duration === (given.maxQuantity !== undefined)) {
      throw ValidationFailure.field('addOn', 'an add-on has either durationInMinutes (it lengthens the booking) or maxQuantity (it is bought by the piece), one of the two', 'ONE_OF');
    }
    const addOn = catalogOf(ctx).addOns.insert({
      id: randomUUID(),
      name: given.name.trim(),
      price: { value: given.price.value, currency: given.price.currency },
      ...(duration ? { durationInMinutes: given.durationInMinutes } : { maxQuantity: given.maxQuantity }),
    });
    return { addOn };
  },
  getAddOn(ctx) {
    return { addOn: catalogOf(ctx).addOns.require(ctx.body.addOnId) };
  },
  queryAddOns(ctx) {
    const page = runSearch([...catalogOf(ctx).addOns.all()], { ...ctx.body.query, cursorPaging: { limit: 100, ...ctx.body.query?.cursorPaging } }, 'query');
    return { addOns: page.items, pagingMetadata: page.pagingMetadata };
  },
});

/** One add-on a booking selects, as sent. */
export interface BookedAddOnInput {
  id?: string;
  groupId?: string;
  quantity?: number | null;
}

/** One add-on a booking holds, as stored: `{id, groupId, quantity | durationInMinutes, name}` (BookedAddOn). */
export type BookedAddOnDoc = {
  id: string;
  groupId: string;
  name: string;
  quantity?: number;
  durationInMinutes?: number;
};

/**
 * The add-ons a new booking selects, checked against its service's groups (BookedAddOn of the bookings module):
 * each add-on in the group named, that group on the service; a duration add-on takes no quantity other than 1 (which
 * is cleared); a quantity add-on takes 1 up to its `maxQuantity` (default 1); no more different add-ons from one
 * group than its `maxNumberOfAddOns`. With `skipAddOnValidation` only the add-on's existence is checked.
 * @returns the stored form, with each add-on's name and duration at the time of booking
 * @throws ValidationFailure (400) naming `prefix.bookedAddOns[i]...`; ApplicationFailure 404 ADD_ON_NOT_FOUND
 */
export function bookedAddOnsOf(cat: Catalog, service: ServiceDoc, input: readonly BookedAddOnInput[], prefix: string, skip = false): BookedAddOnDoc[] {
  const groups = new Map(groupsOf(service).map((g) => [g.id, g]));
  const violations: FieldViolation[] = [];
  const perGroup = new Map<string, Set<string>>();
  const out: BookedAddOnDoc[] = [];
  input.forEach((given, i) => {
    const field = `${prefix}.bookedAddOns[${i}]`;
    const addOn = cat.addOns.get(given.id ?? '');
    if (!addOn) throw new ApplicationFailure(404, 'ADD_ON_NOT_FOUND', `no add-on ${given.id ?? '(none)'} on this site`, { addOnId: given.id });
    const group = groups.get(given.groupId ?? '');
    if (!skip && !group) return void violations.push({ field: `${field}.groupId`, description: `service ${service.id} has no add-on group ${given.groupId ?? '(none)'}`, violatedRule: 'INVALID' });
    if (!skip && !group!.addOnIds.includes(addOn.id)) return void violations.push({ field: `${field}.id`, description: `add-on ${addOn.id} is not in group ${group!.id}`, violatedRule: 'INVALID' });
    const q = given.quantity ?? undefined;
    if (addOn.durationInMinutes !== undefined) {
      if (q !== undefined && q !== 1) return void violations.push({ field: `${field}.quantity`, description: 'Invalid AddOn details: either duration or quantity must be set correctly', violatedRule: 'INVALID' });
    } else if (!skip && (q ?? 1) > (addOn.maxQuantity ?? 1)) {
      return void violations.push({ field: `${field}.quantity`, description: `add-on ${addOn.id} is sold up to ${addOn.maxQuantity ?? 1} at a time, ${q} asked`, violatedRule: 'MAX' });
    }
    const chosen = perGroup.get(given.groupId ?? '') ?? new Set<string>();
    chosen.add(addOn.id);
    perGroup.set(given.groupId ?? '', chosen);
    if (!skip && group?.maxNumberOfAddOns != null && chosen.size > group.maxNumberOfAddOns) {
      return void violations.push({ field, description: `group ${group.id} allows ${group.maxNumberOfAddOns} different add-on(s)`, violatedRule: 'MAX_SIZE' });
    }
    out.push({
      id: addOn.id,
      groupId: given.groupId ?? '',
      name: addOn.name,
      ...(addOn.durationInMinutes !== undefined ? { durationInMinutes: addOn.durationInMinutes } : { quantity: q ?? 1 }),
    });
  });
  if (violations.length) throw new ValidationFailure(violations);
  return out;
}
