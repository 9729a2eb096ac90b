/**
 * `sitectl bookings create`: one booking from flags (`--service S --start WHEN [--staff ID] [--participants N]`
 * and contact flags; a course is booked whole, without `--start`), or many from `--file` (a booking object, an
 * array of them, or NDJSON, one per line; each a booking or `{booking, flowControlSettings, ...}`) through the
 * bulk create call, 40 per request, each reported on its own (docs/wire.md §16), journaled as one change.
 *
 * Everything is checked before the first booking is made: flags, times, the file (each booking against the
 * request schema of the family table) and the output format. Creates are not repeated automatically (a
 * request that may have been processed is not sent again), so a failed chunk is reported, not retried.
 */
import type { Command } from 'commander';
import { looseObject, safeParse } from 'zod/mini';
import { bookingOps } from '../../api/bookings.js';
import { bookingInputs, type BookingCreate } from '../../api/schemas/booking.js';
import type { Context } from '../../context.js';
import { PartialFailureError, UserError } from '../../core/errors.js';
import { parseCount } from '../../core/numbers.js';
import { readSource } from '../../core/input.js';
import { notice, success } from '../../core/log.js';
import { addFormatFlags, type Column, fieldsChecker, type FormatFlags, ndjsonWhenPiped, printRecord, printRecords, printValue, resolveFormat } from '../../core/output.js';
import { oneLine } from '../../core/text.js';
import { serviceOf, staffOf } from '../services/shared/lookup.js';
import { checkFileFields } from '../shared/fields.js';
import { addNotifyFlags, notifyOption, participantNotification } from '../shared/notify.js';
import { parseWhen, siteZone, tzFlag } from '../shared/time.js';
import { formatOf } from '../shared/verbs.js';
import { fetchBooking } from './shared/read.js';
import { BOOKING_VIEW, type BookingRow, rowOf } from './shared/view.js';
import { confirmChange, declareRule, REVERSIBLE } from '../shared/confirm.js';

export interface CreateOptions extends FormatFlags {
  service?: string;
  start?: string;
  staff?: string;
  participants?: string;
  firstName?: string;
  lastName?: string;
  email?: string;
  phone?: string;
  contactId?: string;
  confirmed?: boolean;
  skipAvailability?: boolean;
  tz?: string;
  /** `--notify [message]` (commands/shared/notify.ts). */
  notify?: string | boolean;
  notifyVia?: string;
  file?: string;
  resume?: string;
  yes?: boolean;
}

export function register(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('create')
    .description('Book a slot, a class session or a course; or many bookings from a file')
    .option('--service <service>', 'the service (id, id prefix or exact name)')
    .option('--start <when>', "start of the slot or session (2026-11-24T09:30 or 'tomorrow 14:15' in --tz or the site’s zone, or an ISO instant); not for courses")
    .option('--staff <id>', 'the staff member (id or unique prefix; appointments; default: any free one)')
    .option('--participants <n>', 'how many take part (default 1)')
    .option('--first-name <name>', 'contact first name')
    .option('--last-name <name>', 'contact last name')
    .option('--email <email>', 'contact e-mail')
    .option('--phone <phone>', 'contact phone')
    .option('--contact-id <id>', 'an existing contact')
    .option('--confirmed', 'create it CONFIRMED (default CREATED)')
    .option('--skip-availability', 'book even a full or taken slot, or outside the booking window (marked double-booked)')
    .option('--tz <zone>', 'read --start in this IANA zone')
    .option('--file <path>', "bookings as JSON (an object or an array) or NDJSON; '-' reads stdin; 40 per request")
    .option('--resume <journal>', 'continue a run of --file that stopped or failed on the way: what it made is not made again')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        "  sitectl bookings create --service 'Swedish Massage' --start 'wed 14:15' --first-name Ana --email ana@example.com\n" +
        "  sitectl bookings create --service '8-Week Yoga Foundations' --participants 2 --email kim@example.com --confirmed\n" +
        '  sitectl bookings create --file bookings.ndjson --yes --json\n' +
        '  sitectl bookings create --resume ~/.local/state/sitectl/journals/RUN.ndjson --yes\n' +
        '\nA --file line is a booking as the platform takes it (ids and ISO times, no names), or {"booking": ..., "flowControlSettings": ...}:\n' +
        '  {"bookedEntity":{"slot":{"serviceId":"SERVICE_ID","startDate":"2026-11-25T17:00:00-08:00"}},"contactDetails":{"firstName":"Ana","email":"ana@example.com"}}\n' +
        '  {"bookedEntity":{"schedule":{"scheduleId":"COURSE_SCHEDULE_ID"}},"totalParticipants":2,"contactDetails":{"email":"kim@example.com"}}',
    );
  declareRule(addFormatFlags(addNotifyFlags(cmd)), REVERSIBLE).action(async (o: CreateOptions) => {
    await run(o, ctx);
  });
}

