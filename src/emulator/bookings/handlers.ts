/**
 * The availability, bookings, extended bookings and multi-service bookings families served from their tables
 * (docs/wire.md §16, §1, §6-§9, §11): one handler per operation, each receiving a
 * request the table's schema has already validated. The rules live in rules.ts (bookings), groups.ts
 * (multi-service bookings), sessions.ts and availability.ts (the scheduling engine).
 */
import { availabilityFamily } from '../../api/availability.js';
import { bookingsFamily } from '../../api/bookings.js';
import { extendedBookingsFamily } from '../../api/extended-bookings.js';
import { multiServiceBookingsFamily } from '../../api/multi-service-bookings.js';
import { mapFilterFields } from '../../api/paths.js';
import { bookingJsonPath } from '../../api/schemas/booking.js';
import { type AttendanceDoc, attendanceIdOf, attendanceOf } from '../attendance/model.js';
import { bulkReply } from '../bulk.js';
import { toItemError } from '../errors.js';
import { runCount, runQuery, runSearch } from '../query/index.js';
import { RawJson, serve, type RequestContext } from '../serve.js';
import type { SiteCollection } from '../store/collection.js';
import { multiSlotAvailability, queryAvailability, scheduleAvailability } from './availability.js';
import {
  addToGroup,
  cancelGroup,
  confirmGroup,
  createGroup,
  declineGroup,
  groupAllowedActions,
  groupAvailability,
  groupOf,
  groupReply,
  markGroupPending,
  removeFromGroup,
  rescheduleGroup,
} from './groups.js';
import { ACTIVE_STATUSES, type BookingDoc, type Calendar, calendarOf } from './model.js';
import {
  cancelBooking,
  confirmBooking,
  confirmOrDeclineBooking,
  createBooking,
  declineBooking,
  markBookingAsPending,
  rescheduleBooking,
  updateExtendedFields,
  updateNumberOfParticipants,
} from './rules.js';
import { allowedActions } from './policy.js';
import { type NotificationRequest, type NotifiedAction, notifyParticipants } from './notify.js';

type Json = Record<string, unknown>;

/** Default page of the extended bookings query (the SDK's cursor default). */
const DEFAULT_BOOKINGS_PAGE = 50;

const cal = (ctx: RequestContext<unknown>): Calendar => calendarOf(ctx);

/** The booking, after the participant notification its call asked for is in the outbox (notify.ts). */
function told(ctx: RequestContext<unknown>, b: BookingDoc, action: NotifiedAction, request: NotificationRequest | null | undefined): BookingDoc {
  notifyParticipants(ctx, b, action, request);
  return b;
}

/** `{"booking": <doc>}` from the stored JSON text. */
function bookingReply(c: Calendar, b: BookingDoc): RawJson {
  return new RawJson(`{"booking":${c.bookings.json(b)}}`);
}

/** The stored booking's path of a documented filter or sort path (see BOOKING_FILTER_PATHS). */
export function storedPath(path: string): string {
  return bookingJsonPath(path);
}

/** A filter with every documented path rewritten to the stored one (operators and values untouched). */
export function storedFilter(filter: unknown): unknown {
  return filter !== null && typeof filter === 'object' && !Array.isArray(filter) ? mapFilterFields(filter as Json, storedPath) : filter;
}

interface ExtrasRequest {
  withBookingAllowedActions?: boolean;
  withBookingAttendanceInfo?: boolean;
  withBookingConferencingDetails?: boolean;
  withBookingPolicySettings?: boolean;
  withBookingFeeDetails?: boolean;
}

/** One extended booking: the booking (its stored text) and the extras asked for. */
function extendedJson(c: Calendar, attendance: SiteCollection<AttendanceDoc>, b: BookingDoc, req: ExtrasRequest): string {
  let text = `{"booking":${c.bookings.json(b)}`;
  if (req.withBookingAllowedActions) text += `,"allowedActions":${JSON.stringify(allowedActions(c, b))}`;
  if (req.withBookingAttendanceInfo) {
    const a = attendance.get(attendanceIdOf(b.id, b.bookedEntity?.slot?.eventId ?? undefined));
    text += `,"attendance":${JSON.stringify(a ? { id: a.id, status: a.status, numberOfAttendees: a.numberOfAttendees } : { status: 'NOT_SET', numberOfAttendees: 0 })}`;
  }
  if (req.withBookingPolicySettings) text += ',"bookingPolicySettings":{"cancellationFeeEnabled":false}';
  if (req.withBookingFeeDetails) text += ',"bookingFeeDetails":{"cancellationFeeStatus":"UNKNOWN_STATUS"}';
  // Conferencing details exist only for services with conferencing (none in the emulator): left out.
  return text + '}';
}

