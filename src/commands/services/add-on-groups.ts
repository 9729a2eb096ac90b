/**
 * `sitectl services add-on-groups list|create|update|delete|set-add-ons SERVICE_ID ...`: the add-on groups of a
 * service (docs/manual/commands.md "Add-on groups"; docs/wire.md "Add-on groups and add-ons"). `list` reads the
 * groups with their add-ons' names and prices; the writes are one value verb of the service
 * (services/shared/add-on-values.ts), run through the bulk engine as a one-item plan, journaled, undone by
 * `sitectl undo`. Everything given is checked before the first write: the service and group exist, a new group's
 * name is free and the service has room for it (3 groups), every add-on id is an add-on of the site, at most 7.
 */
import type { Command } from 'commander';
import { addOns } from '../../api/add-ons.js';
import type { ApiClient } from '../../api/client.js';
import { ApiError } from '../../api/errors.js';
import type { Service } from '../../api/schemas/service.js';
import { ADD_ON_NAME_MAX, ADD_ON_PROMPT_MAX, MAX_ADD_ON_GROUPS, MAX_ADD_ONS_PER_GROUP } from '../../api/schemas/service-add-ons.js';
import { services } from '../../api/services.js';
import type { Context } from '../../context.js';
import { NotFoundError, UserError } from '../../core/errors.js';
import { collect } from '../../core/filters.js';
import { addFormatFlags, type Column, type FormatFlags, printRecords, printValue, resolveFormat } from '../../core/output.js';
import { declareRule, DESTRUCTIVE, REVERSIBLE, type VerbRule } from '../shared/confirm.js';
import { formatOf, idOf } from '../shared/verbs.js';
import type { GroupFields, GroupValue } from './shared/add-on-values.js';
import { SERVICE_VIEW } from './shared/view.js';

/** The flags of the group writes. */
export interface GroupFlags extends FormatFlags {
  name?: string;
  max?: string;
  prompt?: string;
  addOn: string[];
  yes?: boolean;
}

type Row = { groupId: string; groupName: string; maxNumberOfAddOns: number | null; prompt: string | null; addOns: string; details: unknown };

const COLUMNS: Column<Row>[] = [
  { key: 'groupId', header: 'ID', id: true, noTruncate: true },
  { key: 'groupName', header: 'NAME' },
  { key: 'maxNumberOfAddOns', header: 'MAX', align: 'right' },
  { key: 'addOns', header: 'ADD-ONS', priority: 1 },
  { key: 'prompt', priority: 2 },
];

export function register(parent: Command, ctx: Context): void {
  const groups = parent.command('add-on-groups').description('Add-on groups of a service: list, create, update, delete, set their add-ons');
  addFormatFlags(groups.command('list').alias('ls').description("List a service's add-on groups and their add-ons").argument('<serviceId>', 'service id (or a unique prefix)')).action(
    async (serviceId: string, o: FormatFlags) => {
      await list(serviceId, o, ctx);
    },
  );
  const fields = (cmd: Command) =>
    cmd
      .option('--name <text>', `the group's name (at most ${ADD_ON_NAME_MAX} characters)`)
      .option('--max <n>', `most different add-ons a customer may pick from the group (1-${MAX_ADD_ONS_PER_GROUP}; 0: no limit)`)
      .option('--prompt <text>', `the text customers see (at most ${ADD_ON_PROMPT_MAX} characters; "" clears it)`)
      .option('--add-on <id>', `an add-on of the group, in display order (repeatable, at most ${MAX_ADD_ONS_PER_GROUP}; replaces the group's)`, collect, []);
  const write = (cmd: Command, rule: VerbRule, verb: Verb) =>
    declareRule(addFormatFlags(cmd), rule).action(async (...args: unknown[]) => {
      const o = args.at(-2) as GroupFlags;
      const given = args.slice(0, -2).flat() as string[];
      await run(verb, given, o, ctx);
    });
  write(fields(groups.command('create').description('Create an add-on group on a service').argument('<serviceId>', 'service id (or a unique prefix)')), REVERSIBLE, 'create');
  write(fields(groups.command('update').description('Change the name, limit, prompt or add-ons of a group').argument('<serviceId>', 'service id (or a unique prefix)').argument('<groupId>', 'add-on group id')), REVERSIBLE, 'update');
  write(groups.command('delete').description('Delete an add-on group (its add-ons stay)').argument('<serviceId>', 'service id (or a unique prefix)').argument('<groupId>', 'add-on group id'), DESTRUCTIVE, 'delete');
  write(
    groups.command('set-add-ons').description("Replace a group's add-ons, in display order").argument('<serviceId>', 'service id (or a unique prefix)').argument('<groupId>', 'add-on group id').argument('<addOnIds...>', 'add-on ids'),
    REVERSIBLE,
    'set-add-ons',
  );
  groups.addHelpText('after', '\nExamples:\n  sitectl services add-on-groups create SERVICE --name Extras --max 2 --add-on ADDON1 --add-on ADDON2\n  sitectl services add-on-groups set-add-ons SERVICE GROUP ADDON2 ADDON1');
}

