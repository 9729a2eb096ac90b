/**
 * A services catalogue as a file (docs/catalogue.md "The catalogue file"): written as JSON or YAML by `services export`, read and
 * checked by `services diff`, `apply` and `clone --to-site` before any site is read or written. The schema of a
 * catalogue's service entries takes exactly what catalogue.ts `toPortable` writes; every mistake is one line naming the
 * file, the service's slug and the field (exit 2). What a catalogue is: catalogue.ts.
 */
import { parseDocument, stringify as stringifyYaml } from 'yaml';
import * as z from 'zod/mini';
import { findForbiddenKey } from '../../../api/paths.js';
import { type Filter, once, requestShapes } from '../../../api/schemas/common.js';
import { suggest } from '../../../api/schemas/introspect.js';
import { serviceInputs, ServiceTypeValues } from '../../../api/schemas/service.js';
import { ADD_ON_NAME_MAX, ADD_ON_PROMPT_MAX, MAX_ADD_ON_GROUPS, MAX_ADD_ON_QUANTITY, MAX_ADD_ONS_PER_GROUP } from '../../../api/schemas/service-add-ons.js';
import { UserError } from '../../../core/errors.js';
import { currencyOf } from '../../shared/choices.js';
import { checkFileFields } from '../../shared/fields.js';
import { type Catalogue, CATALOGUE_KIND, CATALOGUE_VERSION, FIELD_ORDER, type Furniture, type NameIndex, type PortableService } from './catalogue.js';

/** The catalogue as file text: JSON (2-space indent) or YAML, ending in a newline. */
export function serializeCatalogue(catalogue: Catalogue, format: 'json' | 'yaml'): string {
  return format === 'yaml' ? stringifyYaml(catalogue, { lineWidth: 0 }) : `${JSON.stringify(catalogue, null, 2)}\n`;
}

/** The three ways a catalogue writes a location of a service. */
const LOCATION_FORMS = '{business: NAME}, {custom: {address: {...}}} or {type: CUSTOMER}';
const SLUG_PATTERN = /^[a-z0-9-]{1,100}$/;

/**
 * The schema of one service of a catalogue file, built once on first use: exactly the fields {@link toPortable}
 * writes (no others, at the top or in a location), each reference a name (text; lists of names for staff,
 * locations and pricing plans), and the other values typed and bounded as the services request schemas say.
 * Checked when the file is read, so diff, apply and its dry run refuse the same mistakes with the same message
 * before anything is read from or written to a site.
 */
