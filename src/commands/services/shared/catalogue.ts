/**
 * The services catalogue as a portable file (docs/catalogue.md "The catalogue file"): what `services export` writes and `services
 * diff` compares against a site.
 *
 * A catalogue is `{kind: "sitectl/services-catalogue", version: 1, services: [...]}`. Each service is keyed by
 * its main slug and holds only what another site can take: no ids, revisions, dates or server-computed values
 * (`formattedValue`, urls, calculated addresses); every reference is written by name (business locations,
 * staff members, the category, the booking policy and the booking form), so the same file applies to any site
 * of the account whose furniture has the same names. Keys are in a fixed order, services sorted by slug and
 * lists of names sorted, so the file diffs well in version control.
 *
 * Pricing plans linked to a service (`payment.pricingPlanIds`) are written as `pricingPlans: [plan names]`.
 * Add-on groups (`addOnGroups`, docs/wire.md "Add-on groups and add-ons") are written `{name, maxNumberOfAddOns?,
 * prompt?, addOns: [{name, price, durationInMinutes | maxQuantity}]}`, groups sorted by name, add-ons in display
 * order: each add-on by its name and terms, not its site-specific id.
 */
import type { ApiClient } from '../../../api/client.js';
import { listPages } from '../../../api/paging.js';
import type { Filter } from '../../../api/schemas/common.js';
import type { Service } from '../../../api/schemas/service.js';
import { serviceOps, services } from '../../../api/services.js';
import { addOnsFamily } from '../../../api/add-ons.js';
import type { AddOn } from '../../../api/schemas/service-add-ons.js';
import { planOps } from '../../../api/plans.js';
import { staffMembersFamily } from '../../../api/staff-members.js';

/** The `kind` every catalogue file carries. */
export const CATALOGUE_KIND = 'sitectl/services-catalogue';
/** The file format version this tool writes and reads. */
export const CATALOGUE_VERSION = 1;

/** A service as the catalogue holds it: `slug`, `name` and `type` always, the rest when set. */
export interface PortableService {
  slug: string;
  name: string;
  type: string;
  [field: string]: unknown;
}

/**
 * A catalogue: its services and, when it was exported with `--filter`/`--where`, that selection (wire form), which
 * bounds what `--prune` may delete on a site.
 */
export interface Catalogue {
  kind: typeof CATALOGUE_KIND;
  version: typeof CATALOGUE_VERSION;
  selection?: { filter: Filter };
  services: PortableService[];
}

/** Names of one kind of a site's furniture, by id, and the ids a name stands for. */
export class NameIndex {
  private readonly names = new Map<string, string>();
  private readonly ids = new Map<string, string[]>();

  constructor(readonly what: string) {}

  /** Records that `id` bears `name` (the id stands for itself when the item has no name). */
  add(id: string, name: string | null | undefined): void {
    const n = (name ?? '').trim() || id;
    this.names.set(id, n);
    const key = n.toLowerCase();
    this.ids.set(key, [...(this.ids.get(key) ?? []), id]);
  }

  /** The name of `id` (the id itself when the site does not list it). */
  name(id: string): string {
    return this.names.get(id) ?? id;
  }

  /** The ids `name` stands for (case-insensitive): none, one, or several when names repeat. */
  idsOf(name: string): string[] {
    return this.ids.get(name.trim().toLowerCase()) ?? [];
  }
}

/** A site's furniture that services refer to. */
export interface Furniture {
  locations: NameIndex;
  categories: NameIndex;
  policies: NameIndex;
  forms: NameIndex;
  staff: NameIndex;
  plans: NameIndex;
}

/**
 * Reads the furniture of the client's site (business locations, categories, booking policies, booking forms,
 * staff members), every page.
 * @throws ApiError from the queries
 */
export async function readFurniture(api: ApiClient, signal: AbortSignal): Promise<Furniture> {
  const f: Furniture = {
    locations: new NameIndex('business location'),
    categories: new NameIndex('category'),
    policies: new NameIndex('booking policy'),
    forms: new NameIndex('booking form'),
    staff: new NameIndex('staff member'),
    plans: new NameIndex('pricing plan'),
  };
  const [locations, categories] = await Promise.all([services.queryLocations(api, {}, { signal }), services.queryCategories(api, {}, { signal })]);
  for (const l of locations.businessLocations.locations) f.locations.add(l.id, l.name);
  for (const c of categories.categories) if (c.id) f.categories.add(c.id, c.name);
  for await (const page of listPages(api, serviceOps.queryPolicies, { signal })) for (const p of page.items) if (p.bookingPolicy.id) f.policies.add(p.bookingPolicy.id, p.bookingPolicy.name);
  for await (const page of listPages(api, serviceOps.queryBookingForms, { signal })) for (const x of page.items) f.forms.add(x.form.id, x.form.name);
  for await (const page of listPages(api, staffMembersFamily.operations.queryStaffMembers, { signal })) for (const s of page.items) f.staff.add(s.id, s.name);
  // Archived plans too: a service may still name one, and its name must read back.
  for await (const page of listPages(api, planOps.listPlans, { params: { archived: 'ARCHIVED_AND_ACTIVE' }, signal })) for (const p of page.items) if (p.id) f.plans.add(p.id, p.name);
  return f;
}