/**
 * Prints the service's groups, one row each (`--json`: the platform's group details, each add-on with its name,
 * price and duration or largest quantity). @throws NotFoundError (exit 1) for an unknown service
 */
export async function list(given: string, opts: FormatFlags, ctx: Context): Promise<void> {
  const api = await ctx.api();
  const serviceId = await idOf(ctx, api, SERVICE_VIEW, given);
  const format = resolveFormat(opts);
  const { addOnGroupsDetails } = await services.listAddOnGroupsByServiceId(api, { serviceId }, { signal: ctx.signal });
  const rows: Row[] = addOnGroupsDetails.map((g) => ({
    groupId: g.groupId ?? '',
    groupName: g.groupName ?? '',
    maxNumberOfAddOns: g.maxNumberOfAddOns ?? null,
    prompt: g.prompt ?? null,
    addOns: (g.addOns ?? []).map((a) => `${a.name ?? a.addOnId} (${a.price?.value ?? '?'} ${a.price?.currency ?? ''})`).join(', '),
    details: g,
  }));
  if (format.kind !== 'table') {
    await printValue(ctx.io, format, addOnGroupsDetails);
    return;
  }
  await printRecords(ctx.io, format, rows, COLUMNS, { now: ctx.now(), empty: `Service ${serviceId} has no add-on groups.` });
}

type Verb = 'create' | 'update' | 'delete' | 'set-add-ons';
const TITLES: Record<Verb, string> = { create: 'Creating an add-on group of', update: 'Updating an add-on group of', delete: 'Deleting an add-on group of', 'set-add-ons': 'Setting the add-ons of a group of' };

/**
 * The group's fields from the flags, each checked.
 * @throws UserError (exit 2) for a blank or long name, a limit that is not 0-7, a long prompt, more than 7 add-ons
 */
export function fieldsOf(o: Partial<GroupFlags>, addOnIds: readonly string[] = o.addOn ?? []): GroupFields {
  const to: GroupFields = {};
  if (o.name !== undefined) {
    if (o.name.trim() === '' || o.name.length > ADD_ON_NAME_MAX) throw new UserError(`--name must be 1 to ${ADD_ON_NAME_MAX} characters`);
    to.name = o.name.trim();
  }
  if (o.max !== undefined) {
    const n = Number(o.max);
    if (!Number.isInteger(n) || n < 0 || n > MAX_ADD_ONS_PER_GROUP) throw new UserError(`--max must be a whole number from 0 (no limit) to ${MAX_ADD_ONS_PER_GROUP}, not '${o.max}'`);
    to.maxNumberOfAddOns = n === 0 ? null : n;
  }
  if (o.prompt !== undefined) {
    if (o.prompt.length > ADD_ON_PROMPT_MAX) throw new UserError(`--prompt is at most ${ADD_ON_PROMPT_MAX} characters`);
    to.prompt = o.prompt === '' ? null : o.prompt;
  }
  if (addOnIds.length) {
    if (addOnIds.length > MAX_ADD_ONS_PER_GROUP) throw new UserError(`a group holds at most ${MAX_ADD_ONS_PER_GROUP} add-ons, ${addOnIds.length} given`);
    if (new Set(addOnIds).size !== addOnIds.length) throw new UserError('an add-on is given twice', 'name each add-on once, in the order customers see them');
    to.addOnIds = [...addOnIds];
  }
  return to;
}

