/**
 * Service categories as the one verb engine sees them: the view (over Bookings Categories v2's query) and the
 * entry of the writes table (commands/shared/writes.ts). A category is created by `services apply
 * --create-missing` (by name); sitectl does not delete categories yet, so the create of one is journaled (in
 * `sitectl history`) but listed by `sitectl undo` as one it cannot take back.
 */
import { categoriesFamily } from '../../../api/service-furniture.js';
import { Category } from '../../../api/schemas/service.js';
import type { EntityView } from '../../shared/entity-view.js';
import { createCall, type WriteSpec } from '../../shared/writes.js';

const ops = categoriesFamily.operations;

/** A service category (`services categories list`). */
export const CATEGORY_VIEW: EntityView<Category> = {
  noun: { one: 'category', many: 'categories' },
  schema: Category,
  columns: [{ key: 'id', id: true, noTruncate: true }, { key: 'name' }, { key: 'sortOrder', header: 'ORDER', priority: 1 }],
  rows: (c) => Object.entries(c).filter(([, v]) => v !== undefined && v !== null),
  readOnly: ['id', 'revision', 'createdDate', 'updatedDate'],
  query: ops.queryCategories,
  label: (c) => c.name ?? undefined,
};

/** Why `sitectl undo` leaves the categories a change created. */
export const CATEGORIES_KEPT = 'sitectl does not delete service categories: the ones a change created are left (delete them in the dashboard)';

export const CATEGORY_WRITES: WriteSpec = {
  view: CATEGORY_VIEW as EntityView<unknown>,
  list: 'services categories list',
  create: createCall(ops.createCategory, (body) => ({ category: { ...body, name: String(body.name) } }), (reply) => reply.category),
};