/**
 * The extended bookings query: offset paging when `query.paging` is given (with a total), else cursor paging
 * (default 50); sorted by `id` ascending unless told otherwise.
 */
function extendedQuery(ctx: RequestContext<unknown>, body: { query: Json } & ExtrasRequest, only?: (b: BookingDoc) => boolean): RawJson {
  const c = cal(ctx);
  const attendance = attendanceOf(ctx);
  const q = body.query as { filter?: unknown; sort?: Array<{ fieldName: string; order?: string }>; paging?: { limit?: number; offset?: number }; cursorPaging?: { limit?: number; cursor?: string | null } };
  const filter = storedFilter(q.filter);
  const sort = q.sort?.length ? q.sort.map((s) => ({ ...s, fieldName: storedPath(s.fieldName) })) : [{ fieldName: 'id', order: 'ASC' }];
  const docs = only ? [...c.bookings.all()].filter(only) : c.bookings.all();
  const memo = only ? undefined : c.bookings.memo;
  let items: readonly BookingDoc[];
  let pagingMetadata: unknown;
  if (q.paging) {
    const page = runQuery(docs, { filter, sort, paging: { limit: q.paging.limit ?? DEFAULT_BOOKINGS_PAGE, offset: q.paging.offset ?? 0 } }, 'query', memo);
    items = page.items;
    pagingMetadata = page.pagingMetadata;
  } else {
    const page = runSearch(docs, { filter, sort, cursorPaging: { limit: q.cursorPaging?.limit ?? DEFAULT_BOOKINGS_PAGE, cursor: q.cursorPaging?.cursor } }, 'query', memo);
    items = page.items;
    pagingMetadata = page.pagingMetadata;
  }
  let text = '{"extendedBookings":[';
  items.forEach((b, i) => {
    text += (i ? ',' : '') + extendedJson(c, attendance, b, body);
  });
  return new RawJson(`${text}],"pagingMetadata":${JSON.stringify(pagingMetadata)}}`);
}

/** Every availability operation, served. */
export const availabilityServed = serve(availabilityFamily, {
  queryAvailability: (ctx) => queryAvailability(cal(ctx), ctx.body as never),
  getScheduleAvailability: (ctx) => scheduleAvailability(cal(ctx), ctx.body.scheduleId),
  calculateMultiSlotAvailability: (ctx) => multiSlotAvailability(cal(ctx), ctx.body as never),
});

/** Every extended bookings operation, served. */
export const extendedBookingsServed = serve(extendedBookingsFamily, {
  queryExtendedBookings: (ctx) => extendedQuery(ctx, ctx.body as never),
  queryExtendedBooking(ctx) {
    const session = ctx.body.sessionId;
    return extendedQuery(ctx, ctx.body as never, session ? (b) => b.bookedEntity.slot?.eventId === session : undefined);
  },
  countExtendedBookings: (ctx) => ({ count: runCount(cal(ctx).bookings.all(), storedFilter(ctx.body.filter ?? undefined), 'filter') }),
});

