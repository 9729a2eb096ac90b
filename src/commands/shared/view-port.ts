/**
 * The bulk engine's port of a noun, derived from its EntityView (docs/architecture.md "Bulk runs, the journal,
 * history and undo"): the view's query (sorted by id, paged), its request fields, the entity of each item
 * (`fromItem`), its documented filter paths (`paths.toWire`), its list parameters and its one-entity read for a
 * list that cannot select by id, and its label. A verb declaration adds only what its operation needs to read
 * besides (`params`: the allowed actions of bookings). No noun writes a port of its own.
 */
import type { ApiClient } from '../../api/client.js';
import { ApiError } from '../../api/errors.js';
import { type Entity, type EntityPort, queryPort } from '../../bulk/port.js';
import { type EntityView, wireFilter } from './entity-view.js';

/**
 * The port over `view`'s query.
 * @typeParam E the entities the view's query gives (its family's entity, with its id): a verb that reads them
 *   typed names it here, once, instead of casting the port where it sends
 * @param params request fields the verb's plan reads besides the view's own (they override the view's)
 */
export function viewPort<E extends Entity = Entity>(api: ApiClient, view: EntityView<unknown>, params?: Record<string, unknown>): EntityPort<E> {
  const getOne = view.getOne;
  const fromItem = view.fromItem;
  // The view's query parses each item with its family's schema, so its entities are the view's E.
  return queryPort(api, {
    query: view.query,
    noun: view.noun,
    params: view.params || params ? { ...view.params, ...params } : undefined,
    label: (e) => view.label(e) ?? undefined,
    labelFields: view.labelFields,
    entity: fromItem ? (item) => fromItem(item) as Entity : undefined,
    wire: view.paths ? (filter) => wireFilter(view, filter)! : undefined,
    listParams: view.listParams,
    getOne: getOne
      ? async (id, signal) => {
          try {
            return (await getOne(api, id, signal)) as Entity;
          } catch (err) {
            if (err instanceof ApiError && err.status === 404) return undefined;
            throw err;
          }
        }
      : undefined,
  }) as EntityPort<E>;
}