type Json = Record<string, unknown>;

/** `value` without undefined, null, empty objects and the server-computed `formattedValue`, as plain JSON. */
function clean(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(clean);
  if (value === null || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined || v === null || k === 'formattedValue') continue;
    const c = clean(v);
    if (c !== null && typeof c === 'object' && !Array.isArray(c) && Object.keys(c).length === 0) continue;
    out[k] = c;
  }
  return out;
}

/** Keys of a portable service, in the order the file writes them. */
export const FIELD_ORDER = [
  'slug',
  'previousSlugs',
  'name',
  'type',
  'tagLine',
  'description',
  'category',
  'defaultCapacity',
  'hidden',
  'sortOrder',
  'tags',
  'payment',
  'pricingPlans',
  'onlineBooking',
  'bookingPolicy',
  'form',
  'locations',
  'staff',
  'schedule',
  'conferencing',
  'media',
  'extendedFields',
  'addOnGroups',
] as const;

/** Sorts object keys (stable JSON for comparison and for files). */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortKeys((value as Json)[k])]),
  );
}

const byJson = (a: unknown, b: unknown) => JSON.stringify(a).localeCompare(JSON.stringify(b));

/** An add-on as the catalogue names it: `{name, price: {value, currency}, durationInMinutes | maxQuantity}`. */
export interface PortableAddOn {
  name: string;
  price?: { value?: string; currency?: string };
  durationInMinutes?: number;
  maxQuantity?: number;
}

/** An add-on group as the catalogue holds it (no ids). */
export interface PortableAddOnGroup {
  name: string;
  maxNumberOfAddOns?: number;
  prompt?: string;
  addOns?: PortableAddOn[];
}

/**
 * The service's add-on groups in portable form: sorted by name, each add-on named by `addOnsById` (an add-on the
 * site no longer has is written by its id as name, so a diff shows it).
 */
