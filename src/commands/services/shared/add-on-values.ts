/**
 * `services add-on-groups create|update|delete|set-add-ons` as one value verb of a service (commands/shared/values.ts;
 * docs/manual/commands.md "Add-on groups"): the value names one group of the service (by id, or by name for a group
 * not made yet) and what it should be after the change (`null`: no such group). Each change is one of the
 * platform's AddOnGroupsService calls (docs/wire.md "Add-on groups and add-ons"), journaled with the group as it was,
 * so `sitectl undo` puts it back if the service still has the revision the change left: a created group is
 * deleted, a deleted one made again with its name, limit, prompt and add-ons (the platform gives it a new id),
 * an updated one given its former fields back.
 */
import * as z from 'zod/mini';
import type { ApiClient } from '../../../api/client.js';
import type { AddOnGroup } from '../../../api/schemas/service-add-ons.js';
import type { Service } from '../../../api/schemas/service.js';
import { services } from '../../../api/services.js';
import type { ValueVerb } from '../../shared/values.js';
import { SERVICE_VIEW } from './view.js';

type ServiceEntity = Service & { id: string };

/** The fields of a group a verb sets; `null` clears a field (the limit, the prompt). */
const GROUP_FIELDS = z.object({
  name: z.optional(z.string()),
  maxNumberOfAddOns: z.optional(z.nullable(z.int())),
  prompt: z.optional(z.nullable(z.string())),
  addOnIds: z.optional(z.array(z.string())),
});
export type GroupFields = z.infer<typeof GROUP_FIELDS>;

/**
 * One group of a service and what it becomes: `match` finds it (its id, else the first group of that name), `to`
 * gives the fields it has after (only those named change), or `null` when it is deleted. A group `match` does
 * not find is created from `to` (which then has a name).
 */
const GROUP_VALUE = z.object({ match: z.object({ id: z.optional(z.string()), name: z.optional(z.string()) }), to: z.nullable(GROUP_FIELDS) });
export type GroupValue = z.infer<typeof GROUP_VALUE>;

const FIELDS = ['name', 'maxNumberOfAddOns', 'prompt', 'addOnIds'] as const;

/** The group of the service that `match` names, if any. */
export function groupOf(s: Service, match: GroupValue['match']): AddOnGroup | undefined {
  const groups = s.addOnGroups ?? [];
  return match.id !== undefined ? groups.find((g) => g.id === match.id) : groups.find((g) => g.name === match.name);
}

/** A field of a group as the value compares it (an absent limit or prompt is `null`, absent add-ons are none). */
function fieldOf(g: AddOnGroup, k: (typeof FIELDS)[number]): unknown {
  if (k === 'addOnIds') return g.addOnIds ?? [];
  return g[k] ?? null;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The group's every field, as a value that makes it again. */
function wholeGroup(g: AddOnGroup): GroupFields {
  return { name: g.name ?? '', maxNumberOfAddOns: g.maxNumberOfAddOns ?? null, prompt: g.prompt ?? null, addOnIds: g.addOnIds ?? [] };
}

/** The group fields as the platform takes them (a `null` field left out: it is cleared through the mask). */
function wire(to: GroupFields): Record<string, unknown> {
  return Object.fromEntries(Object.entries(to).filter(([, v]) => v !== null && v !== undefined));
}

/** The service's revision after a group call (the calls answer the group, not the service). */
async function revisionOf(api: ApiClient, serviceId: string, signal?: AbortSignal): Promise<{ revision?: string }> {
  const { service } = await services.getService(api, { serviceId }, { signal });
  return { revision: service.revision ?? undefined };
}

/** The add-on group verb (see the module comment); `sitectl history` lists it as `add-on-groups`. */
export const ADD_ON_GROUPS_VERB: ValueVerb<ServiceEntity, GroupValue> = {
  view: SERVICE_VIEW,
  name: 'add-on-groups',
  done: 'updated',
  title: 'Changing add-on groups',
  value: GROUP_VALUE,
  holds(s, v) {
    const g = groupOf(s, v.match);
    if (v.to === null) return g === undefined;
    const to = v.to;
    return g !== undefined && FIELDS.every((k) => to[k] === undefined || same(fieldOf(g, k), to[k]));
  },
  inverse(s, v) {
    const g = groupOf(s, v.match);
    if (!g) return { match: { name: v.to?.name ?? v.match.name ?? '' }, to: null };
    if (v.to === null) return { match: { name: g.name ?? '' }, to: wholeGroup(g) };
    const to = v.to;
    const before: GroupFields = {};
    for (const k of FIELDS) if (to[k] !== undefined) Object.assign(before, { [k]: fieldOf(g, k) });
    return { match: { id: g.id ?? undefined }, to: before };
  },
  async send(api, s, v, signal) {
    const g = groupOf(s, v.match);
    if (v.to === null) {
      if (g) await services.deleteAddOnGroup(api, { serviceId: s.id, addOnGroupId: g.id! }, { signal });
      return revisionOf(api, s.id, signal);
    }
    if (!g) {
      await services.createAddOnGroup(api, { serviceId: s.id, addOnGroup: { ...wire(v.to), name: v.to.name ?? v.match.name ?? '' } }, { signal });
      return revisionOf(api, s.id, signal);
    }
    const named = FIELDS.filter((k) => v.to![k] !== undefined);
    // Only the add-ons, in a new order or set: the platform's own call for it; else the update with a mask.
    if (named.length === 1 && named[0] === 'addOnIds' && v.to.addOnIds!.length > 0) {
      await services.setAddOnsForGroup(api, { serviceId: s.id, groupId: g.id!, addOnIds: v.to.addOnIds! }, { signal });
    } else {
      await services.updateAddOnGroup(api, { serviceId: s.id, addOnGroup: { ...wire(v.to), id: g.id! }, mask: named.join(',') }, { signal });
    }
    return revisionOf(api, s.id, signal);
  },
};
