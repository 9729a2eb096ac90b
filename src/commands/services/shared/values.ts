/**
 * The value verbs of a service (commands/shared/values.ts): `services slug set`, `services locations set`,
 * `services pricing-plans add|remove` and `services booking-policies set-default`, each a one-item plan,
 * journaled with what puts the item back, so `sitectl undo` sets the former slug or locations back, unlinks what
 * was linked (links what was unlinked), or makes the former default policy the default again, if the item still
 * has the revision the change left.
 */
import * as z from 'zod/mini';
import type { ApiClient } from '../../../api/client.js';
import { type BookingPolicy, RemovedLocationSessionsActionValues, type Service, type ServiceLocation } from '../../../api/schemas/service.js';
import { bookingPolicies } from '../../../api/service-furniture.js';
import { services } from '../../../api/services.js';
import type { ValueVerb } from '../../shared/values.js';
import { POLICY_VIEW } from './policy-writes.js';
import { SERVICE_VIEW } from './view.js';

type ServiceEntity = Service & { id: string };
const view = SERVICE_VIEW;

/** `services slug set`: the service's main slug. Undo: the former main slug set back. */
export const SLUG_VERB: ValueVerb<ServiceEntity, string> = {
  view,
  name: 'slug',
  done: 'updated',
  title: 'Setting the slug',
  value: z.string(),
  holds: (s, slug) => s.mainSlug?.name === slug,
  inverse: (s) => s.mainSlug?.name ?? '',
  async send(api, s, slug, signal) {
    const reply = await services.setCustomSlug(api, { serviceId: s.id, slug }, { signal });
    return { revision: reply.service.revision ?? undefined };
  },
};

/** A location as `services locations set` takes it (the platform's ids and computed address left out). */
const LOCATION = z.union([
  z.object({ type: z.literal('BUSINESS'), business: z.object({ id: z.string() }) }),
  z.object({ type: z.literal('CUSTOM'), custom: z.object({ address: z.object({ formatted: z.string() }) }) }),
  z.object({ type: z.literal('CUSTOMER') }),
]);
export type LocationInput = z.infer<typeof LOCATION>;

/**
 * What `services locations set` gives a service: its locations, and what happens to sessions at removed ones
 * (`removed`: the platform's removedLocationSessionsAction; absent in an undo, the platform's default).
 */
const LOCATIONS_VALUE = z.object({
  locations: z.array(LOCATION),
  removed: z.optional(z.object({ action: z.enum(RemovedLocationSessionsActionValues), moveToLocationOptions: z.optional(z.object({ newLocation: LOCATION })) })),
});
export type LocationsValue = z.infer<typeof LOCATIONS_VALUE>;

/** A stored location as `services locations set` would give it. */
function inputOf(l: ServiceLocation): LocationInput {
  if (l.type === 'BUSINESS') return { type: 'BUSINESS', business: { id: l.business?.id ?? '' } };
  if (l.type === 'CUSTOM') return { type: 'CUSTOM', custom: { address: { formatted: l.custom?.address?.formatted ?? '' } } };
  return { type: 'CUSTOMER' };
}
const keyOf = (l: LocationInput) => JSON.stringify(l);

/** `services locations set`: the service's locations. Undo: the former locations set back. */
export const LOCATIONS_VERB: ValueVerb<ServiceEntity, LocationsValue> = {
  view,
  name: 'locations',
  done: 'updated',
  title: 'Setting the locations',
  value: LOCATIONS_VALUE,
  holds: (s, v) => JSON.stringify((s.locations ?? []).map(inputOf).map(keyOf).sort()) === JSON.stringify(v.locations.map(keyOf).sort()),
  inverse: (s) => ({ locations: (s.locations ?? []).map(inputOf) }),
  async send(api, s, v, signal) {
    const { service } = await services.setServiceLocations(api, { serviceId: s.id, locations: v.locations, ...(v.removed ? { removedLocationSessionsAction: v.removed } : {}) }, { signal });
    return { revision: service.revision ?? undefined };
  },
};

/** Pricing plans to link to a service and to unlink from it. */
const PLAN_LINKS = z.object({ add: z.optional(z.array(z.string())), remove: z.optional(z.array(z.string())) });
export type PlanLinks = z.infer<typeof PLAN_LINKS>;
const linked = (s: ServiceEntity) => new Set(s.payment?.pricingPlanIds ?? []);

/**
 * `services pricing-plans add|remove`: plans linked or unlinked. Undo: the opposite, for the plans the change
 * linked or unlinked (one that was linked already is left linked).
 */
export const PLANS_VERB: ValueVerb<ServiceEntity, PlanLinks> = {
  view,
  name: 'pricing-plans',
  done: 'updated',
  title: 'Linking pricing plans',
  value: PLAN_LINKS,
  holds: (s, v) => {
    const now = linked(s);
    return (v.add ?? []).every((p) => now.has(p)) && !(v.remove ?? []).some((p) => now.has(p));
  },
  inverse: (s, v) => {
    const now = linked(s);
    const remove = (v.add ?? []).filter((p) => !now.has(p));
    const add = (v.remove ?? []).filter((p) => now.has(p));
    return { ...(add.length ? { add } : {}), ...(remove.length ? { remove } : {}) };
  },
  async send(api: ApiClient, s, v, signal) {
    let revision: string | undefined;
    if (v.add?.length) revision = (await services.enablePricingPlansForService(api, { serviceId: s.id, pricingPlanIds: v.add }, { signal })).service.revision ?? undefined;
    if (v.remove?.length) revision = (await services.disablePricingPlansForService(api, { serviceId: s.id, pricingPlanIds: v.remove }, { signal })).service.revision ?? undefined;
    return { revision };
  },
};

/**
 * What `services booking-policies set-default` gives a policy: which policy is the site's default (`id`), and the
 * one that was (`former`, read before the change: the before-image).
 */
const DEFAULT_POLICY_VALUE = z.object({ id: z.string(), former: z.optional(z.string()) });
export type DefaultPolicyValue = z.infer<typeof DEFAULT_POLICY_VALUE>;

/**
 * `services booking-policies set-default`: the item is the policy made default; its value is which policy is the
 * default. The item holds it when it is the default exactly if it is that policy. Undo: the same verb on the same
 * item, with the former default as the value: the former default made the default again (so the item no longer is),
 * if the item still has the revision the change left. A site that had no default has nothing to set back.
 */
export const DEFAULT_POLICY_VERB: ValueVerb<BookingPolicy & { id: string }, DefaultPolicyValue> = {
  view: POLICY_VIEW,
  name: 'set-default',
  done: 'updated',
  title: 'Setting the default policy',
  value: DEFAULT_POLICY_VALUE,
  holds: (p, v) => Boolean(p.default) === (p.id === v.id),
  inverse: (p, v) => ({ id: v.former ?? p.id }),
  async send(api, p, v, signal) {
    const reply = await bookingPolicies.setDefaultBookingPolicy(api, { bookingPolicyId: v.id }, { signal });
    const item = [reply.currentDefaultBookingPolicy, reply.previousDefaultBookingPolicy].find((x) => x?.id === p.id);
    return { revision: item?.revision ?? undefined };
  },
};