const portableServiceSchema = once(() => {
  const { ServiceChanges, ServiceCreate } = serviceInputs();
  const value = ServiceChanges.shape;
  const { AddressInput } = requestShapes();
  const ref = (what: string) => z.string({ error: `must be the name of a ${what} (text)` }).check(z.refine((v) => v.trim() !== '', `the ${what} name must not be blank`));
  const refs = (what: string, example: string) => z.array(ref(what), { error: `must be a list of ${what} names, such as [${example}]` });
  const slug = z.string({ error: 'must be a slug (text)' }).check(z.regex(SLUG_PATTERN, 'must be 1-100 characters of a-z, 0-9 and -'));
  const location = z
    .strictObject(
      {
        business: z.optional(ref('business location')),
        custom: z.optional(z.strictObject({ address: z.optional(AddressInput) }, { error: 'must be {address: {...}}' })),
        type: z.optional(z.enum(['CUSTOMER'], { error: 'must be CUSTOMER (business and custom locations are written {business: NAME} and {custom: {...}})' })),
      },
      { error: `must be one of ${LOCATION_FORMS}` },
    )
    .check(z.refine((l) => Object.keys(l).length === 1, `must be exactly one of ${LOCATION_FORMS}`));
  const name = z.string({ error: 'must be a name (text)' }).check(z.refine((v) => v.trim() !== '' && v.length <= ADD_ON_NAME_MAX, `must be 1 to ${ADD_ON_NAME_MAX} characters`));
  // An add-on by its name and terms (docs/catalogue.md "Add-on groups"): exactly one of durationInMinutes and maxQuantity.
  const addOn = z
    .strictObject({
      name,
      price: z.strictObject({ value: z.string({ error: 'must be a decimal amount as text, such as "10"' }).check(z.regex(/^\d+(\.\d+)?$/, 'must be a decimal amount, such as "10"')), currency: z.string() }),
      durationInMinutes: z.optional(z.int().check(z.gte(1), z.lte(1440))),
      maxQuantity: z.optional(z.int().check(z.gte(1), z.lte(MAX_ADD_ON_QUANTITY))),
    })
    .check(z.refine((a) => (a.durationInMinutes === undefined) !== (a.maxQuantity === undefined), 'an add-on has exactly one of durationInMinutes and maxQuantity'));
  const addOnGroup = z.strictObject({
    name,
    maxNumberOfAddOns: z.optional(z.int().check(z.gte(1), z.lte(MAX_ADD_ONS_PER_GROUP))),
    prompt: z.optional(z.string().check(z.maxLength(ADD_ON_PROMPT_MAX))),
    addOns: z.optional(z.array(addOn).check(z.maxLength(MAX_ADD_ONS_PER_GROUP))),
  });
  return z
    .strictObject({
      slug,
      previousSlugs: z.optional(z.array(slug, { error: 'must be a list of slugs' })),
      name: ServiceCreate.shape.name,
      type: z.enum(ServiceTypeValues, { error: `must be one of ${ServiceTypeValues.join(', ')}` }),
      tagLine: value.tagLine,
      description: value.description,
      category: z.optional(ref('category')),
      defaultCapacity: value.defaultCapacity,
      hidden: value.hidden,
      sortOrder: value.sortOrder,
      tags: value.tags,
      payment: value.payment,
      pricingPlans: z.optional(refs('pricing plan', 'Gold')),
      onlineBooking: value.onlineBooking,
      bookingPolicy: z.optional(ref('booking policy')),
      form: z.optional(ref('booking form')),
      locations: z.optional(z.array(location, { error: `must be a list of locations, each ${LOCATION_FORMS}` })),
      staff: z.optional(refs('staff member', 'Maya Chen')),
      schedule: value.schedule,
      conferencing: value.conferencing,
      media: value.media,
      extendedFields: value.extendedFields,
      addOnGroups: z.optional(
        z
          .array(addOnGroup, { error: 'must be a list of add-on groups, each {name, maxNumberOfAddOns?, prompt?, addOns?}' })
          .check(z.maxLength(MAX_ADD_ON_GROUPS), z.refine((gs) => new Set(gs.map((g) => g.name)).size === gs.length, 'two groups have the same name')),
      ),
    })
    .check(
      // Plan ids are the source site's: the file names plans (`pricingPlans`), which each site maps to its own.
      z.refine((s) => !(s.payment && typeof s.payment === 'object' && 'pricingPlanIds' in s.payment), {
        message: 'plan ids are not portable: name the plans in pricingPlans: [NAME, ...] instead',
        path: ['payment', 'pricingPlanIds'],
      }),
    );
});

/** A service of a catalogue as its schema types it (what {@link checkServices} lets through). */
export type PortableFields = z.output<ReturnType<typeof portableServiceSchema>>;

/** `locations[0].business` from a schema issue's path. */
function pathText(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, k) => (typeof k === 'number' ? `${out}[${k}]` : out ? `${out}.${String(k)}` : String(k)), '');
}

/**
 * Checks the services of a catalogue (from a file, or read from a site for `clone --to-site`): each an object
 * with a unique `slug`, a `name` and a `type`, and every field as {@link portableServiceSchema} says.
 * Unknown field names, at any level, are refused with a did-you-mean; with `allowUnknown`
 * (`--allow-unknown-fields`) they are let through as given (fields newer than this version). Every currency
 * (`payment...currency`) must be an ISO 4217 code.
 * @param source for messages: the file name
 * @throws UserError (exit 2) naming the source, the service and the field of the first problem
 */