/**
 * Creates the booking (flags) or bookings (`--file`). A single booking is a journaled one-item create
 * (commands/shared/writes.ts: in `sitectl history`, cancelled by `sitectl undo` if unchanged since); the bookings
 * of a file are one journaled change of one item per booking (listed once, each booking it created cancelled by
 * `sitectl undo` if unchanged since). Piped, a single booking prints its id; many print one
 * row per booking (`{index, id, status}` or `{index, error}`) through the exporter: NDJSON when piped, a table on
 * a terminal, `--csv [fields]`, or with `--json [fields]` the object `{results, total, created, failed}`.
 * @throws UserError (exit 2) for bad flags, times or file; (exit 1) for an unknown service; PartialFailureError
 *   (exit 3) when some bookings of a file were refused; ApiError for a refused single booking (its code: 409
 *   SLOT_NOT_AVAILABLE / SESSION_CAPACITY_EXCEEDED, 428 BOOKING_POLICY_VIOLATION, 404 SESSION_NOT_FOUND, ...)
 */
export async function run(opts: CreateOptions, ctx: Context): Promise<void> {
  if (opts.file !== undefined || opts.resume !== undefined) {
    const flagged = ['service', 'start', 'staff', 'participants', 'firstName', 'lastName', 'email', 'phone', 'contactId', 'confirmed', 'skipAvailability', 'tz', 'notify', 'notifyVia'].filter(
      (k) => opts[k as keyof CreateOptions] !== undefined,
    );
    if (opts.file !== undefined && opts.resume !== undefined) throw new UserError('--resume continues the recorded run, with the bookings its journal holds: it takes no --file');
    if (flagged.length) {
      throw new UserError(
        `${opts.file !== undefined ? '--file' : '--resume'} holds whole bookings: give the service, time and contact there, not as flags`,
        'a line takes {"booking": ..., "flowControlSettings": {"skipAvailabilityValidation": true}} for --skip-availability, and "participantNotification": {"notifyParticipants": true} for --notify',
      );
    }
    return createMany(opts, ctx);
  }
  const format = formatOf(ctx, BOOKING_VIEW, opts);
  if (opts.service === undefined) throw new UserError('which service?', `e.g. ${ctx.bin} bookings create --service 'Swedish Massage' --start 'wed 14:15' --email ana@example.com`);
  const tz = tzFlag(opts.tz);
  const notify = participantNotification(notifyOption(opts));
  const participants = opts.participants !== undefined ? parseCount(opts.participants, '--participants', 1, 1000) : undefined;
  if (opts.email !== undefined && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(opts.email)) throw new UserError(`--email: '${opts.email}' is not an e-mail address`);
  const api = await ctx.api();
  const service = await serviceOf(ctx, api, opts.service);
  let bookedEntity: BookingCreate['bookedEntity'];
  if (service.type === 'COURSE') {
    if (opts.start !== undefined || opts.staff !== undefined) throw new UserError(`"${oneLine(service.name ?? service.id)}" is a course: it is booked whole, without --start or --staff`);
    if (!service.schedule?.id) throw new UserError(`course "${oneLine(service.name ?? service.id)}" has no schedule`, undefined);
    bookedEntity = { schedule: { scheduleId: service.schedule.id, ...(tz ? { timezone: tz } : {}) } };
  } else {
    if (opts.start === undefined) throw new UserError('--start is required (the start of the slot or session)', `'${ctx.bin} availability ${service.id}' lists the open ones`);
    // The zone the booking is shown in: --tz, else the site's (also when --start carries an offset).
    const zone = tz ?? (await siteZone(ctx, api));
    const start = parseWhen(opts.start, zone, '--start', ctx.now().getTime());
    bookedEntity = {
      slot: {
        serviceId: service.id,
        startDate: new Date(start).toISOString(),
        timezone: zone,
        ...(opts.staff ? { resource: { id: staffOf(ctx, service, opts.staff) } } : {}),
      },
    };
  }
  const contactDetails = {
    ...(opts.firstName !== undefined ? { firstName: opts.firstName } : {}),
    ...(opts.lastName !== undefined ? { lastName: opts.lastName } : {}),
    ...(opts.email !== undefined ? { email: opts.email } : {}),
    ...(opts.phone !== undefined ? { phone: opts.phone } : {}),
    ...(opts.contactId !== undefined ? { contactId: opts.contactId } : {}),
  };
  const booking: BookingCreate = {
    bookedEntity,
    ...(Object.keys(contactDetails).length ? { contactDetails } : {}),
    ...(participants !== undefined ? { totalParticipants: participants } : {}),
    ...(opts.confirmed ? { status: 'CONFIRMED' as const } : {}),
  };
  // A one-item create through the engine: journaled, so `sitectl history` lists it and `sitectl undo` cancels it.
  const [{ runCreateOne }, { BOOKING_WRITES }] = await Promise.all([import('../shared/one.js'), import('./shared/writes.js')]);
  const body = { booking, ...(opts.skipAvailability ? { flowControlSettings: { skipAvailabilityValidation: true } } : {}), ...notify };
  const created = (await runCreateOne(ctx, BOOKING_WRITES, body, oneLine(service.name ?? service.id))) as BookingRow;
  success(ctx.io, `Booked ${created.id}: ${oneLine(service.name ?? '')}, ${created.status}${created.doubleBooked ? ' (double-booked)' : ''}`);
  if (format.kind === 'table' && !ctx.io.isStdoutTTY) {
    await printValue(ctx.io, format, created, { text: created.id });
    return;
  }
  const full = await fetchBooking(api, created.id, ctx.signal);
  await printRecord(ctx.io, format, full, { rows: BOOKING_VIEW.rows(full), columns: BOOKING_VIEW.columns, now: ctx.now() });
}

