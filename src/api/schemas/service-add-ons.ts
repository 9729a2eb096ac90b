/**
 * Add-on groups of a service and the add-ons they hold, as the official module `@wix/auto_sdk_bookings_services`
 * types them (AddOnGroup, AddOnGroupDetail, AddOn; AddOnGroupsService calls), and the add-on itself as the
 * platform's Add-ons API (`/addons/v1/add-ons`, no module among ours) has it (docs/wire.md "Add-on groups and
 * add-ons"). Limits are the typings': a service holds at most 3 groups, a group at most 7 add-ons, a group name
 * at most 100 characters, a prompt at most 200.
 */
import * as z from 'zod/mini';
import { bounded, lazySchema, Money, once, requestShapes } from './common.js';

/** Most add-on groups one service holds (`Service.addOnGroups` @maxSize 3). */
export const MAX_ADD_ON_GROUPS = 3;
/** Most add-ons one group holds (`AddOnGroup.addOnIds` @maxSize 7). */
export const MAX_ADD_ONS_PER_GROUP = 7;
/** Longest group or add-on name (`AddOnGroup.name`, `AddOn.name` @maxLength 100). */
export const ADD_ON_NAME_MAX = 100;
/** Longest group prompt (`AddOnGroup.prompt` @maxLength 200). */
export const ADD_ON_PROMPT_MAX = 200;
/** Largest quantity of a quantity-based add-on in a booking (`BookedAddOn.quantity` @max 1000). */
export const MAX_ADD_ON_QUANTITY = 1000;

/** An add-on group as a service holds it: `{id, name, maxNumberOfAddOns, addOnIds, prompt}`. */
export const AddOnGroup = lazySchema(() =>
  z.looseObject({
    id: z.optional(z.nullable(z.string())),
    name: z.optional(z.nullable(z.string())),
    maxNumberOfAddOns: z.optional(z.nullable(z.int())),
    addOnIds: z.optional(z.nullable(z.array(z.string()))),
    prompt: z.optional(z.nullable(z.string())),
  }),
);
export type AddOnGroup = z.infer<typeof AddOnGroup>;

/**
 * An add-on (Add-ons API): a name, a price, and either `durationInMinutes` (it lengthens the booking) or
 * `maxQuantity` (it is bought by the piece).
 */
export const AddOn = lazySchema(() =>
  z.looseObject({
    id: z.optional(z.nullable(z.string())),
    addOnId: z.optional(z.nullable(z.string())),
    name: z.optional(z.nullable(z.string())),
    price: z.optional(Money),
    durationInMinutes: z.optional(z.int()),
    maxQuantity: z.optional(z.int()),
  }),
);
export type AddOn = z.infer<typeof AddOn>;

/** One group of `listAddOnGroupsByServiceId`, its add-ons in display order. */
export const AddOnGroupDetail = lazySchema(() =>
  z.looseObject({
    groupId: z.optional(z.nullable(z.string())),
    groupName: z.optional(z.nullable(z.string())),
    maxNumberOfAddOns: z.optional(z.nullable(z.int())),
    prompt: z.optional(z.nullable(z.string())),
    addOns: z.optional(z.array(AddOn)),
  }),
);
export type AddOnGroupDetail = z.infer<typeof AddOnGroupDetail>;

function buildAddOnInputs() {
  const { Id, MoneyInput } = requestShapes();
  const name = bounded(ADD_ON_NAME_MAX).check(z.refine((v) => v.trim() !== '', 'must not be blank'));
  const fields = {
    name: z.optional(name),
    maxNumberOfAddOns: z.optional(z.nullable(z.int().check(z.gte(1), z.lte(MAX_ADD_ONS_PER_GROUP)))),
    addOnIds: z.optional(z.nullable(z.array(Id).check(z.maxLength(MAX_ADD_ONS_PER_GROUP)))),
    prompt: z.optional(z.nullable(bounded(ADD_ON_PROMPT_MAX))),
  };
  return {
    /** The group of a create: `name` is required, the id is the platform's. */
    AddOnGroupCreate: z.looseObject({ ...fields, name }),
    /** The group of an update: its id and the fields to change. */
    AddOnGroupUpdate: z.looseObject({ ...fields, id: Id }),
    /** The ids of a set-add-ons call: 1 to 7, in display order. */
    AddOnIds: z.array(Id).check(z.minLength(1), z.maxLength(MAX_ADD_ONS_PER_GROUP)),
    /** A new add-on: a name, a price, and a duration in minutes or a largest quantity. */
    AddOnCreate: z.looseObject({
      name,
      price: MoneyInput,
      durationInMinutes: z.optional(z.int().check(z.gte(1), z.lte(1440))),
      maxQuantity: z.optional(z.int().check(z.gte(1), z.lte(MAX_ADD_ON_QUANTITY))),
    }),
  };
}

/** The add-on request schemas (built on first use). */
export const addOnInputs = once(buildAddOnInputs);

/** The add-on reply schemas, each built once on first use. */
export const addOnReplies = {
  AddOnGroupReply: once(() => z.looseObject({ addOnGroup: AddOnGroup })),
  AddOnGroupsDetailsReply: once(() => z.looseObject({ addOnGroupsDetails: z.array(AddOnGroupDetail) })),
  AddOnReply: once(() => z.looseObject({ addOn: AddOn })),
};