/** Every bookings operation, served. */
export const bookingsServed = serve(bookingsFamily, {
  confirmOrDeclineBooking(ctx) {
    const c = cal(ctx);
    return bookingReply(c, confirmOrDeclineBooking(c, ctx.body.bookingId, ctx.body.paymentStatus));
  },
  bulkConfirmOrDeclineBooking(ctx) {
    const c = cal(ctx);
    return bulkReply(ctx.store, ctx.body.details, Boolean(ctx.body.returnEntity), (d) => d.bookingId, (d) => confirmOrDeclineBooking(c, d.bookingId, d.paymentStatus));
  },
  createBooking(ctx) {
    const c = cal(ctx);
    return bookingReply(c, told(ctx, createBooking(c, ctx.body.booking, { flow: ctx.body.flowControlSettings, prefix: 'booking' }), 'created', ctx.body.participantNotification));
  },
  bulkCreateBooking(ctx) {
    const c = cal(ctx);
    return bulkReply(ctx.store, ctx.body.createBookingsInfo, Boolean(ctx.body.returnFullEntity), () => undefined, (info, i) =>
      told(ctx, createBooking(c, info.booking, { flow: info.flowControlSettings, prefix: `createBookingsInfo[${i}].booking` }), 'created', info.participantNotification),
    );
  },
  rescheduleBooking(ctx) {
    const c = cal(ctx);
    const b = ctx.body;
    const moved = rescheduleBooking(c, b.bookingId, b.slot as Json, {
      revision: b.revision,
      ignorePolicy: b.flowControlSettings?.ignoreReschedulePolicy,
      skipAvailability: b.flowControlSettings?.skipAvailabilityValidation,
      totalParticipants: b.totalParticipants,
    });
    return bookingReply(c, told(ctx, moved, 'rescheduled', b.participantNotification));
  },
  confirmBooking(ctx) {
    const c = cal(ctx);
    const b = ctx.body;
    const confirmed = confirmBooking(c, b.bookingId, { revision: b.revision, paymentStatus: b.paymentStatus, doubleBooked: b.doubleBooked, checkAvailability: b.flowControlSettings?.checkAvailabilityValidation });
    return bookingReply(c, told(ctx, confirmed, 'confirmed', b.participantNotification));
  },
  declineBooking(ctx) {
    const c = cal(ctx);
    return bookingReply(c, told(ctx, declineBooking(c, ctx.body.bookingId, { revision: ctx.body.revision, paymentStatus: ctx.body.paymentStatus }), 'declined', ctx.body.participantNotification));
  },
  cancelBooking(ctx) {
    const c = cal(ctx);
    const canceled = cancelBooking(c, ctx.body.bookingId, { revision: ctx.body.revision, ignorePolicy: ctx.body.flowControlSettings?.ignoreCancellationPolicy ?? undefined });
    return bookingReply(c, told(ctx, canceled, 'canceled', ctx.body.participantNotification));
  },
  updateNumberOfParticipants(ctx) {
    const c = cal(ctx);
    return bookingReply(c, updateNumberOfParticipants(c, ctx.body.bookingId, ctx.body));
  },
  updateExtendedFields(ctx) {
    const c = cal(ctx);
    const b = updateExtendedFields(c, ctx.body.id, ctx.body.namespace, ctx.body.namespaceData);
    return { namespace: ctx.body.namespace, namespaceData: b.extendedFields?.namespaces?.[ctx.body.namespace] ?? {} };
  },
  markBookingAsPending(ctx) {
    const c = cal(ctx);
    const b = ctx.body;
    const pending = markBookingAsPending(c, b.bookingId, { revision: b.revision, paymentStatus: b.paymentStatus, skipApprovalCheck: b.flowControlSettings?.skipPendingApprovalServiceValidation });
    return bookingReply(c, told(ctx, pending, 'marked_as_pending', b.participantNotification));
  },
  bulkCancelBooking(ctx) {
    const c = cal(ctx);
    // Each booking's own `participantNotification`: one notification per booking (the SDK's CancelBookingInfo).
    return bulkReply(ctx.store, ctx.body.bookings.bookingsInfo, Boolean(ctx.body.returnFullEntity), (i) => i.bookingId, (info) =>
      told(ctx, cancelBooking(c, info.bookingId, { revision: info.revision ?? undefined, ignorePolicy: info.flowControlSettings?.ignoreCancellationPolicy ?? undefined }), 'canceled', info.participantNotification),
    );
  },
  bulkCalculateAllowedActions(ctx) {
    const c = cal(ctx);
    return allowedReply(ctx.body.bookingIds, (id) => allowedActions(c, c.bookings.require(id)));
  },
});

/** The bulk envelope of an allowed-actions call: one `{cancel, reschedule}` item per id. */
function allowedReply(ids: readonly string[], actions: (id: string) => { cancel: boolean; reschedule: boolean }) {
  let failures = 0;
  const results = ids.map((id, originalIndex) => {
    try {
      return { itemMetadata: { id, originalIndex, success: true }, item: actions(id) };
    } catch (err) {
      failures++;
      return { itemMetadata: { id, originalIndex, success: false, error: toItemError(err) } };
    }
  });
  return { results, bulkActionMetadata: { totalSuccesses: ids.length - failures, totalFailures: failures, undetailedFailures: 0 } };
}

const group = (c: Calendar, id: string, full: boolean | undefined) => ({ multiServiceBooking: groupReply(c, id, full) });

/**
 * The notification a group call asks for: one for the whole multi-service booking (the SDK: "Customers receive 1
 * unified notification for the entire multi-service booking"), about its first booking, naming the group.
 */