/** One item of a file: a booking, or `{booking, participantNotification, flowControlSettings, ...}`. */
type CreateInfo = { booking: BookingCreate } & Record<string, unknown>;

/** The bookings of `--file` (JSON object or array, or NDJSON), each checked against the request schema. */
async function readFile(opts: CreateOptions, ctx: Context): Promise<CreateInfo[]> {
  const text = await readSource('--file', opts.file!, ctx.io.stdin);
  let items: unknown[];
  const trimmed = text.trim();
  if (trimmed === '') throw new UserError(`--file ${opts.file} is empty`);
  try {
    const parsed: unknown = JSON.parse(trimmed);
    items = Array.isArray(parsed) ? parsed : [parsed];
  } catch {
    items = trimmed.split('\n').map((line, i) => {
      if (line.trim() === '') return undefined;
      try {
        return JSON.parse(line) as unknown;
      } catch (err) {
        throw new UserError(`--file ${opts.file} line ${i + 1} is not JSON: ${(err as Error).message}`);
      }
    }).filter((x) => x !== undefined);
  }
  if (items.length === 0) throw new UserError(`--file ${opts.file} holds no bookings`);
  // Field names: the create request's (booking, notifications, flow control), and a booking's as `get --json` shows it.
  const known = [bookingOps.createBooking.request, looseObject({ booking: BOOKING_VIEW.schema })];
  return items.map((item, i) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) throw new UserError(`--file booking ${i + 1}: not a JSON object`);
    const info = (Object.hasOwn(item, 'booking') ? item : { booking: item }) as CreateInfo;
    checkFileFields(known, info, `--file booking ${i + 1}`, ctx.flags.allowUnknownFields);
    const problem = bodyProblem(info);
    if (problem) throw new UserError(`--file booking ${i + 1}: ${problem}`);
    return info;
  });
}

/**
 * What is wrong with one booking to create (`{booking, ...}`, as a --file line gives it and a --file run's journal
 * keeps it): `booking.bookedEntity: expected object`; undefined when it can be sent.
 */
function bodyProblem(info: unknown): string | undefined {
  if (info === null || typeof info !== 'object' || Array.isArray(info)) return 'not a JSON object';
  const checked = safeParse(bookingInputs().BookingCreate, (info as { booking?: unknown }).booking);
  if (checked.success) return undefined;
  const issue = checked.error.issues[0]!;
  return `${issue.path.join('.') || 'booking'}: ${issue.message.replace(/^Invalid input: /, '')}`;
}

/** One booking of a `--file` as the command reports it: its line (from 1), and its id and status or the error. */
interface CreateResult {
  index: number;
  id?: string;
  status?: string;
  error?: string;
}

