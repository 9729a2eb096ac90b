/**
 * `sitectl staff hours show STAFF` and `sitectl staff hours set STAFF --day mon [--day tue,wed] --from 09:00
 * --to 17:00`: a staff member's weekly working hours.
 *
 * On the platform working hours are weekly recurring `WORKING_HOURS` calendar events, one weekday each, in a
 * working-hours schedule (api/calendar-events.ts). A new staff member works the business's default hours (the
 * business schedule's events). `set` gives the named days the hours `--from`-`--to` and keeps the other days as
 * they are: a staff member still on the default hours is first moved to a schedule of its own
 * (assignCustomSchedule) holding a copy of the default hours, then the named days' events are cancelled and
 * created again. `--off` makes the named days free. Every flag is checked before anything is read. `set` is a
 * one-item plan of the bulk engine, journaled with the named days' former hours: `sitectl undo` sets them back.
 */
import type { Command } from 'commander';
import * as z from 'zod/mini';
import type { ApiClient } from '../../api/client.js';
import { calendarEvents, calendarEventsFamily, CalendarDayValues, type CalendarDay, type CalendarEvent } from '../../api/calendar-events.js';
import { collect, items, listPages } from '../../api/paging.js';
import { staffMembers } from '../../api/staff-members.js';
import { type StaffMemberRecord } from '../../api/schemas/staff.js';
import type { Context } from '../../context.js';
import { ExitCode, UserError } from '../../core/errors.js';
import { collect as collectFlag } from '../../core/filters.js';
import { notice } from '../../core/log.js';
import { addFormatFlags, fieldsChecker, printRecords, resolveFormat, type FormatFlags } from '../../core/output.js';
import { oneLine } from '../../core/text.js';
import { declareRule, REVERSIBLE } from '../shared/confirm.js';
import type { EntityView } from '../shared/entity-view.js';
import { viewPort } from '../shared/view-port.js';
import { readingSender, transitionAction, type EntityAction } from '../../bulk/actions.js';
import type { JournalArgs } from '../../bulk/journal.js';
import { journalOptions } from '../../bulk/journal-read.js';
import { type EntityPort, fetchByIds } from '../../bulk/port.js';
import { STAFF_VIEW, staffIdOf, staffOf } from './shared/view.js';

/** One block of working hours as printed: `{day: 'MON', from: '09:00', to: '17:00', eventId}`. */
export interface HoursRow {
  day: string;
  from: string;
  to: string;
  eventId: string;
}

const SHORT = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const;
const HOURS_FIELDS = ['day', 'from', 'to', 'eventId'];

/**
 * The calendar days of `--day` values (each `mon`..`sun` or the full name, comma lists allowed).
 * @throws UserError (exit 2) for none or an unknown day
 */
export function daysOf(values: readonly string[]): CalendarDay[] {
  const words = values.flatMap((v) => v.split(',')).map((w) => w.trim().toUpperCase()).filter(Boolean);
  if (words.length === 0) throw new UserError('--day is required: the days to set, e.g. --day mon --day tue or --day mon,tue,wed');
  const out = new Set<CalendarDay>();
  for (const w of words) {
    const i = SHORT.findIndex((s) => s === w || CalendarDayValues[SHORT.indexOf(s)] === w);
    if (i < 0) throw new UserError(`--day: unknown day '${w.toLowerCase()}'; use mon, tue, wed, thu, fri, sat or sun`);
    out.add(CalendarDayValues[i]!);
  }
  return [...out].sort((a, b) => CalendarDayValues.indexOf(a) - CalendarDayValues.indexOf(b));
}

/** `HH:mm` of a `--from`/`--to` value (`9:00` and `09:00` are taken). @throws UserError (exit 2) */
export function clockOf(value: string | undefined, flag: string): string {
  const m = value === undefined ? null : /^(\d{1,2}):(\d{2})$/.exec(value.trim());
  if (!m || Number(m[1]) > 24 || Number(m[2]) > 59 || (Number(m[1]) === 24 && m[2] !== '00')) {
    throw new UserError(value === undefined ? `${flag} is required (a time such as 09:00)` : `${flag}: '${value}' is not a time of day such as 09:00`);
  }
  return `${m[1]!.padStart(2, '0')}:${m[2]}`;
}