export function checkServices(services: readonly unknown[], source: string, allowUnknown = false): PortableService[] {
  const seen = new Set<string>();
  const schema = portableServiceSchema();
  return services.map((s, i) => {
    const where = `${source}: services[${i}]`;
    if (!s || typeof s !== 'object' || Array.isArray(s)) throw new UserError(`${where} is not an object`);
    const entry = s as Record<string, unknown>;
    for (const key of ['slug', 'name', 'type'] as const) {
      const v = entry[key];
      if (typeof v !== 'string' || !v.trim()) throw new UserError(`${where} needs a ${key}`);
    }
    const slug = entry.slug as string;
    if (!SLUG_PATTERN.test(slug)) throw new UserError(`${where}: slug '${slug}' must be 1-100 characters of a-z, 0-9 and -`);
    if (seen.has(slug)) throw new UserError(`${where}: slug '${slug}' appears twice`);
    seen.add(slug);
    const r = z.safeParse(schema, s);
    const issues = r.success ? [] : r.error.issues.filter((x) => !(allowUnknown && x.code === 'unrecognized_keys' && x.path.length === 0));
    if (issues.length > 0) {
      // An unknown key says most about a typo (`busines`), so it is named first.
      const issue = issues.find((x) => x.code === 'unrecognized_keys') ?? issues[0]!;
      const at = pathText(issue.path);
      const known = !at ? FIELD_ORDER : /^locations\[\d+\]$/.test(at) ? ['business', 'custom', 'type'] : [];
      const guess = issue.code === 'unrecognized_keys' ? suggest(issue.keys[0]!, known) : undefined;
      const unknown = issue.code === 'unrecognized_keys' ? `unknown field '${issue.keys[0]}'${guess ? `; did you mean '${guess}'?` : ''}` : undefined;
      const text = unknown ? (at ? `${at}: ${unknown}` : unknown) : at ? `${at}: ${issue.message}` : issue.message;
      const hint =
        unknown && !at ? `fields: ${FIELD_ORDER.join(', ')}` : at.startsWith('locations') ? `a location is ${LOCATION_FORMS}; nothing was changed` : 'fix the value in the catalogue file; nothing was changed';
      throw new UserError(`${source}: service ${slug}: ${text}`, hint);
    }
    // Names below the entry's own fields (payment.fixd, schedule.availabilityConstraints.x) against the schemas.
    checkFileFields([schema], s, `${source}: service ${slug}`, allowUnknown);
    checkCurrencies(entry.payment, `${source}: service ${slug}: payment`);
    checkCurrencies(entry.addOnGroups, `${source}: service ${slug}: addOnGroups`);
    return s as PortableService;
  });
}

/** Every `currency` of a payment (`fixed.price.currency`, `varied.minPrice.currency`, ...) checked as ISO 4217. */
function checkCurrencies(node: unknown, where: string, depth = 0): void {
  if (node === null || typeof node !== 'object' || depth > 8) return;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'currency' && typeof value === 'string') currencyOf(value, `${where}.${key}`);
    else checkCurrencies(value, `${where}.${key}`, depth + 1);
  }
}

/** The top-level keys of a catalogue file: nothing else is taken, not even with `--allow-unknown-fields`. */
const TOP_LEVEL_KEYS = ['kind', 'version', 'selection', 'services'];

/**
 * The data of a YAML text, read with the YAML 1.2 core schema only: a tag outside it (`!!js/function`,
 * `!!binary`, `!!set`, a custom `!tag`) is refused rather than read as text, and so is a duplicate key.
 * @throws UserError (exit 2)
 */
function parseYamlStrict(text: string, source: string): unknown {
  const doc = parseDocument(text, { schema: 'core', uniqueKeys: true, prettyErrors: false });
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem) {
    const tag = /Unresolved tag: (\S+)/.exec(problem.message)?.[1];
    if (tag) throw new UserError(`${source}: the YAML tag ${tag.replace(/^tag:yaml\.org,2002:/, '!!')} is not allowed`, 'a catalogue uses plain YAML (the core schema): maps, lists, text, numbers, true/false, null');
    throw new UserError(`${source} is not a JSON or YAML catalogue: ${problem.message.split('\n')[0]}`);
  }
  return doc.toJS({ maxAliasCount: 100 });
}

/**
 * A catalogue read back from file text (JSON or YAML, whichever parses), checked: the top-level keys, the kind
 * and version, and a services list whose entries pass {@link checkServices}.
 * @param source for messages: the file name
 * @param allowUnknown `--allow-unknown-fields`: unknown fields of a service pass (never unknown top-level keys)
 * @throws UserError (exit 2) naming the first problem
 */
