/**
 * Service categories as the one verb engine sees them (Bookings Categories v2; docs/wire.md §14 "Categories"):
 * the view (over the categories query), the read spec of `list` and `count` (the platform's count call), the
 * entry of the writes table (commands/shared/writes.ts: created by `services apply --create-missing` and undone by
 * a delete; renamed at the planned revision and renamed back; deleted and re-created from the before-image, a new
 * id), and the move as a value verb (commands/shared/values.ts) whose undo puts the category back after the one it
 * followed (or first).
 */
import * as z from 'zod/mini';
import { categories, categoriesFamily, CategoryPositionValues } from '../../../api/service-furniture.js';
import { Category } from '../../../api/schemas/service.js';
import { eachSender } from '../../../bulk/actions.js';
import type { EntityView } from '../../shared/entity-view.js';
import type { ValueVerb } from '../../shared/values.js';
import { countCall, type ReadSpec } from '../../shared/verbs.js';
import { createCall, patchSender, type WriteSpec } from '../../shared/writes.js';

const ops = categoriesFamily.operations;

/** A service category (`services categories ...`). */
export const CATEGORY_VIEW: EntityView<Category> = {
  noun: { one: 'category', many: 'categories' },
  schema: Category,
  columns: [{ key: 'id', id: true, noTruncate: true }, { key: 'name' }, { key: 'sortOrder', header: 'ORDER', align: 'right', priority: 1 }],
  rows: (c) => Object.entries(c).filter(([, v]) => v !== undefined && v !== null),
  readOnly: ['id', 'revision', 'createdDate', 'updatedDate', 'sortOrder'],
  query: ops.queryCategories,
  label: (c) => c.name ?? undefined,
  filterExample: '{"name":{"$startsWith":"Yoga"}}',
};

/** What `services categories list` and `count` select: any `--filter`/`--where`; counted by the platform's count call. */
export const CATEGORY_READS: ReadSpec<Category> = {
  view: CATEGORY_VIEW,
  defaultSort: 'sortOrder',
  count: countCall(ops.countCategories, (filter) => (filter ? { filter } : {}), (reply) => reply.count),
};

export const CATEGORY_WRITES: WriteSpec & Required<Pick<WriteSpec, 'remove'>> = {
  view: CATEGORY_VIEW as EntityView<unknown>,
  list: 'services categories list',
  patch: (api, changeOf, seen) =>
    patchSender(api, ops.updateCategory, (body) => ({ category: { ...body, id: String(body.id), revision: (body.revision as string | undefined) ?? '0' } }), (reply) => reply.category, { changeOf, seen }),
  create: createCall(ops.createCategory, (body) => ({ category: { ...body, name: String(body.name) } }), (reply) => reply.category),
  remove: { send: (api) => eachSender(api, ops.deleteCategory, (item) => ({ categoryId: item.id })), chunkSize: 1 },
  recreate: {
    body: (before) => ({ name: before.name }),
    note: 're-created categories get new ids and go last; the services that named the deleted ones still name the old ids (give them the new one with services update --set category.id=ID)',
  },
};

/** Where `services categories move` puts a category: first, last, or after another one. */
const PLACE = z.object({ position: z.enum(CategoryPositionValues), after: z.optional(z.string()) });
export type CategoryPlace = z.infer<typeof PLACE>;

/** A move: the place asked for, and where the category was (read before the move: the before-image). */
const MOVE_VALUE = z.object({ ...PLACE.shape, former: z.optional(PLACE) });
export type CategoryMove = z.infer<typeof MOVE_VALUE>;

/**
 * `services categories move`: the category's place in the order (moveCategory). Sent every time (a category does
 * not know its neighbours). Undo: moved back to where it was (after the category it followed, or first), if it
 * still has the revision the move left.
 */
export const MOVE_VERB: ValueVerb<Category, CategoryMove> = {
  view: CATEGORY_VIEW as EntityView<unknown>,
  name: 'move',
  done: 'moved',
  title: 'Moving',
  value: MOVE_VALUE,
  holds: () => false,
  inverse: (_c, v) => v.former ?? { position: 'FIRST' },
  async send(api, c, v, signal) {
    const reply = await categories.moveCategory(api, { categoryId: c.id, position: v.position, ...(v.after ? { afterCategoryId: v.after } : {}) }, { signal });
    return { revision: reply.category?.revision ?? undefined };
  },
};
