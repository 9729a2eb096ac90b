/** How a service looks on the command line: table columns, the readable `get` view, the checks of its fields. */
import { Service } from '../../../api/schemas/service.js';
import { serviceOps } from '../../../api/services.js';
import type { Column } from '../../../core/output.js';
import type { EntityView } from '../../shared/entity-view.js';
import { knownStaff } from './staff-names.js';

/** `50 USD` for a fixed price, the rate type for the others (`VARIED 20-80 USD`, `CUSTOM`, `NO_FEE`). */
export function priceText(s: Service): string {
  const p = s.payment;
  if (!p) return '';
  const fixed = p.fixed?.price;
  if (fixed) return `${fixed.value} ${fixed.currency}`;
  const varied = p.varied;
  if (varied?.minPrice && varied.maxPrice) return `${varied.minPrice.value}-${varied.maxPrice.value} ${varied.minPrice.currency}`;
  if (varied?.defaultPrice) return `${varied.defaultPrice.value} ${varied.defaultPrice.currency}`;
  return p.rateType ?? '';
}

/**
 * Columns of `services list` and `services search`: id, name, type, price, category, hidden, revision. On a
 * narrow terminal revision, category and hidden go first, so the id (short), name, type and price stay whole.
 */
export const SERVICE_COLUMNS: Column<Service>[] = [
  { key: 'id', id: true, noTruncate: true },
  { key: 'name', min: 20 },
  { key: 'type', fit: 'whole' },
  { key: 'price', get: priceText, align: 'right', fit: 'whole' },
  { key: 'category', get: (s) => s.category?.name ?? s.category?.id ?? '', priority: 4 },
  { key: 'hidden', priority: 3 },
  { key: 'revision', align: 'right', priority: 5 },
];

/** Rows of the readable `services get` view on a terminal. */
export function serviceRows(s: Service): Array<[string, unknown]> {
  const durations = s.schedule?.availabilityConstraints?.sessionDurations ?? s.schedule?.availabilityConstraints?.durations?.map((d) => d.minutes);
  const locations = (s.locations ?? []).map((l) =>
    l.type === 'BUSINESS'
      ? `business ${l.business?.name ?? l.business?.id ?? ''}`.trim()
      : l.type === 'CUSTOM'
        ? `custom ${l.custom?.address?.formatted ?? l.custom?.address?.formattedAddress ?? ''}`.trim()
        : String(l.type).toLowerCase(),
  );
  const staff = s.staffMembers?.map((m) => m.name ?? knownStaff(m.staffMemberId ?? '') ?? m.staffMemberId) ?? (s.staffMemberIds ?? []).map((id) => knownStaff(id) ?? id);
  const rows: Array<[string, unknown]> = [
    ['id', s.id],
    ['name', s.name],
    ['type', s.type],
    ['revision', s.revision],
    ['hidden', s.hidden],
    ['category', s.category ? `${s.category.name ?? ''} (${s.category.id})`.trim() : undefined],
    ['price', priceText(s)],
    ['rate type', s.payment?.rateType],
    ['capacity', s.defaultCapacity],
    ['durations', durations?.length ? durations.map((m) => `${m} min`).join(', ') : undefined],
    ['locations', locations.join('; ') || undefined],
    ['staff', staff.join(', ') || undefined],
    ['pricing plans', s.payment?.pricingPlanIds?.join(', ') || undefined],
    ['slug', s.mainSlug?.name],
    ['online booking', s.onlineBooking?.enabled],
    ['booking policy', s.bookingPolicy?.name ?? s.bookingPolicy?.id],
    ['created', s.createdDate],
    ['updated', s.updatedDate],
    ['description', s.description],
  ];
  return rows.filter(([, v]) => v !== undefined && v !== '');
}

/** The services entity for the shared verbs (list, get, count, bulk). */
export const SERVICE_VIEW: EntityView<Service> = {
  noun: { one: 'service', many: 'services' },
  schema: Service,
  columns: SERVICE_COLUMNS,
  // price is a text of one of three price shapes, and revision a string the server compares as text.
  sortFields: { id: 'id', name: 'name', type: 'type', category: 'category.name', hidden: 'hidden' },
  rows: serviceRows,
  prepare: async (api, list, signal) => (await import('./staff.js')).lookupStaff(api, list, signal),
  readOnly: ['id', 'revision', 'createdDate', 'updatedDate', 'mainSlug', 'supportedSlugs', 'urls'],
  query: serviceOps.queryServices,
  label: (s) => s.name,
  labelFields: ['name'],
  // The services query takes `$contains` on text fields (docs/wire.md §6), case-insensitive.
  textSearch: { what: 'name', query: (text) => ({ filter: { name: { $contains: text } } }) },
};