export function parseCatalogue(text: string, source: string, allowUnknown = false): Catalogue {
  let data: unknown;
  try {
    data = text.trimStart().startsWith('{') ? JSON.parse(text) : parseYamlStrict(text, source);
  } catch (err) {
    if (err instanceof UserError) throw err;
    throw new UserError(`${source} is not a JSON or YAML catalogue: ${(err as Error).message.split('\n')[0]}`);
  }
  const forbidden = findForbiddenKey(data);
  if (forbidden) throw new UserError(`${source}: "${forbidden}" is not an allowed field name`);
  const doc = data as Partial<Catalogue> | null;
  if (doc && typeof doc === 'object' && !Array.isArray(doc)) {
    const extra = Object.keys(doc).find((k) => !TOP_LEVEL_KEYS.includes(k));
    if (extra !== undefined) {
      const guess = suggest(extra, TOP_LEVEL_KEYS);
      throw new UserError(`${source}: unknown top-level key '${extra}'${guess ? `; did you mean '${guess}'?` : ''}`, `a catalogue has ${TOP_LEVEL_KEYS.join(', ')} (--allow-unknown-fields does not change that)`);
    }
  }
  if (!doc || typeof doc !== 'object' || doc.kind !== CATALOGUE_KIND) {
    throw new UserError(`${source} is not a services catalogue (it needs kind: ${CATALOGUE_KIND})`, "write one with 'services export -o FILE'");
  }
  if (doc.version !== CATALOGUE_VERSION) throw new UserError(`${source}: catalogue version ${String(doc.version)} is not supported (this sitectl reads version ${CATALOGUE_VERSION})`);
  if (!Array.isArray(doc.services)) throw new UserError(`${source}: services must be a list`);
  const selection = (doc as { selection?: unknown }).selection;
  if (selection !== undefined && (selection === null || typeof selection !== 'object' || typeof (selection as { filter?: unknown }).filter !== 'object' || (selection as { filter?: unknown }).filter === null)) {
    throw new UserError(`${source}: selection must be {filter: {...}} (as 'services export --filter' writes it)`);
  }
  const services = checkServices(doc.services, source, allowUnknown);
  return { kind: CATALOGUE_KIND, version: CATALOGUE_VERSION, ...(selection ? { selection: selection as { filter: Filter } } : {}), services };
}

/** A reference of a catalogue that a site does not have: its kind, its name, how many items bear the name (0 or 2+). */
export interface MissingRef {
  what: string;
  name: string;
  count: number;
  /** What `--create-missing` creates it with (an add-on: its name and terms); default `{name}`. */
  body?: Record<string, unknown>;
}

/** `staff member "Nobody Here"`, or `category "Yoga" (2 have that name)`. */
export function refText(m: MissingRef): string {
  return `${m.what} "${m.name}"${m.count > 1 ? ` (${m.count} have that name)` : ''}`;
}

/**
 * The references of `wanted` services that `f` (a target site's furniture) does not have, each once, sorted;
 * names that stand for several items are reported too (the file cannot say which one).
 */
export function missingReferences(wanted: readonly PortableService[], f: Furniture): MissingRef[] {
  const out = new Map<string, MissingRef>();
  const check = (index: NameIndex, name: string | undefined) => {
    if (name === undefined) return;
    const count = index.idsOf(name).length;
    if (count !== 1) out.set(`${index.what}\u0000${name.toLowerCase()}`, { what: index.what, name, count });
  };
  // The services passed checkServices (a file) or came from a site: each reference is a name, or a list of them.
  for (const s of wanted as readonly PortableFields[]) {
    for (const l of s.locations ?? []) check(f.locations, l.business);
    for (const n of s.staff ?? []) check(f.staff, n);
    for (const n of s.pricingPlans ?? []) check(f.plans, n);
    check(f.categories, s.category);
    check(f.policies, s.bookingPolicy);
    check(f.forms, s.form);
  }
  return [...out.values()].sort((a, b) => refText(a).localeCompare(refText(b)));
}
