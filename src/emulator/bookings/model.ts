/**
 * What the bookings families store (docs/wire.md §8-§9; docs/wire.md §13, docs/bookings.md "Statuses"): bookings,
 * multi-service bookings, each a collection, plus the site's {@link Calendar}: the services
 * catalog and these collections as one request's site sees them. Documents are kept exactly as they travel
 * (ISO date strings, string revisions).
 *
 * Staff working hours and time off live on the staff documents of the services family (`workingHours:
 * [{day, startTime, endTime}]`, `timeOff: [{startDate, endDate}]`, local times in the site's zone); a service's
 * sessions follow from its `schedule` (see sessions.ts).
 */
import type { BookingStatus, MultiServiceBookingType } from '../../api/schemas/booking.js';
import type { RequestContext } from '../serve.js';
import { defineCollection, type SiteCollection } from '../store/collection.js';
import { catalogOf, type Catalog, type ServiceDoc } from '../services/model.js';
import type { StaffMemberDoc } from '../staff/model.js';
import type { BookedAddOnDoc } from '../services/add-ons.js';
import type { Weekday } from './time.js';

/** Where a booked or available slot takes place. */
export type SlotLocationDoc = {
  id?: string | null;
  name?: string | null;
  formattedAddress?: string | null;
  locationType: string;
};

/** The booked slot of an appointment or class booking (dates ISO UTC). */
export type BookedSlotDoc = {
  serviceId: string;
  scheduleId: string;
  eventId?: string | null;
  startDate: string;
  endDate: string;
  timezone?: string | null;
  resource?: { id?: string | null; name?: string | null; email?: string | null };
  location?: SlotLocationDoc;
};

/** The booked schedule of a course booking. */
export type BookedScheduleDoc = {
  scheduleId: string;
  serviceId: string;
  location?: SlotLocationDoc;
  timezone?: string | null;
  firstSessionStart?: string | null;
  lastSessionEnd?: string | null;
};

/** A booking document, in wire form (the `Booking` schema of src/api/schemas/booking.ts). */
export type BookingDoc = {
  id: string;
  revision?: string;
  createdDate?: string;
  updatedDate?: string;
  canceledDate?: string;
  status: BookingStatus;
  paymentStatus?: string;
  selectedPaymentOption?: string;
  startDate: string;
  endDate: string;
  totalParticipants: number;
  participantsChoices?: { serviceChoices?: Array<{ numberOfParticipants?: number | null; choices?: Array<Record<string, unknown>> }> };
  bookedEntity: { slot?: BookedSlotDoc; schedule?: BookedScheduleDoc; title?: string; tags?: string[] };
  contactDetails?: { contactId?: string | null; firstName?: string | null; lastName?: string | null; email?: string | null; phone?: string | null; [k: string]: unknown };
  externalUserId?: string | null;
  createdBy?: { wixUserId?: string; appId?: string; contactId?: string | null };
  doubleBooked?: boolean;
  multiServiceBookingInfo?: { id: string; type: MultiServiceBookingType };
  extendedFields?: { namespaces?: Record<string, Record<string, unknown>> };
  formId?: string | null;
  /** The add-ons booked, as at booking time (docs/wire.md §28); duration add-ons lengthen the booking. */
  bookedAddOns?: BookedAddOnDoc[];
  [k: string]: unknown;
};

/** A multi-service booking: its bookings in order, and how they relate in time. */
export interface MultiServiceBookingDoc {
  id: string;
  revision?: string;
  type: MultiServiceBookingType;
  bookingIds: string[];
  createdDate?: string;
  updatedDate?: string;
}

/** A staff member's weekly working hours block (local times in the site's zone). */
export interface WorkingHours {
  day: Weekday;
  startTime: string;
  endTime: string;
  /** The calendar event (weekly MASTER, WORKING_HOURS) this block is; the seed's blocks get one derived from them. */
  eventId?: string;
  /** Its first local date, `YYYY-MM-DD` (events created through the calendar API). */
  since?: string;
}

/** Staff member fields the scheduling engine reads. */
export type StaffDoc = StaffMemberDoc & { workingHours?: WorkingHours[]; timeOff?: Array<{ startDate: string; endDate: string }>; email?: string };

export const BOOKINGS = defineCollection<BookingDoc>({ kind: 'bookings', entity: 'booking', notFound: 'BOOKING_NOT_FOUND' });

export const MULTI_SERVICE_BOOKINGS = defineCollection<MultiServiceBookingDoc>({
  kind: 'multiServiceBookings',
  entity: 'multi_service_booking',
  notFound: 'MULTI_SERVICE_BOOKING_NOT_FOUND',
});


/** Every collection of the bookings families. */
export const BOOKING_COLLECTIONS = [BOOKINGS, MULTI_SERVICE_BOOKINGS];

/** Statuses that hold a place in a session, a course or a staff member's time. */
export const ACTIVE_STATUSES: ReadonlySet<string> = new Set(['CREATED', 'CONFIRMED', 'PENDING']);
/** Statuses no action leaves (docs/wire.md §9: CANCELED and DECLINED are final). */
export const FINAL_STATUSES: ReadonlySet<string> = new Set(['CANCELED', 'DECLINED']);

/** A site's services and bookings as one request sees them: what the booking rules work on. */
export interface Calendar {
  catalog: Catalog;
  bookings: SiteCollection<BookingDoc>;
  multiServiceBookings: SiteCollection<MultiServiceBookingDoc>;
  /** The request's time (ISO) and as epoch ms. */
  now: string;
  nowMs: number;
  /** The site's time zone: its default business location's, else UTC. */
  timeZone: string;
  /** Who acts (recorded as `createdBy`). */
  actor: { wixUserId?: string; appId?: string };
  newId: () => string;
}

/** The calendar of a request's site. */
export function calendarOf(ctx: Pick<RequestContext<unknown>, 'db' | 'now'> & { principal?: { accountId: string } }, newId: () => string = () => crypto.randomUUID()): Calendar {
  const catalog = catalogOf(ctx, newId);
  let zone: string | undefined;
  for (const l of catalog.locations.all()) {
    const tz = (l as { timeZone?: string }).timeZone;
    if (tz && (l.default || zone === undefined)) zone = tz;
  }
  return {
    catalog,
    bookings: ctx.db(BOOKINGS),
    multiServiceBookings: ctx.db(MULTI_SERVICE_BOOKINGS),
    now: ctx.now,
    nowMs: Date.parse(ctx.now),
    timeZone: zone ?? 'UTC',
    actor: ctx.principal ? { wixUserId: ctx.principal.accountId } : {},
    newId,
  };
}

/** The service of a booking (slot or schedule). */
export function serviceIdOf(b: BookingDoc): string | undefined {
  return b.bookedEntity?.slot?.serviceId ?? b.bookedEntity?.schedule?.serviceId ?? undefined;
}

export type { ServiceDoc };