/** Every id is an add-on of the site. @throws UserError (exit 2) naming the unknown ones; nothing was changed */
async function checkAddOns(ctx: Context, api: ApiClient, ids: readonly string[]): Promise<void> {
  const unknown: string[] = [];
  for (const addOnId of ids) {
    try {
      await addOns.getAddOn(api, { addOnId }, { signal: ctx.signal });
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) unknown.push(addOnId);
      else throw err;
    }
  }
  if (unknown.length) throw new UserError(`no add-on ${unknown.map((id) => `'${id}'`).join(', ')} on this site; nothing was changed`);
}

/**
 * One group write as a one-item value verb of the service (see the module comment).
 * @throws UserError (exit 2) for bad flags, a taken name, a fourth group, unknown add-ons, nothing to change;
 *   NotFoundError (exit 1) for an unknown service or a group it does not have; DeclinedError; API errors otherwise
 */
export async function run(verb: Verb, given: string[], o: GroupFlags, ctx: Context): Promise<void> {
  const [serviceGiven, groupId, ...rest] = given as [string, string | undefined, ...string[]];
  const to: GroupFields | null = verb === 'delete' ? null : fieldsOf(o, verb === 'set-add-ons' ? rest : o.addOn);
  if (verb === 'create' && to?.name === undefined) throw new UserError('give the new group a --name');
  if (verb === 'update' && to && Object.keys(to).length === 0) throw new UserError('nothing to change', 'give --name, --max, --prompt or --add-on');
  const match: GroupValue['match'] = verb === 'create' ? { name: to!.name! } : { id: groupId! };
  const [{ runValueVerb }, { ADD_ON_GROUPS_VERB, groupOf }] = await Promise.all([import('../shared/one.js'), import('./shared/add-on-values.js')]);
  let label = groupId ?? to?.name ?? '';
  const find = async (api: ApiClient): Promise<string> => {
    const id = await idOf(ctx, api, SERVICE_VIEW, serviceGiven);
    const { service } = await services.getService(api, { serviceId: id }, { signal: ctx.signal });
    const groups = (service as Service).addOnGroups ?? [];
    if (verb === 'create') {
      if (groups.some((g) => g.name === to!.name)) throw new UserError(`service ${id} has a group named '${to!.name}' already`, `'${ctx.bin} services add-on-groups update ${id} GROUP_ID' changes it`);
      if (groups.length >= MAX_ADD_ON_GROUPS) throw new UserError(`service ${id} has ${MAX_ADD_ON_GROUPS} add-on groups, the most a service may have`, `'${ctx.bin} services add-on-groups delete ${id} GROUP_ID' makes room`);
    } else {
      const g = groupOf(service as Service, match);
      if (!g) throw new NotFoundError(`service ${id} has no add-on group '${groupId}'`, `'${ctx.bin} services add-on-groups list ${id}' shows its groups`);
      label = `${g.name ?? ''} (${g.id})`;
    }
    if (to?.addOnIds?.length) await checkAddOns(ctx, api, to.addOnIds);
    return id;
  };
  const groupsOf = (s: unknown) => ((s as Service).addOnGroups ?? []) as Array<{ id?: string | null; name?: string | null; addOnIds?: string[] | null }>;
  await runValueVerb(ctx, {
    verb: ADD_ON_GROUPS_VERB,
    given: serviceGiven,
    find,
    to: () => ({ match, to }),
    view: {
      noun: SERVICE_VIEW.noun,
      label: (s) => SERVICE_VIEW.label(s as Service),
      format: (flags) => formatOf(ctx, SERVICE_VIEW, flags),
      print: (c, format, s) =>
        format.kind === 'table'
          ? printValue(c.io, format, groupsOf(s), { text: groupsOf(s).map((g) => `${g.id}\t${g.name}\t${(g.addOnIds ?? []).length} add-on(s)`).join('\n') })
          : printValue(c.io, format, s),
    },
    title: TITLES[verb],
    flags: o,
    command: `services add-on-groups ${verb}`,
    one: (id) => ({
      rule: verb === 'delete' ? DESTRUCTIVE : REVERSIBLE,
      question: () => `Delete add-on group ${label} of service ${id()}?`,
      already: () => (verb === 'create' ? `service ${id()} has this group already` : `group ${label} of service ${id()} is so already`),
      outcome: (after: Service) => `${verb === 'create' ? 'Created' : verb === 'delete' ? 'Deleted' : 'Updated'} add-on group ${verb === 'create' ? `'${to!.name}'` : label}; service ${id()} has ${after.addOnGroups?.length ?? 0} group(s) (revision ${after.revision ?? '?'})`,
    }),
  });
}
