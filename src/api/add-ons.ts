/**
 * Two small tables beside the services family, for the add-ons a service's add-on groups hold and the price a
 * booking with add-ons pays (docs/wire.md "Add-on groups and add-ons"). Neither has a module among the official
 * SDK packages this project installs, so both follow the platform's public REST reference:
 * - the Add-ons API (`/addons/v1/add-ons`): create one add-on (`{addOn: {name, price, durationInMinutes |
 *   maxQuantity}}` -> `{addOn}`), get one (`GET /addons/v1/add-ons/{addOnId}` -> `{addOn}`) and query them
 *   (`POST /addons/v1/add-ons/query` `{query: {filter, sort, cursorPaging}}` -> `{addOns, pagingMetadata}`);
 * - the Bookings Pricing API's Calculate Price (`POST /bookings/v2/pricing/calculate` `{booking}` ->
 *   `{priceInfo: {calculatedPrice, bookingLineItems, addOns}}`): the base price of a booking, its add-ons included.
 */
import * as z from 'zod/mini';
import { callsOf, defineFamily } from './family.js';
import { PagingMetadata, requestShapes } from './schemas/common.js';
import { AddOn, addOnInputs, addOnReplies } from './schemas/service-add-ons.js';
import { serviceInputs } from './schemas/service.js';

export const addOnsFamily = defineFamily({
  name: 'add-ons',
  prefixes: [{ proto: '/v1/add-ons', urls: ['/addons/v1/add-ons'] }],
  operations: {
    createAddOn: {
      method: 'POST',
      path: '/v1/add-ons',
      summary: 'Create an add-on: a name, a price, and a duration in minutes or a largest quantity',
      request: () => z.looseObject({ addOn: addOnInputs().AddOnCreate }),
      reply: addOnReplies.AddOnReply,
    },
    getAddOn: {
      method: 'GET',
      path: '/v1/add-ons/{addOnId}',
      summary: 'One add-on',
      request: () => z.looseObject({ addOnId: requestShapes().Id }),
      reply: addOnReplies.AddOnReply,
      idempotent: true,
    },
    queryAddOns: {
      method: 'POST',
      path: '/v1/add-ons/query',
      summary: "The site's add-ons, cursor-paged (filter and sort on their fields)",
      request: () => z.looseObject({ query: z.optional(serviceInputs().CursorQueryInput) }),
      reply: () => z.looseObject({ addOns: z.array(AddOn), pagingMetadata: z.optional(PagingMetadata) }),
      idempotent: true,
      readOnly: true,
      paging: { kind: 'cursor', items: 'addOns', wrapper: 'query', maxLimit: 100, filter: true },
    },
  },
});

/** One priced line of a booking: the service's price per participant times the participants. */
const LineItem = () =>
  z.looseObject({ serviceId: z.optional(z.string()), numberOfParticipants: z.optional(z.int()), pricePerParticipant: z.optional(z.number()) });
/** One priced add-on of a booking: its unit price times the quantity booked. */
const PricedAddOn = () =>
  z.looseObject({ addOnId: z.optional(z.string()), groupId: z.optional(z.string()), quantity: z.optional(z.int()), price: z.optional(z.number()) });

export const bookingsPricingFamily = defineFamily({
  name: 'bookings-pricing',
  prefixes: [{ proto: '/v2/pricing', urls: ['/bookings/v2/pricing'] }],
  operations: {
    calculatePrice: {
      method: 'POST',
      path: '/v2/pricing/calculate',
      summary: 'The base price of a booking (a stored one by id, or one described): its line items and add-ons',
      request: () => z.looseObject({ booking: z.looseObject({ id: z.optional(requestShapes().Id) }) }),
      reply: () =>
        z.looseObject({
          priceInfo: z.looseObject({
            calculatedPrice: z.optional(z.number()),
            currency: z.optional(z.string()),
            bookingLineItems: z.optional(z.array(LineItem())),
            addOns: z.optional(z.array(PricedAddOn())),
          }),
        }),
      idempotent: true,
      readOnly: true,
    },
  },
});

/** Typed calls: `addOns.createAddOn(api, {addOn: {name, price: {value, currency}, maxQuantity}})`. */
export const addOns = callsOf(addOnsFamily);
/** Typed calls: `bookingsPricing.calculatePrice(api, {booking: {id}})`. */
export const bookingsPricing = callsOf(bookingsPricingFamily);
