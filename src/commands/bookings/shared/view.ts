/**
 * How a booking looks on the command line. The list reads extended bookings (`{booking, allowedActions, ...}`);
 * a row is the booking with the extras beside its fields (`--json id,status,allowedActions`). Filters and sorts
 * take the JSON paths a user sees (`bookedEntity.slot.serviceId`) or the platform's documented ones
 * (`bookedEntity.item.slot.serviceId`); the platform is sent the documented form.
 */
import * as z from 'zod/mini';
import { extendedBookingOps } from '../../../api/extended-bookings.js';
import { AttendanceRecord } from '../../../api/schemas/attendance.js';
import { AllowedActions, Booking, bookingJsonPath, bookingWirePath, type ExtendedBooking } from '../../../api/schemas/booking.js';
import { formatWallClock } from '../../../api/time-zones.js';
import { type Column, zoned } from '../../../core/output.js';
import type { EntityView } from '../../shared/entity-view.js';

/** A booking with the extras asked for, as the list and `get` show it. */
export const BookingRow = z.extend(Booking, {
  allowedActions: z.optional(AllowedActions),
  attendance: z.optional(AttendanceRecord),
  conferencingDetails: z.optional(z.looseObject({ guestUrl: z.optional(z.nullable(z.string())), password: z.optional(z.nullable(z.string())) })),
  bookingPolicySettings: z.optional(z.looseObject({ cancellationFeeEnabled: z.optional(z.nullable(z.boolean())) })),
  bookingFeeDetails: z.optional(z.looseObject({ cancellationFeeStatus: z.optional(z.string()) })),
});
export type BookingRow = z.infer<typeof BookingRow>;

