/**
 * The value verb of a booking (commands/shared/values.ts): `bookings fields`, one namespace of a booking's
 * extended fields replaced as a one-item plan, journaled with the namespace's former data, so `sitectl undo` sets
 * that data back if the booking still has the revision the change left.
 */
import { isDeepStrictEqual } from 'node:util';
import * as z from 'zod/mini';
import { bookings } from '../../../api/bookings.js';
import { fetchByIds } from '../../../bulk/port.js';
import type { ValueVerb } from '../../shared/values.js';
import { viewPort } from '../../shared/view-port.js';
import { type BookingRow, BOOKING_VIEW } from './view.js';

/** What `bookings fields` gives a booking: the data of one namespace (a namespace it did not have: `{}`). */
const NAMESPACE_VALUE = z.object({ namespace: z.string(), data: z.record(z.string(), z.unknown()) });
export type NamespaceValue = z.infer<typeof NAMESPACE_VALUE>;

const view = BOOKING_VIEW;

/** The data a booking holds under `namespace` (`{}` when it has none). */
export function namespaceData(b: BookingRow, namespace: string): Record<string, unknown> {
  return (b.extendedFields?.namespaces?.[namespace] as Record<string, unknown> | undefined) ?? {};
}

/**
 * `bookings fields`: one namespace's data replaced. Undo: the namespace's former data set back (a namespace the
 * booking did not have comes back empty). The platform's reply has no revision: the booking is read again for
 * the revision the change left.
 */
export const FIELDS_VERB: ValueVerb<BookingRow & { id: string }, NamespaceValue> = {
  view,
  name: 'fields',
  done: 'updated',
  title: 'Storing the fields',
  value: NAMESPACE_VALUE,
  holds: (b, v) => isDeepStrictEqual(namespaceData(b, v.namespace), v.data),
  inverse: (b, v) => ({ namespace: v.namespace, data: namespaceData(b, v.namespace) }),
  async send(api, b, v, signal) {
    await bookings.updateExtendedFields(api, { id: b.id, namespace: v.namespace, namespaceData: v.data }, { signal });
    const after = (await fetchByIds(viewPort(api, view), [b.id], signal)).get(b.id);
    return { revision: after?.revision ?? undefined };
  },
};