/** The rows of working-hours MASTER events, Monday first. */
function rowsOf(events: readonly CalendarEvent[]): HoursRow[] {
  return events
    .filter((e) => e.type === 'WORKING_HOURS' && e.status !== 'CANCELLED')
    .map((e) => {
      const day = (e.recurrenceRule?.days?.[0] ?? '') as CalendarDay;
      return { day: SHORT[CalendarDayValues.indexOf(day)] ?? day, from: (e.start?.localDate ?? '').slice(11, 16), to: (e.end?.localDate ?? '').slice(11, 16), eventId: e.id };
    })
    .sort((a, b) => SHORT.indexOf(a.day) - SHORT.indexOf(b.day) || a.from.localeCompare(b.from));
}

/** The weekly working-hours MASTER events of a schedule. */
async function hoursEvents(api: ApiClient, scheduleId: string, signal?: AbortSignal): Promise<CalendarEvent[]> {
  const pages = listPages(api, calendarEventsFamily.operations.queryEvents, {
    filter: { scheduleId, type: 'WORKING_HOURS' },
    params: { recurrenceType: ['MASTER'] },
    pageSize: 100,
    signal,
  });
  return collect(items(pages));
}

/** The schedule whose hours a staff member works now, and whether it is the business's (shared) one. */
function scheduleOf(staff: StaffMemberRecord): { id: string; shared: boolean; own: string } {
  const own = staff.resource?.eventsSchedule?.id;
  const current = staff.resource?.workingHoursSchedules?.[0];
  if (!own || !current?.id) throw new UserError(`staff member ${staff.id} has no working-hours schedule the platform shows`, undefined, ExitCode.Failure);
  return { id: current.id, shared: staff.resource?.usesDefaultWorkingHours ?? current.shared === true, own };
}

/** `YYYY-MM-DD` of the first `day` after today (UTC): a weekly event cannot start in the past. */
function nextDate(day: CalendarDay, now: Date): string {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const dow = (new Date(today).getUTCDay() + 6) % 7; // Monday = 0
  const ahead = ((CalendarDayValues.indexOf(day) - dow + 7) % 7) || 7;
  return new Date(today + ahead * 86_400_000).toISOString().slice(0, 10);
}

function createHours(api: ApiClient, scheduleId: string, day: CalendarDay, from: string, to: string, now: Date, signal?: AbortSignal) {
  const date = nextDate(day, now);
  return calendarEvents.createEvent(
    api,
    { event: { scheduleId, type: 'WORKING_HOURS', start: { localDate: `${date}T${from}:00` }, end: { localDate: `${date}T${to}:00` }, recurrenceRule: { frequency: 'WEEKLY', interval: 1, days: [day] } } },
    { signal },
  );
}

/** Hours of some weekdays: each day's blocks (`[]`: the day is free). */
/** The blocks of each named day (`HH:MM` on the site's clock), as `staff hours set` sends them and the journal keeps them. */
const WEEK = z.partialRecord(z.enum(CalendarDayValues), z.array(z.object({ from: z.string(), to: z.string() })));
export type Week = z.infer<typeof WEEK>;

/** A staff member with the week it works now (its own hours, or the default ones when `shared`). */
interface HoursEntity extends StaffMemberRecord {
  week: HoursRow[];
  shared: boolean;
}

/** The blocks of `day` in `rows`, in order, as `09:00-17:00` words (what two weeks are compared by). */
function blocksOf(rows: readonly HoursRow[], day: CalendarDay): string {
  const short = SHORT[CalendarDayValues.indexOf(day)];
  return rows
    .filter((r) => r.day === short)
    .map((r) => `${r.from}-${r.to}`)
    .join(',');
}
const wordsOf = (blocks: ReadonlyArray<{ from: string; to: string }>) => blocks.map((b) => `${b.from}-${b.to}`).join(',');

/** True when every day of `week` has exactly its blocks in `rows`. */
function holds(rows: readonly HoursRow[], week: Week): boolean {
  return (Object.entries(week) as Array<[CalendarDay, Array<{ from: string; to: string }>]>).every(([day, blocks]) => blocksOf(rows, day) === wordsOf(blocks));
}

/** The port of staff members with their week: the staff view's, each read back with its working hours. */
function hoursPort(api: ApiClient): EntityPort<HoursEntity> {
  const base = viewPort<StaffMemberRecord>(api, STAFF_VIEW as EntityView<unknown>);
  return {
    noun: base.noun,
    label: (s) => s.name ?? undefined,
    // eslint-disable-next-line require-yield
    async *pages() {
      throw new TypeError('working hours are set for staff members named by id');
    },
    async byIds(ids, signal) {
      const out = new Map<string, HoursEntity>();
      for (const [id, staff] of await fetchByIds(base, ids, signal)) {
        const schedule = scheduleOf(staff);
        out.set(id, { ...staff, shared: schedule.shared, week: rowsOf(await hoursEvents(api, schedule.shared ? schedule.id : schedule.own, signal)) });
      }
      return out;
    },
  };
}