/** A whole e-mail address, as the free text of the interactive list may be: searched on the server. */
export const CONTACT_EMAIL = /^[^\s@"]+@[^\s@"]+\.[^\s@"]+$/;

/** The row of one extended booking. */
export function rowOf(item: unknown): BookingRow {
  const { booking, ...extras } = item as ExtendedBooking;
  return { ...booking, ...extras } as BookingRow;
}

/** The zone a booking was shown in (its slot's or schedule's), else UTC. */
export function zoneOf(b: BookingRow): string {
  return b.bookedEntity?.slot?.timezone ?? b.bookedEntity?.schedule?.timezone ?? 'UTC';
}

/** `First Last`, else the e-mail or phone. */
export function contactOf(b: BookingRow): string {
  const c = b.contactDetails;
  const name = [c?.firstName, c?.lastName].filter(Boolean).join(' ');
  return name || c?.email || c?.phone || '';
}

/** The service a booking is for. */
export function serviceIdOf(b: BookingRow): string | undefined {
  return b.bookedEntity?.slot?.serviceId ?? b.bookedEntity?.schedule?.serviceId ?? undefined;
}

/**
 * Columns of `bookings list`: id, start (on the clock of the booking's zone, or `zone` when given), service,
 * contact, status, participants, staff, payment, revision, the contact's e-mail. A narrow terminal drops
 * revision, e-mail, payment, staff and participants, so the id (short: any unique prefix is taken back), start,
 * service, contact and status stay whole at 80 columns.
 */
export function bookingColumns(zone?: string): Column<BookingRow>[] {
  return [
    { key: 'id', id: true, noTruncate: true },
    { key: 'start', get: (b) => zoned(b.startDate, zone ?? zoneOf(b)), fit: 'whole' },
    { key: 'service', get: (b) => b.bookedEntity?.title ?? serviceIdOf(b) ?? '', min: 16 },
    { key: 'contact', get: contactOf, min: 12 },
    { key: 'status', fit: 'whole' },
    { key: 'participants', header: 'PPL', get: (b) => b.totalParticipants ?? '', align: 'right', priority: 2 },
    { key: 'staff', get: (b) => b.bookedEntity?.slot?.resource?.name ?? '', priority: 3 },
    { key: 'payment', get: (b) => b.paymentStatus ?? '', priority: 4 },
    { key: 'revision', align: 'right', priority: 5 },
    // Last, so the piped columns before it keep their places; dropped before payment on a narrow terminal, never
    // cut (a cut address is of no use, and key columns would give way to it).
    { key: 'email', get: (b) => b.contactDetails?.email ?? '', fit: 'whole', priority: 4 },
  ];
}

/** Rows of the readable `bookings get` view. */
export function bookingRows(b: BookingRow): Array<[string, unknown]> {
  const zone = zoneOf(b);
  const slot = b.bookedEntity?.slot;
  const schedule = b.bookedEntity?.schedule;
  const rows: Array<[string, unknown]> = [
    ['id', b.id],
    ['status', b.status],
    ['revision', b.revision],
    ['service', `${b.bookedEntity?.title ?? ''} (${serviceIdOf(b) ?? ''})`],
    ['starts', zoned(b.startDate, zone)],
    ['ends', zoned(b.endDate, zone)],
    ['time zone', zone],
    ['staff', slot?.resource ? `${slot.resource.name ?? ''} (${slot.resource.id ?? ''})` : undefined],
    ['location', slot?.location?.name ?? slot?.location?.formattedAddress ?? schedule?.location?.name ?? undefined],
    ['course', schedule ? `schedule ${schedule.scheduleId}` : undefined],
    ['session', slot?.eventId ?? undefined],
    ['contact', contactOf(b)],
    ['email', b.contactDetails?.email ?? undefined],
    ['phone', b.contactDetails?.phone ?? undefined],
    ['participants', b.totalParticipants],
    ['payment', b.paymentStatus],
    ['payment option', b.selectedPaymentOption],
    ['double booked', b.doubleBooked ?? undefined],
    ['multi-service', b.multiServiceBookingInfo?.id ? `${b.multiServiceBookingInfo.id} (${b.multiServiceBookingInfo.type ?? ''})` : undefined],
    ['can cancel', b.allowedActions?.cancel],
    ['can reschedule', b.allowedActions?.reschedule],
    ['attendance', b.attendance ? `${b.attendance.status}${b.attendance.numberOfAttendees ? ` (${b.attendance.numberOfAttendees})` : ''}` : undefined],
    ['created', b.createdDate],
    ['updated', b.updatedDate],
    ['canceled', b.canceledDate ?? undefined],
  ];
  return rows.filter(([, v]) => v !== undefined && v !== '' && v !== null);
}

/** The bookings entity for the shared verbs (list, get, count, bulk actions). */
export const BOOKING_VIEW: EntityView<BookingRow> = {
  noun: { one: 'booking', many: 'bookings' },
  schema: BookingRow,
  columns: bookingColumns(),
  // contact is a name, else an e-mail or phone; revision a string the server compares as text.
  sortFields: {
    id: 'id',
    start: 'startDate',
    service: 'bookedEntity.title',
    status: 'status',
    participants: 'totalParticipants',
    staff: 'bookedEntity.slot.resource.name',
    payment: 'paymentStatus',
  },
  rows: bookingRows,
  readOnly: ['id', 'revision', 'createdDate', 'updatedDate', 'startDate', 'endDate', 'status'],
  query: extendedBookingOps.queryExtendedBookings,
  label: (b) => [contactOf(b), b.bookedEntity?.title, b.startDate ? formatWallClock(new Date(b.startDate), zoneOf(b)) : undefined].filter(Boolean).join(' · '),
  filterExample: '{"status":{"$in":["CREATED","PENDING"]}}',
  fromItem: rowOf,
  paths: { toSchema: bookingJsonPath, toWire: bookingWirePath },
  // The platform's filter takes a contact's e-mail or id, equal or in a list, and no text operator on any
  // contact field (docs/wire.md §17): a whole address is searched on the server, as `--contact` does; a
  // name filters the loaded rows.
  textSearch: { what: 'a whole contact e-mail (as --contact)', when: CONTACT_EMAIL, query: (text) => ({ filter: { 'contactDetails.email': text } }) },
};