function toldGroup(ctx: RequestContext<unknown>, c: Calendar, id: string, action: NotifiedAction, request: NotificationRequest | null | undefined): void {
  const first = groupOf(c, id).bookings[0];
  if (first) notifyParticipants(ctx, first, action, request, { multiServiceBookingId: id });
}

/** Every multi-service booking operation, served. */
export const multiServiceBookingsServed = serve(multiServiceBookingsFamily, {
  createMultiServiceBooking(ctx) {
    const c = cal(ctx);
    const msb = createGroup(c, ctx.body as never);
    toldGroup(ctx, c, msb.id, 'created', ctx.body.participantNotification);
    return group(c, msb.id, ctx.body.returnFullEntity);
  },
  rescheduleMultiServiceBooking(ctx) {
    const c = cal(ctx);
    rescheduleGroup(c, ctx.body.multiServiceBookingId, ctx.body.rescheduleBookingsInfo as never, ctx.body.flowControlSettings);
    toldGroup(ctx, c, ctx.body.multiServiceBookingId, 'rescheduled', ctx.body.participantNotification);
    return group(c, ctx.body.multiServiceBookingId, ctx.body.returnFullEntity);
  },
  getMultiServiceBookingAvailability: (ctx) => groupAvailability(cal(ctx), ctx.body.multiServiceBookingId),
  cancelMultiServiceBooking(ctx) {
    const c = cal(ctx);
    cancelGroup(c, ctx.body.multiServiceBookingId, { ignorePolicy: ctx.body.flowControlSettings?.ignoreCancellationPolicy ?? undefined });
    toldGroup(ctx, c, ctx.body.multiServiceBookingId, 'canceled', ctx.body.participantNotification);
    return group(c, ctx.body.multiServiceBookingId, ctx.body.returnFullEntity);
  },
  markMultiServiceBookingAsPending(ctx) {
    const c = cal(ctx);
    markGroupPending(c, ctx.body.multiServiceBookingId, ctx.body.markAsPendingBookingsInfo as never, { skipApprovalCheck: ctx.body.flowControlSettings?.skipPendingApprovalServiceValidation });
    toldGroup(ctx, c, ctx.body.multiServiceBookingId, 'marked_as_pending', ctx.body.participantNotification);
    return group(c, ctx.body.multiServiceBookingId, ctx.body.returnFullEntity);
  },
  confirmMultiServiceBooking(ctx) {
    const c = cal(ctx);
    confirmGroup(c, ctx.body.multiServiceBookingId, ctx.body.confirmBookingsInfo as never, { checkAvailability: ctx.body.flowControlSettings?.checkAvailabilityValidation, doubleBooked: ctx.body.doubleBooked });
    toldGroup(ctx, c, ctx.body.multiServiceBookingId, 'confirmed', ctx.body.participantNotification);
    return group(c, ctx.body.multiServiceBookingId, ctx.body.returnFullEntity);
  },
  declineMultiServiceBooking(ctx) {
    const c = cal(ctx);
    declineGroup(c, ctx.body.multiServiceBookingId, ctx.body.declineBookingsInfo as never);
    toldGroup(ctx, c, ctx.body.multiServiceBookingId, 'declined', ctx.body.participantNotification);
    return group(c, ctx.body.multiServiceBookingId, ctx.body.returnFullEntity);
  },
  bulkGetMultiServiceBookingAllowedActions(ctx) {
    const c = cal(ctx);
    return allowedReply(ctx.body.multiServiceBookingIds, (id) => groupAllowedActions(c, id));
  },
  getMultiServiceBooking(ctx) {
    const c = cal(ctx);
    const { bookings } = groupOf(c, ctx.body.multiServiceBookingId);
    return { ...group(c, ctx.body.multiServiceBookingId, true), metadata: { totalNumberOfScheduledBookings: bookings.filter((b) => ACTIVE_STATUSES.has(b.status)).length } };
  },
  addBookingsToMultiServiceBooking(ctx) {
    const c = cal(ctx);
    const added = addToGroup(c, ctx.body.multiServiceBookingId, ctx.body.bookings as never);
    return { bookings: added.map((b) => ({ bookingId: b.id, ...(ctx.body.returnFullEntity ? { booking: b } : {}) })) };
  },
  removeBookingsFromMultiServiceBooking(ctx) {
    const c = cal(ctx);
    const removed = removeFromGroup(c, ctx.body.multiServiceBookingId, ctx.body.bookings as never);
    return { bookings: removed.map((b) => ({ bookingId: b.id, ...(ctx.body.returnFullEntity ? { booking: b } : {}) })) };
  },
});