/**
 * Gives the days of `week` their blocks and keeps the other days as they are: a staff member still on the default
 * hours is first moved to a schedule of its own (assignCustomSchedule) holding a copy of the default hours, then
 * the named days' events are cancelled and created again.
 */
async function applyWeek(api: ApiClient, staff: StaffMemberRecord, week: Week, now: Date, signal?: AbortSignal): Promise<void> {
  const schedule = scheduleOf(staff);
  const named = new Set<string>(Object.keys(week));
  if (schedule.shared) {
    // Moving to a schedule of its own starts empty: the default hours of the other days come along.
    const defaults = await hoursEvents(api, schedule.id, signal);
    await staffMembers.assignCustomSchedule(api, { staffMemberId: staff.id, scheduleId: schedule.own }, { signal });
    for (const e of defaults) {
      const day = e.recurrenceRule?.days?.[0] as CalendarDay | undefined;
      if (!day || named.has(day) || e.type !== 'WORKING_HOURS') continue;
      await createHours(api, schedule.own, day, (e.start?.localDate ?? '').slice(11, 16), (e.end?.localDate ?? '').slice(11, 16), now, signal);
    }
  } else {
    for (const e of await hoursEvents(api, schedule.own, signal)) {
      if (named.has(e.recurrenceRule?.days?.[0] ?? '')) await calendarEvents.cancelEvent(api, { eventId: e.id }, { signal });
    }
  }
  for (const [day, blocks] of Object.entries(week) as Array<[CalendarDay, Array<{ from: string; to: string }>]>) {
    for (const b of blocks) await createHours(api, schedule.own, day, b.from, b.to, now, signal);
  }
}

/**
 * The options of `staff hours set` (and of its undo) as the journal keeps them: `week`, the days to set and their
 * blocks; `expect` (an undo), the blocks the change being undone left: a day that holds others now was changed since.
 */
export const HOURS_OPTIONS = z.object({ week: WEEK, expect: z.optional(WEEK) });
export type HoursOptions = z.infer<typeof HOURS_OPTIONS>;

/**
 * The port and action of `staff hours set` over `args`: nothing is sent when the days hold those hours already;
 * the journal keeps the named days' former blocks (and whether the default hours were worked), so `sitectl undo`
 * sets them back, unless they were changed since.
 */
export function hoursRun(api: ApiClient, args: JournalArgs, now: Date): { port: EntityPort; action: EntityAction } {
  const o = journalOptions(args, HOURS_OPTIONS);
  const port = hoursPort(api);
  const action = transitionAction<HoursEntity>({
    name: 'hours',
    done: 'set',
    title: o.expect ? 'Undoing' : 'Setting hours',
    reached: (e) => holds(e.week, o.week),
    blocked: (e) => (o.expect && !holds(e.week, o.expect) ? 'its hours were changed since' : undefined),
    send: readingSender(port, (e, _item, signal) => applyWeek(api, e, o.week, now, signal)),
    chunkSize: 1,
    maxAttempts: 1,
    args,
    beforeImage: (e) => ({
      shared: e.shared,
      week: Object.fromEntries(
        Object.keys(o.week).map((day) => [day, e.week.filter((r) => r.day === SHORT[CalendarDayValues.indexOf(day as CalendarDay)]).map((r) => ({ from: r.from, to: r.to }))]),
      ),
    }),
  });
  return { port: port, action: action };
}

interface SetOptions extends FormatFlags {
  staff: string;
  day: string[];
  from?: string;
  to?: string;
  off?: boolean;
}

/**
 * Sets the named days' hours as a one-item plan of the bulk engine (commands/shared/one.ts runOneVerb): says so
 * when they hold those hours already (nothing sent), journals the days' former hours (so `sitectl undo` sets them
 * back), and prints the week as it is now.
 * @throws UserError (exit 2) for an unknown day, a bad time, `--from` not before `--to`, an empty or unknown staff
 *   member; (exit 1) when the platform refuses a call
 */
