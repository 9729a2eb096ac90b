/**
 * `sitectl services categories list|count|get|update|delete|move` (Bookings Categories v2, the SDK module
 * `@wix/auto_sdk_bookings_categories-v-2`; docs/wire.md §14 "Categories"): the categories that order services on
 * the site and in the dashboard. `list` and `count` are the shared read verbs over the categories query and count
 * call. A category is named by id, a unique id prefix or its exact name. Every write is a one-item plan of the
 * bulk engine, journaled: `update --name` (renamed back by `sitectl undo`), `delete` (destructive: asks, `--yes`;
 * its services keep naming it, hidden from customers, until given another category; undone by a re-create with a
 * new id), `move --first|--last|--after OTHER` (moved back by the undo).
 */
import type { Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import { collect, items, listPages } from '../../api/paging.js';
import type { Category } from '../../api/schemas/service.js';
import { categories, categoriesFamily, MAX_CATEGORY_NAME } from '../../api/service-furniture.js';
import type { Context } from '../../context.js';
import { ExitCode, UserError } from '../../core/errors.js';
import { addFormatFlags, printRecord, resolveFormat, fieldsChecker, type FormatFlags } from '../../core/output.js';
import { oneLine } from '../../core/text.js';
import { declareRule, DESTRUCTIVE, REVERSIBLE } from '../shared/confirm.js';
import { deleteRun, type DeleteSpec } from '../shared/delete.js';
import type { EntityView } from '../shared/entity-view.js';
import { isIdPrefix } from '../shared/ids.js';
import { countVerb, formatOf, listVerb } from '../shared/verbs.js';
import { changeOfFields } from '../shared/writes.js';
import { CATEGORY_READS, CATEGORY_VIEW, CATEGORY_WRITES, type CategoryMove, type CategoryPlace, MOVE_VERB } from './shared/category-writes.js';

type Cat = Category & { revision?: string };

/** Every category of the site, in the site's order (sortOrder). */
async function allCategories(ctx: Context, api: ApiClient): Promise<Cat[]> {
  const pages = listPages(api, categoriesFamily.operations.queryCategories, { sort: [{ fieldName: 'sortOrder', order: 'ASC' }], signal: ctx.signal });
  return (await collect(items(pages))) as Cat[];
}

/**
 * The category `given` names: its id, a unique id prefix, or its exact name (case-insensitive).
 * @throws UserError exit 2 for an empty name, no match (naming the list) or an ambiguous one
 */
export async function categoryOf(ctx: Context, api: ApiClient, given: string, all?: Cat[]): Promise<Cat> {
  const text = given.trim();
  if (text === '') throw new UserError('the category is empty', `'${ctx.bin} services categories list' shows them`);
  const list = all ?? (await allCategories(ctx, api));
  const exact = list.find((c) => c.id === text);
  if (exact) return exact;
  const lower = text.toLowerCase();
  const byPrefix = isIdPrefix(text) ? list.filter((c) => c.id.toLowerCase().startsWith(lower)) : [];
  const found = byPrefix.length ? byPrefix : list.filter((c) => (c.name ?? '').toLowerCase() === lower);
  if (found.length === 1) return found[0]!;
  if (found.length > 1) throw new UserError(`category '${given}' is ambiguous: ${found.map((c) => `${c.id} (${c.name ?? ''})`).join(', ')}`, 'give the full id');
  throw new UserError(`no category '${given}' on this site`, `'${ctx.bin} services categories list' shows them`, ExitCode.Usage);
}

const label = (c: Cat) => `category "${oneLine(c.name ?? '')}" (${c.id})`;

/** `get CATEGORY`: one category (getCategory), as a readable view, TSV or JSON. @throws UserError (exit 2) */
export async function runGet(opts: FormatFlags & { category: string }, ctx: Context): Promise<void> {
  const format = formatOf(ctx, CATEGORY_VIEW, opts);
  const api = await ctx.api();
  const id = (await categoryOf(ctx, api, opts.category)).id;
  const { category } = await categories.getCategory(api, { categoryId: id }, { signal: ctx.signal });
  await printRecord(ctx.io, format, category, { rows: CATEGORY_VIEW.rows(category), columns: CATEGORY_VIEW.columns, now: ctx.now() });
}

/**
 * `update CATEGORY --name NAME`: renamed at its revision (its services show the new name), a one-item plan;
 * journaled, so `sitectl undo` renames it back if unchanged since.
 * @throws UserError (exit 2) for no --name, a blank or too long one, an unknown category
 */
export async function runUpdate(opts: FormatFlags & { category: string; name?: string }, ctx: Context): Promise<void> {
  resolveFormat(opts, fieldsChecker(['id', 'name', 'sortOrder', 'revision', 'createdDate', 'updatedDate']));
  if (opts.name === undefined) throw new UserError('nothing to change', `give the new name: ${ctx.bin} services categories update ${opts.category} --name 'New name'`);
  const name = opts.name.trim();
  if (name === '') throw new UserError('--name: a category needs a name');
  if (name.length > MAX_CATEGORY_NAME) throw new UserError(`--name: at most ${MAX_CATEGORY_NAME} characters, got ${name.length}`);
  const { runUpdateOne } = await import('../shared/one.js');
  await runUpdateOne(ctx, {
    spec: CATEGORY_WRITES,
    given: opts.category,
    change: changeOfFields({ name }),
    flags: opts,
    command: 'services categories update',
    resolve: async (api) => (await categoryOf(ctx, api, opts.category)).id,
    outcome: (after: Cat) => `Renamed ${label(after)}`,
  });
}

/** The shared delete over categories, one call each (the single form's; undone by re-creating). */
const CATEGORY_DELETE: DeleteSpec<unknown> = {
  view: CATEGORY_VIEW as EntityView<unknown>,
  command: 'services categories delete',
  examples: [],
  send: (api) => CATEGORY_WRITES.remove.send(api),
  chunkSize: 1,
};

/**
 * `delete CATEGORY`: asks first; a one-item plan of the shared delete, journaled with the category, so `sitectl
 * undo` re-creates it (a new id). Its services keep naming it (the platform's rule).
 * @throws UserError (exit 2), DeclinedError
 */
export async function runDelete(opts: FormatFlags & { category: string; yes?: boolean }, ctx: Context): Promise<void> {
  const { runOneVerb } = await import('../shared/one.js');
  await runOneVerb(ctx, {
    view: CATEGORY_VIEW as EntityView<unknown>,
    title: 'Deleting',
    build: (api) => deleteRun(CATEGORY_DELETE, api, {}),
    resolve: async (api) => (await categoryOf(ctx, api, opts.category)).id,
    flags: opts,
    command: 'services categories delete',
    one: {
      given: opts.category,
      rule: DESTRUCTIVE,
      question: (c: Cat) => `Delete ${label(c)}? Its services keep naming it and are hidden from customers until given another category. An undo re-creates it with a new id.`,
      outcome: (_after: never, _l: string, c: Cat) => `deleted ${label(c)}; its services still name it (give them another: services update --set category.id=ID)`,
      result: { fields: ['id', 'deleted'], value: (id) => ({ id, deleted: true }) },
    },
  });
}

/** The flags of `move`: exactly one of --first, --last, --after. */
interface MoveFlags extends FormatFlags {
  category: string;
  first?: boolean;
  last?: boolean;
  after?: string;
}

/**
 * `move CATEGORY --first|--last|--after OTHER`: a one-item plan of the move verb, journaled with where it was (after
 * the category it followed, or first), so `sitectl undo` moves it back. Prints the category with its new order.
 * @throws UserError (exit 2) for none or several of the flags, an unknown category, after itself
 */
export async function runMove(opts: MoveFlags, ctx: Context): Promise<void> {
  const given = [opts.first ? 'first' : '', opts.last ? 'last' : '', opts.after !== undefined ? 'after' : ''].filter(Boolean);
  if (given.length !== 1) throw new UserError('say where: one of --first, --last or --after CATEGORY', `e.g. ${ctx.bin} services categories move 'Yoga' --first`);
  resolveFormat(opts, fieldsChecker(['id', 'name', 'sortOrder', 'revision', 'createdDate', 'updatedDate']));
  const { runValueVerb } = await import('../shared/one.js');
  let move: CategoryMove | undefined;
  const find = async (api: ApiClient): Promise<string> => {
    const all = await allCategories(ctx, api);
    const category = await categoryOf(ctx, api, opts.category, all);
    let place: CategoryPlace = { position: opts.first ? 'FIRST' : 'LAST' };
    if (opts.after !== undefined) {
      const other = await categoryOf(ctx, api, opts.after, all);
      if (other.id === category.id) throw new UserError('--after: a category cannot be moved after itself');
      place = { position: 'AFTER_CATEGORY', after: other.id };
    }
    const at = all.findIndex((c) => c.id === category.id);
    const former: CategoryPlace = at > 0 ? { position: 'AFTER_CATEGORY', after: all[at - 1]!.id } : { position: 'FIRST' };
    move = { ...place, former };
    return category.id;
  };
  await runValueVerb(ctx, {
    verb: MOVE_VERB,
    given: opts.category,
    find,
    to: () => move!,
    flags: opts,
    command: 'services categories move',
    one: () => ({
      rule: REVERSIBLE,
      outcome: (after: Cat, _l: string, before: Cat) => `Moved ${label(after ?? before)} ${opts.first ? 'first' : opts.last ? 'last' : `after ${opts.after}`}`,
    }),
  });
}

/** Adds list, count, get, update, delete and move under `services categories`. */
export function registerCategoryVerbs(group: Command, ctx: Context): void {
  const examples = (lines: string[]) => `\nExamples:\n${lines.map((l) => `  ${l}`).join('\n')}`;
  listVerb({
    ...CATEGORY_READS,
    description: "List service categories (in the site's order)",
    examples: ['sitectl services categories list', "sitectl services categories list --where name=Fitness --json id,name,revision"],
  }).register(group, ctx);
  countVerb(CATEGORY_READS).register(group, ctx);
  const get = group.command('get').alias('view').description('Show one service category').argument('<category>', 'category id, unique id prefix, or exact name');
  addFormatFlags(get.addHelpText('after', examples(["sitectl services categories get Fitness", "sitectl services categories get 'Hair & Beauty' --json id,name,revision"]))).action(async (category: string, o: FormatFlags) => {
    await runGet({ ...o, category }, ctx);
  });
  const update = group
    .command('update')
    .description('Rename a service category (its services show the new name)')
    .argument('<category>', 'category id, unique id prefix, or exact name')
    .option('--name <name>', `the new name (1-${MAX_CATEGORY_NAME} characters)`)
    .addHelpText('after', examples(["sitectl services categories update 'Arts & Crafts' --name 'Arts and Crafts'"]));
  declareRule(addFormatFlags(update), REVERSIBLE).action(async (category: string, o: FormatFlags & { name?: string }) => {
    await runUpdate({ ...o, category }, ctx);
  });
  const del = group
    .command('delete')
    .description('Delete a service category (its services keep naming it, hidden from customers)')
    .argument('<category>', 'category id, unique id prefix, or exact name')
    .addHelpText('after', examples(["sitectl services categories delete 'Arts & Crafts' --yes"]));
  declareRule(addFormatFlags(del), DESTRUCTIVE).action(async (category: string, o: FormatFlags & { yes?: boolean }) => {
    await runDelete({ ...o, category }, ctx);
  });
  const move = group
    .command('move')
    .description('Move a service category first, last or after another one')
    .argument('<category>', 'category id, unique id prefix, or exact name')
    .option('--first', 'to the start of the order')
    .option('--last', 'to the end of the order')
    .option('--after <category>', 'right after this category')
    .addHelpText('after', examples(["sitectl services categories move Fitness --first", "sitectl services categories move 'Hair & Beauty' --after Fitness"]));
  declareRule(addFormatFlags(move), REVERSIBLE).action(async (category: string, o: Omit<MoveFlags, 'category'>) => {
    await runMove({ ...o, category }, ctx);
  });
}