const RESULT_FIELDS = ['index', 'id', 'status', 'error'];
const RESULT_COLUMNS: Column<CreateResult>[] = [
  { key: 'index', header: '#', align: 'right' },
  { key: 'id', noTruncate: true },
  { key: 'status' },
  { key: 'error' },
];

async function createMany(opts: CreateOptions, ctx: Context): Promise<void> {
  // One row per booking: NDJSON when piped (and with --ndjson), a table on a terminal, --csv [fields]; --json
  // wraps the rows as `results` beside the summary's counts.
  const format = ndjsonWhenPiped(ctx.io, resolveFormat(opts, fieldsChecker([...RESULT_FIELDS, 'total', 'created', 'failed', 'results']), { columns: RESULT_FIELDS }));
  // A resumed run takes its bookings from its journal (each planned item's body), in the file's order.
  const resume =
    opts.resume !== undefined
      ? await (await import('../shared/bulk.js')).resumeJournal(ctx, { view: BOOKING_VIEW, path: opts.resume, action: 'create', command: 'bookings create', planned: (line) => bodyProblem(line.after) })
      : undefined;
  const bodies = resume
    ? new Map(resume.planned.map((p) => [p.id, (p.after ?? {}) as Record<string, unknown>]))
    : new Map((await readFile(opts, ctx)).map((info, i) => [`line-${i + 1}`, info as Record<string, unknown>]));
  if (bodies.size === 0) throw new UserError(`${opts.resume} records no bookings to create`);
  // More than one booking is a change to many: it asks first (--yes off a terminal), as every bulk verb does.
  const scope = bodies.size > 1 ? 'many' : 'one';
  const n = `${bodies.size} booking${bodies.size === 1 ? '' : 's'}`;
  await confirmChange(
    ctx,
    opts,
    REVERSIBLE,
    scope,
    resume ? `Resume the create of ${n} recorded in ${opts.resume}?` : `Create ${n} from ${opts.file}?`,
    resume ? `resuming the create of ${n}` : `creating ${n} from ${opts.file}`,
  );
  // One journaled change of one item per booking, 40 per request through the bulk create call: in `sitectl
  // history`, each booking created cancelled by `sitectl undo` if unchanged since.
  const [{ runCreateMany }, { BOOKING_WRITES }] = await Promise.all([import('../shared/one.js'), import('./shared/writes.js')]);
  if (resume) {
    // Said before the lookups (one query per line whose request failed on the way), which come before any output.
    const uncertain = new Set(resume.sending.keys());
    for (const r of resume.results.values()) if (r.outcome === 'failed' && !r.permanent) uncertain.add(r.id);
    if (uncertain.size) notice(ctx.io, `Looking for ${uncertain.size} booking${uncertain.size === 1 ? '' : 's'} the platform may have made all the same (one query each)`);
  }
  const { results: outcomes, created, resumeCommand } = await runCreateMany(ctx, BOOKING_WRITES, bodies, (b) => BOOKING_VIEW.label(rowOf(b)) || undefined, {
    command: 'bookings create',
    ...(resume ? { resume } : {}),
  });
  const results = outcomes.map((r, i): CreateResult => {
    const index = i + 1;
    if (r.outcome === 'created') return { index, id: r.createdId, status: (created.get(r.createdId ?? '') as BookingRow | undefined)?.status ?? undefined };
    return { index, error: r.error ?? r.outcome };
  });
  const failed = results.filter((r) => r.error);
  // A booking whose request failed on the way (not refused) may exist all the same: a resume finds it first.
  const unsure = outcomes.some((r) => r.outcome === 'failed' && !r.permanent);
  const envelope = { key: 'results', extra: { total: results.length, created: results.length - failed.length, failed: failed.length } };
  await printRecords(ctx.io, format, results, RESULT_COLUMNS, { now: ctx.now(), envelope });
  success(ctx.io, `Created ${results.length - failed.length} of ${results.length} bookings`);
  if (failed.length) {
    const first = `first: booking ${failed[0]!.index}, ${oneLine(failed[0]!.error ?? '')}`;
    if (unsure && resumeCommand) {
      throw new PartialFailureError(
        `${failed.length} of ${results.length} bookings may not have been made: their request failed on the way (${first})`,
        `resume with: ${resumeCommand} (a booking the platform made all the same is found, not made again); creating them again from the file could double them`,
      );
    }
    throw new PartialFailureError(`${failed.length} of ${results.length} bookings were refused (${first})`, 'fix those lines and create them again; the others exist now');
  }
}
