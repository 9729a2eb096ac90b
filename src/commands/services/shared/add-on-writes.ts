/**
 * Add-ons (the platform's Add-ons API, docs/wire.md §28 "Add-on groups and add-ons") as an entry of the writes
 * table (commands/shared/writes.ts): created by `services apply --create-missing` and `services clone --to-site
 * --create-missing` when a catalogue's add-on group names an add-on the target site lacks, through the bulk
 * engine as a part of the apply's change. No `remove`: the Add-ons API as sitectl speaks it has create, get and
 * query only, so `sitectl undo` of the apply keeps the add-ons it created and says so.
 */
import { addOns, addOnsFamily } from '../../../api/add-ons.js';
import { AddOn } from '../../../api/schemas/service-add-ons.js';
import type { EntityView } from '../../shared/entity-view.js';
import type { WriteSpec } from '../../shared/writes.js';

/** An add-on of the site, as previews and the history name it. */
export const ADD_ON_VIEW: EntityView<AddOn> = {
  noun: { one: 'add-on', many: 'add-ons' },
  schema: AddOn,
  columns: [{ key: 'id', id: true, noTruncate: true }, { key: 'name' }],
  rows: (a) => Object.entries(a).filter(([, v]) => v !== undefined && v !== null),
  readOnly: ['id', 'addOnId'],
  query: addOnsFamily.operations.queryAddOns,
  label: (a) => a.name ?? undefined,
};

/** The writes table's add-on entry: a create of `{name, price: {value, currency}, durationInMinutes | maxQuantity}`. */
export const ADD_ON_WRITES: WriteSpec = {
  view: ADD_ON_VIEW as EntityView<unknown>,
  list: 'services add-on-groups list',
  async create(api, body, signal) {
    const { addOn } = await addOns.createAddOn(api, { addOn: body as Parameters<typeof addOns.createAddOn>[1]['addOn'] }, { signal });
    return { ...addOn, id: addOn.id ?? addOn.addOnId ?? '' };
  },
};