export async function runSet(opts: SetOptions, ctx: Context): Promise<void> {
  const format = resolveFormat(opts, fieldsChecker(HOURS_FIELDS));
  const days = daysOf(opts.day);
  let from = '';
  let to = '';
  if (opts.off) {
    if (opts.from !== undefined || opts.to !== undefined) throw new UserError('--off frees the days: drop --from and --to');
  } else {
    from = clockOf(opts.from, '--from');
    to = clockOf(opts.to, '--to');
    if (from >= to) throw new UserError(`--from ${from} must be before --to ${to}`);
  }
  if (opts.staff.trim() === '') throw new UserError('the staff member id is empty');
  const week: Week = Object.fromEntries(days.map((d) => [d, opts.off ? [] : [{ from, to }]]));
  const names = days.map((d) => SHORT[CalendarDayValues.indexOf(d)]!.toLowerCase()).join(', ');
  const { runOneVerb } = await import('../shared/one.js');
  const label = (s: StaffMemberRecord) => `staff member ${s.id} (${oneLine(s.name ?? '')})`;
  await runOneVerb(ctx, {
    view: {
      noun: STAFF_VIEW.noun,
      label: (s) => (s as StaffMemberRecord).name ?? undefined,
      format: () => format,
      print: async (c, f, e) => {
        await printRecords(c.io, f, (e as HoursEntity).week, COLUMNS, { now: c.now() });
      },
    },
    title: 'Setting hours',
    build: (api) => hoursRun(api, { options: { week } }, ctx.now()),
    resolve: (api) => staffIdOf(ctx, api, opts.staff),
    flags: opts,
    command: 'staff hours set',
    one: {
      given: opts.staff,
      rule: REVERSIBLE,
      already: (s: StaffMemberRecord) => `${label(s)} works ${names} ${opts.off ? 'off' : `${from}-${to}`} already`,
      outcome: (after: StaffMemberRecord) => `Set the working hours of ${label(after)}: ${names} ${opts.off ? 'off' : `${from}-${to}`}`,
    },
  });
}

const COLUMNS = [{ key: 'day' }, { key: 'from' }, { key: 'to' }, { key: 'eventId', id: true, noTruncate: true, priority: 1 }];

/** Prints the week a staff member works (the business's default hours, said on stderr, or its own). */
export async function runShow(opts: FormatFlags & { staff: string }, ctx: Context): Promise<void> {
  const format = resolveFormat(opts, fieldsChecker(HOURS_FIELDS));
  const api = await ctx.api();
  const staff = await staffOf(ctx, api, opts.staff);
  const schedule = scheduleOf(staff);
  if (schedule.shared) notice(ctx.io, `staff member ${staff.id} (${oneLine(staff.name ?? '')}) works the business's default hours`);
  await printRecords(ctx.io, format, rowsOf(await hoursEvents(api, schedule.shared ? schedule.id : schedule.own, ctx.signal)), COLUMNS, { now: ctx.now(), empty: 'No working hours: this staff member works no day of the week.' });
}

export function register(parent: Command, ctx: Context): void {
  const hours = parent.command('hours').description("Show or set a staff member's weekly working hours");
  addFormatFlags(
    hours
      .command('show')
      .description('The weekly working hours of a staff member (the default hours until it has its own)')
      .argument('<staff>', 'staff member id, unique id prefix, or exact name')
      .addHelpText('after', "\nExamples:\n  sitectl staff hours show 'Maya Chen'\n  sitectl staff hours show 3f2a --json day,from,to"),
  ).action(async (staff: string, o: FormatFlags) => {
    await runShow({ ...o, staff }, ctx);
  });
  const set = hours
    .command('set')
    .description("Set the hours of some weekdays (the other days keep theirs; a staff member on the default hours gets its own copy first)")
    .argument('<staff>', 'staff member id, unique id prefix, or exact name')
    .option('--day <day>', 'mon, tue, wed, thu, fri, sat or sun (repeatable, or comma-separated)', collectFlag, [])
    .option('--from <HH:mm>', 'start of the working day, on the site\'s clock')
    .option('--to <HH:mm>', 'end of the working day (after --from)')
    .option('--off', 'the days are free (no --from/--to)')
    .addHelpText(
      'after',
      "\nExamples:\n  sitectl staff hours set 'Maya Chen' --day mon --day tue --from 09:00 --to 17:00\n  sitectl staff hours set 3f2a --day sat,sun --off",
    );
  declareRule(addFormatFlags(set), REVERSIBLE).action(async (staff: string, o: Omit<SetOptions, 'staff'>) => {
    await runSet({ ...o, staff }, ctx);
  });
}
