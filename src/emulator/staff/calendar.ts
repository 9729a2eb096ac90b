/**
 * The calendar events family as far as working hours go (src/api/calendar-events.ts): the weekly `WORKING_HOURS`
 * MASTER events of a staff member's own schedule are the blocks of its document's `workingHours` (what
 * bookings/sessions.ts reads), and those of the business schedule are the business's default hours, which
 * cannot be changed here. Creating such an event in a staff member's own schedule adds a block, cancelling it
 * removes the block; both record `staff.updated` with the staff member. Other kinds of event are refused: the
 * emulator keeps no other calendar.
 */
import { calendarEventsFamily, CalendarDayValues, type CalendarDay, type CalendarEvent } from '../../api/calendar-events.js';
import type { StaffDoc, WorkingHours } from '../bookings/model.js';
import { DEFAULT_HOURS } from '../bookings/sessions.js';
import type { Weekday } from '../bookings/time.js';
import { ApplicationFailure, ValidationFailure } from '../errors.js';
import { runSearch } from '../query/index.js';
import { serve, type RequestContext } from '../serve.js';
import { catalogOf } from '../services/model.js';
import type { StaffMemberDoc } from './model.js';
import { stableId } from '../ids.js';
import { businessScheduleId, publicStaff, staffScheduleId, usesDefaultHours } from './handlers.js';

const SHORT: Record<CalendarDay, Weekday> = { MONDAY: 'MON', TUESDAY: 'TUE', WEDNESDAY: 'WED', THURSDAY: 'THU', FRIDAY: 'FRI', SATURDAY: 'SAT', SUNDAY: 'SUN' };
const LONG = Object.fromEntries(Object.entries(SHORT).map(([long, short]) => [short, long])) as Record<Weekday, CalendarDay>;

/** The first date of `day` on or after 2024-01-01 (a Monday): the start date of a derived weekly event. */
function firstDate(day: Weekday): string {
  return `2024-01-0${1 + CalendarDayValues.indexOf(LONG[day])}`;
}

/** The event id of a working-hours block of `scheduleId`. */
function eventIdOfBlock(scheduleId: string, block: WorkingHours): string {
  return block.eventId ?? stableId('working-hours', scheduleId, block.day, block.startTime, block.endTime);
}

/** A working-hours block as the weekly MASTER event it is. */
function eventOf(scheduleId: string, block: WorkingHours): CalendarEvent {
  const date = block.since ?? firstDate(block.day);
  return {
    id: eventIdOfBlock(scheduleId, block),
    scheduleId,
    type: 'WORKING_HOURS',
    status: 'CONFIRMED',
    recurrenceType: 'MASTER',
    recurrenceRule: { frequency: 'WEEKLY', interval: 1, days: [LONG[block.day]] },
    start: { localDate: `${date}T${block.startTime}:00` },
    end: { localDate: `${date}T${block.endTime}:00` },
  };
}

/** Every working-hours event of the site: the business schedule's, then each staff member's own. */
function allEvents(ctx: RequestContext<unknown>): CalendarEvent[] {
  const business = businessScheduleId(ctx.site);
  const out = DEFAULT_HOURS.map((b) => eventOf(business, b));
  for (const staff of catalogOf(ctx).staff.all()) {
    const schedule = staffScheduleId(staff.id);
    for (const block of (staff as StaffDoc).workingHours ?? []) out.push(eventOf(schedule, block));
  }
  return out;
}

/** The staff member whose own schedule `scheduleId` is. @throws ValidationFailure for the business's or an unknown one */
function ownerOf(ctx: RequestContext<unknown>, scheduleId: string): StaffMemberDoc {
  if (scheduleId === businessScheduleId(ctx.site)) {
    throw new ApplicationFailure(428, 'FAILED_PRECONDITION', "the business's default hours cannot be changed in the emulator", { scheduleId });
  }
  for (const staff of catalogOf(ctx).staff.all()) if (staffScheduleId(staff.id) === scheduleId) return staff;
  throw new ApplicationFailure(404, 'SCHEDULE_NOT_FOUND', `schedule ${scheduleId} was not found`, { scheduleId });
}