function portableGroups(s: Service, addOnsById: ReadonlyMap<string, AddOn>): PortableAddOnGroup[] | undefined {
  const groups = s.addOnGroups ?? [];
  if (!groups.length) return undefined;
  return groups
    .map((g): PortableAddOnGroup => {
      const addOns = (g.addOnIds ?? []).map((id): PortableAddOn => {
        const a = addOnsById.get(id);
        const price = a?.price ? (clean({ value: a.price.value, currency: a.price.currency }) as PortableAddOn['price']) : undefined;
        return clean({ name: a?.name ?? id, price, durationInMinutes: a?.durationInMinutes, maxQuantity: a?.maxQuantity }) as PortableAddOn;
      });
      return clean({ name: g.name ?? '', maxNumberOfAddOns: g.maxNumberOfAddOns, prompt: g.prompt, addOns: addOns.length ? addOns : undefined }) as PortableAddOnGroup;
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * A service of a site as the catalogue holds it: references by name (through `f`), no ids, revisions or dates.
 * @param addOnsById the site's add-ons its groups name (read by {@link readCatalogue}); without it, no `addOnGroups`
 * @returns undefined for a service without a main slug (the platform always gives one)
 */
export function toPortable(s: Service, f: Furniture, addOnsById?: ReadonlyMap<string, AddOn>): PortableService | undefined {
  const slug = s.mainSlug?.name;
  if (!slug) return undefined;
  const payment = s.payment ? { ...(clean(s.payment) as Json) } : undefined;
  if (payment) delete payment.pricingPlanIds;
  const locations = (s.locations ?? [])
    .map((l): Json => {
      if (l.type === 'BUSINESS') return { business: f.locations.name(l.business?.id ?? '') };
      if (l.type === 'CUSTOM') return { custom: sortKeys(clean({ address: l.custom?.address })) };
      return { type: String(l.type) };
    })
    .sort(byJson);
  const constraints = s.schedule?.availabilityConstraints;
  const schedule = clean({
    availabilityConstraints: constraints,
    ...(s.type !== 'APPOINTMENT' ? { firstSessionStart: s.schedule?.firstSessionStart, lastSessionEnd: s.schedule?.lastSessionEnd } : {}),
  });
  const previous = (s.supportedSlugs ?? []).map((x) => x.name).filter((n): n is string => Boolean(n) && n !== slug);
  const fields: Json = {
    slug,
    previousSlugs: previous.length ? [...new Set(previous)].sort() : undefined,
    name: s.name ?? slug,
    type: s.type ?? 'APPOINTMENT',
    tagLine: s.tagLine,
    description: s.description,
    category: s.category?.id ? f.categories.name(s.category.id) : undefined,
    defaultCapacity: s.defaultCapacity,
    hidden: s.hidden,
    sortOrder: s.sortOrder,
    tags: s.tags?.length ? [...s.tags].sort() : undefined,
    payment,
    pricingPlans: s.payment?.pricingPlanIds?.length ? s.payment.pricingPlanIds.map((id) => f.plans.name(id)).sort() : undefined,
    onlineBooking: s.onlineBooking,
    bookingPolicy: s.bookingPolicy?.id ? f.policies.name(s.bookingPolicy.id) : undefined,
    form: s.form?.id ? f.forms.name(s.form.id) : undefined,
    locations: locations.length ? locations : undefined,
    staff: s.staffMemberIds?.length ? s.staffMemberIds.map((id) => f.staff.name(id)).sort() : undefined,
    schedule,
    conferencing: s.conferencing,
    media: s.media,
    extendedFields: s.extendedFields?.namespaces && Object.keys(s.extendedFields.namespaces).length ? s.extendedFields : undefined,
    addOnGroups: addOnsById ? portableGroups(s, addOnsById) : undefined,
  };
  const out: Json = {};
  for (const key of FIELD_ORDER) {
    const v = clean(fields[key]);
    if (v === undefined || v === null) continue;
    if (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0) continue;
    out[key] = key === 'slug' || key === 'name' || key === 'type' ? v : key === 'addOnGroups' ? (v as unknown[]).map(sortKeys) : Array.isArray(v) ? v : sortKeys(v);
  }
  return out as PortableService;
}

/** A site's catalogue as read: the portable form, the furniture it was named with, and its services by main slug. */
export interface SiteCatalogue {
  catalogue: Catalogue;
  furniture: Furniture;
  services: Map<string, Service>;
}

/**
 * The catalogue of the client's site: every service matching `filter` (all without), in portable form, with the
 * services themselves (ids and revisions) by main slug.
 * @throws ApiError from the queries
 */
export async function readCatalogue(api: ApiClient, filter: Filter | undefined, signal: AbortSignal): Promise<SiteCatalogue> {
  const furniture = await readFurniture(api, signal);
  const list: PortableService[] = [];
  const services = new Map<string, Service>();
  const read: Service[] = [];
  for await (const page of listPages(api, serviceOps.queryServices, { filter, signal })) read.push(...page.items);
  const addOnsById = await readAddOns(api, read, signal);
  for (const s of read) {
    const p = toPortable(s, furniture, addOnsById);
    if (p) {
      list.push(p);
      services.set(p.slug, s);
    }
  }
  list.sort((a, b) => a.slug.localeCompare(b.slug));
  return { catalogue: { kind: CATALOGUE_KIND, version: CATALOGUE_VERSION, ...(filter && Object.keys(filter).length ? { selection: { filter } } : {}), services: list }, furniture, services };
}

/**
 * The site's add-ons by id, every page of the Add-ons API's query (docs/wire.md "Add-on groups and add-ons"); read
 * only when a service of `list` has add-on groups.
 * @throws ApiError from the query
 */
async function readAddOns(api: ApiClient, list: readonly Service[], signal: AbortSignal): Promise<Map<string, AddOn>> {
  const out = new Map<string, AddOn>();
  if (!list.some((s) => s.addOnGroups?.length)) return out;
  for await (const page of listPages(api, addOnsFamily.operations.queryAddOns, { signal })) for (const a of page.items) if (a.id) out.set(a.id, a);
  return out;
}

/** The dotted paths at which `wanted` differs from `current` (leaves; a list differs as a whole). */
export function changedPaths(wanted: unknown, current: unknown, prefix = ''): string[] {
  const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (isObj(wanted) && isObj(current)) {
    const keys = [...new Set([...Object.keys(wanted), ...Object.keys(current)])].sort();
    return keys.flatMap((k) => changedPaths(wanted[k], current[k], prefix ? `${prefix}.${k}` : k));
  }
  return JSON.stringify(sortKeys(wanted)) === JSON.stringify(sortKeys(current)) ? [] : [prefix];
}

/** What applying a catalogue to one site would do. */
export interface CatalogueDiff {
  create: string[];
  /** `renamedFrom`: the site's service holds an earlier slug of it (the source renamed it since). */
  update: { slug: string; fields: string[]; renamedFrom?: string }[];
  unchanged: number;
  delete: string[];
}

/** Fields of a portable service that are keys, not values to compare or write. */
const KEY_FIELDS = new Set(['slug', 'previousSlugs']);

/**
 * Which service of the site each wanted service is (wanted slug -> the site's slug), each site service once. A
 * service keeps its identity across renames: the platform moves a renamed service's former main slug to its
 * `supportedSlugs` (the catalogue's `previousSlugs`). So, in this order of preference, the site's service that:
 * 1. holds the wanted slug as its main slug;
 * 2. holds, as main slug, a former slug of the wanted one (the source was renamed since the site got it);
 * 3. holds the wanted slug as a former slug (the site's service was renamed since the file was written: an earlier
 *    export applies back onto it instead of planning a create the platform refuses as "slug already used");
 * 4. shares a former slug with the wanted one (both renamed since).
 * A slug that another wanted service holds as its own main slug is never matched by an earlier pass's fallback.
 */
export function matchCatalogue(wanted: Catalogue, current: Catalogue): Map<string, string> {
  const match = new Map<string, string>();
  const taken = new Set<string>();
  const wantedSlugs = new Set(wanted.services.map((w) => w.slug));
  const former = (s: PortableService): string[] => (s.previousSlugs as string[] | undefined) ?? [];
  const bySlug = new Map(current.services.map((c) => [c.slug, c]));
  const byFormer = new Map<string, PortableService[]>();
  for (const c of current.services) for (const p of former(c)) byFormer.set(p, [...(byFormer.get(p) ?? []), c]);
  // A site service another wanted service holds by its own main slug is left to that one.
  const free = (c: PortableService | undefined): c is PortableService => c !== undefined && !taken.has(c.slug) && !wantedSlugs.has(c.slug);
  const passes: ((w: PortableService) => PortableService | undefined)[] = [
    (w) => bySlug.get(w.slug),
    (w) => former(w).map((p) => bySlug.get(p)).find(free),
    (w) => byFormer.get(w.slug)?.find(free),
    (w) => former(w).flatMap((p) => byFormer.get(p) ?? []).find(free),
  ];
  for (const find of passes) {
    for (const w of wanted.services) {
      if (match.has(w.slug)) continue;
      const c = find(w);
      if (c && !taken.has(c.slug)) {
        match.set(w.slug, c.slug);
        taken.add(c.slug);
      }
    }
  }
  return match;
}

/**
 * Compares the catalogue `wanted` with a site's `current` one, service by service (matched by {@link
 * matchCatalogue}). Only the fields a wanted service holds are compared (a field left out of the file is not
 * managed by it). With `prune`, the site's services no wanted service matches are listed under `delete`, only
 * among `pruneScope` (the site's services in the catalogue's selection) when given.
 */
export function diffCatalogue(wanted: Catalogue, current: Catalogue, prune: boolean, pruneScope?: ReadonlySet<string>): CatalogueDiff {
  const bySlug = new Map(current.services.map((s) => [s.slug, s]));
  const match = matchCatalogue(wanted, current);
  const diff: CatalogueDiff = { create: [], update: [], unchanged: 0, delete: [] };
  for (const w of wanted.services) {
    const at = match.get(w.slug);
    const c = at === undefined ? undefined : bySlug.get(at);
    if (!c) {
      diff.create.push(w.slug);
      continue;
    }
    const fields = Object.keys(w)
      .filter((k) => !KEY_FIELDS.has(k))
      .flatMap((k) => changedPaths(w[k], c[k], k));
    if (fields.length) diff.update.push({ slug: w.slug, fields, ...(at !== w.slug ? { renamedFrom: at } : {}) });
    else diff.unchanged += 1;
  }
  if (prune) {
    const kept = new Set(match.values());
    diff.delete = current.services.filter((s) => !kept.has(s.slug) && (!pruneScope || pruneScope.has(s.slug))).map((s) => s.slug);
  }
  return diff;
}
