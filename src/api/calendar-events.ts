/**
 * Calendar Events v3 (`/calendar/v3/events`), the part a back office needs for working hours: on the platform a
 * staff member's working hours are weekly recurring `WORKING_HOURS` events (`recurrenceType: MASTER`, one
 * weekday each) in its working-hours schedule; the business's default hours are the same kind of events in the
 * business schedule (public REST docs: business-management/calendar/events-v3 "Create Event", "Query Events",
 * "Cancel Event", "Recurring Events", and "About Business Schedules"). No official SDK module of this family is
 * among the references the contract test reads.
 *
 * An event is `{id, scheduleId, type, recurrenceType, recurrenceRule: {frequency: 'WEEKLY', interval, days:
 * ['MONDAY']}, start: {localDate: 'YYYY-MM-DDThh:mm:ss'}, end: {localDate}, status}`.
 */
import * as z from 'zod/mini';
import { callsOf, defineFamily } from './family.js';
import { bounded, CursorPaging, PagingMetadata, requestShapes } from './schemas/common.js';

/** Weekdays as calendar recurrence rules name them. */
export const CalendarDayValues = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'] as const;
export type CalendarDay = (typeof CalendarDayValues)[number];

/** A local date-time without zone, as calendar events carry their start and end. */
const LOCAL_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;

/** A calendar event (more fields pass through). */
export const CalendarEvent = z.looseObject({
  id: z.string(),
  scheduleId: z.optional(z.nullable(z.string())),
  type: z.optional(z.nullable(z.string())),
  status: z.optional(z.nullable(z.string())),
  recurrenceType: z.optional(z.nullable(z.string())),
  recurrenceRule: z.optional(z.nullable(z.looseObject({ frequency: z.optional(z.string()), interval: z.optional(z.int()), days: z.optional(z.array(z.string())) }))),
  start: z.optional(z.looseObject({ localDate: z.optional(z.nullable(z.string())) })),
  end: z.optional(z.looseObject({ localDate: z.optional(z.nullable(z.string())) })),
  revision: z.optional(z.nullable(z.string())),
});
export type CalendarEvent = z.infer<typeof CalendarEvent>;

const eventReply = () => z.looseObject({ event: CalendarEvent });

/** The calendar events family table (working hours). */
export const calendarEventsFamily = defineFamily({
  name: 'calendar-events',
  prefixes: [{ proto: '/v3/events', urls: ['/calendar/v3/events'] }],
  operations: {
    queryEvents: {
      method: 'POST',
      path: '/v3/events/query',
      summary: 'Events of schedules: recurring MASTER events (working hours) or occurrences in a date range',
      request: () =>
        z.looseObject({
          fromLocalDate: z.optional(bounded(30)),
          toLocalDate: z.optional(bounded(30)),
          timeZone: z.optional(bounded(100)),
          recurrenceType: z.optional(z.array(z.enum(['NONE', 'MASTER', 'INSTANCE', 'EXCEPTION'])).check(z.maxLength(4))),
          query: z.optional(z.looseObject({ filter: z.optional(z.record(z.string(), z.unknown())), cursorPaging: z.optional(CursorPaging) })),
        }),
      reply: () => z.looseObject({ events: z.array(CalendarEvent), pagingMetadata: z.optional(PagingMetadata) }),
      paging: { kind: 'cursor', items: 'events', wrapper: 'query', maxLimit: 100, filter: true },
      idempotent: true,
    },
    createEvent: {
      method: 'POST',
      path: '/v3/events',
      summary: 'Create an event; with a weekly recurrence rule, a MASTER event such as one day of working hours',
      request: () =>
        z.looseObject({
          event: z.looseObject({
            scheduleId: requestShapes().Id,
            type: z.optional(bounded(50)),
            start: z.looseObject({ localDate: z.string().check(z.regex(LOCAL_DATE, 'must be a local date-time such as 2026-01-05T09:00:00')) }),
            end: z.looseObject({ localDate: z.string().check(z.regex(LOCAL_DATE, 'must be a local date-time such as 2026-01-05T17:00:00')) }),
            recurrenceRule: z.optional(
              z.looseObject({ frequency: z.enum(['WEEKLY']), interval: z.optional(z.int().check(z.gte(1), z.lte(52))), days: z.array(z.enum(CalendarDayValues)).check(z.minLength(1), z.maxLength(1)) }),
            ),
            title: z.optional(bounded(200)),
          }),
          idempotencyKey: z.optional(bounded(200)),
        }),
      reply: eventReply,
    },
    cancelEvent: {
      method: 'POST',
      path: '/v3/events/{eventId}/cancel',
      summary: 'Cancel an event (a MASTER event: the whole series, such as one day of working hours)',
      request: () => z.looseObject({ eventId: requestShapes().Id }),
      reply: eventReply,
    },
  },
});

/** Typed calls of the calendar events family. */
export const calendarEvents = callsOf(calendarEventsFamily);