function saveHours(ctx: RequestContext<unknown>, staff: StaffMemberDoc, hours: WorkingHours[]): void {
  const updated = catalogOf(ctx).staff.update({ ...staff, workingHours: hours } as StaffMemberDoc, { event: false });
  ctx.store.appendEvent(ctx.site, 'staff.updated', updated.id, JSON.stringify(publicStaff(ctx.site, updated, ['RESOURCE_DETAILS'])));
}

/** `HH:mm` of a local date-time. */
const timeOf = (localDate: string) => localDate.slice(11, 16);

/** Every calendar events operation, served. */
export const calendarEventsServed = serve(calendarEventsFamily, {
  queryEvents(ctx) {
    const kinds = ctx.body.recurrenceType;
    if (kinds && !kinds.includes('MASTER')) return { events: [], pagingMetadata: { count: 0, hasNext: false } };
    const query = ctx.body.query ?? {};
    const page = runSearch(allEvents(ctx), { ...query, cursorPaging: { limit: 50, ...query.cursorPaging } }, 'query');
    return { events: page.items, pagingMetadata: page.pagingMetadata };
  },
  createEvent(ctx) {
    const { event } = ctx.body;
    if ((event.type ?? 'DEFAULT') !== 'WORKING_HOURS') throw ValidationFailure.field('event.type', 'must be WORKING_HOURS: the emulator keeps working hours only');
    if (!event.recurrenceRule) throw ValidationFailure.field('event.recurrenceRule', 'is required: working hours recur weekly', 'REQUIRED_FIELD');
    const staff = ownerOf(ctx, event.scheduleId);
    if (usesDefaultHours(staff)) {
      throw new ApplicationFailure(428, 'FAILED_PRECONDITION', `staff member ${staff.id} works the default hours: assign its own schedule first (assignCustomSchedule)`, { staffMemberId: staff.id });
    }
    const [startDate, endDate] = [event.start.localDate.slice(0, 10), event.end.localDate.slice(0, 10)];
    const [from, to] = [timeOf(event.start.localDate), timeOf(event.end.localDate)];
    if (startDate !== endDate || from >= to) throw ValidationFailure.field('event.end.localDate', 'must be later on the same day as event.start.localDate');
    const day = SHORT[event.recurrenceRule.days[0]!];
    const hours = (staff as StaffDoc).workingHours ?? [];
    const scheduleId = staffScheduleId(staff.id);
    if (hours.some((b) => b.day === day && b.startTime < to && from < b.endTime)) {
      throw new ApplicationFailure(409, 'OVERLAPPING_WORKING_HOURS', `${LONG[day]} ${from}-${to} overlaps working hours the staff member has`, { day: LONG[day] });
    }
    const block: WorkingHours = { day, startTime: from, endTime: to, eventId: stableId('event', scheduleId, ctx.requestId), since: startDate };
    saveHours(ctx, staff, [...hours, block]);
    return { event: eventOf(scheduleId, block) };
  },
  cancelEvent(ctx) {
    for (const staff of catalogOf(ctx).staff.all()) {
      const scheduleId = staffScheduleId(staff.id);
      const hours = (staff as StaffDoc).workingHours ?? [];
      const block = hours.find((b) => eventIdOfBlock(scheduleId, b) === ctx.body.eventId);
      if (!block) continue;
      saveHours(ctx, staff, hours.filter((b) => b !== block));
      return { event: { ...eventOf(scheduleId, block), status: 'CANCELLED' } };
    }
    if (allEvents(ctx).some((e) => e.id === ctx.body.eventId)) throw new ApplicationFailure(428, 'FAILED_PRECONDITION', "the business's default hours cannot be changed in the emulator");
    throw new ApplicationFailure(404, 'EVENT_NOT_FOUND', `event ${ctx.body.eventId} was not found`, { eventId: ctx.body.eventId });
  },
});
