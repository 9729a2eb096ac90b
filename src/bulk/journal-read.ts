/**
 * Journals read back (docs/architecture.md "Bulk runs, the journal, history and undo"): as a stream of lines, each
 * at most {@link MAX_JOURNAL_LINE} bytes, each checked against the shape of its kind before anything trusts it.
 * A file that is not a journal, or one changed by hand, is refused naming the file, the line and the field; it is
 * never read whole (a 1 GB file without a newline is refused after one bound's worth) and never half-trusted.
 * A truncated last line is what a kill during a write leaves, and is dropped.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import { ExitCode, UserError } from '../core/errors.js';
import type { HeaderLine, JournalLine, JournalState, PlannedLine, ResultLine } from './journal.js';

// zod/mini ships no messages of its own.
z.config(en());

/** The longest line a journal may hold: a header with 100,000 ids is about 4 MiB; a before-image a few KiB. */
export const MAX_JOURNAL_LINE = 16 * 1024 * 1024;

/** How far in the future a journal's date may be (clocks of one machine disagree by less). */
const FUTURE_SLACK_MS = 24 * 3600 * 1000;

/**
 * A file that cannot be read as a journal: `problem` says where and what (`line 1: header.runId: expected string,
 * received number`). Exit 2: the file is the input at fault.
 */
export class JournalDamagedError extends UserError {
  override readonly name = 'JournalDamagedError';
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`journal ${path} cannot be used: ${problem}`, 'a journal is written by sitectl alone: restore it, or move it out of the way if it is not one', ExitCode.Usage);
  }
}

const text = z.string().check(z.minLength(1), z.maxLength(1000));
/** An id as the platform gives them: no separators or control characters (ids build request paths). */
const id = z.string().check(z.minLength(1), z.maxLength(200), z.regex(/^[^/\\?#%\s\p{Cc}]+$/u, 'not an id'));
const origin = z.looseObject({
  profile: z.optional(z.string()),
  siteId: z.optional(z.string()),
  siteName: z.optional(z.string()),
  command: z.optional(z.string()),
  baseUrl: z.optional(z.string()),
});
const args = z.looseObject({
  filter: z.optional(z.record(z.string(), z.unknown())),
  ids: z.optional(z.array(id)),
  set: z.optional(z.array(z.looseObject({ path: z.string(), value: z.unknown() }))),
  mask: z.optional(z.string()),
  sourceId: z.optional(id),
  count: z.optional(z.number().check(z.int(), z.nonnegative())),
  existing: z.optional(z.array(id)),
  options: z.optional(z.record(z.string(), z.unknown())),
});
/** The shape of each kind of line (loose: a newer sitectl may add fields). */
const LINES = {
  header: z.looseObject({
    kind: z.literal('header'),
    runId: z.string().check(z.regex(/^[\w.-]{1,100}$/, 'not a run id')),
    origin: z.optional(origin),
    undoOf: z.optional(text),
    partOf: z.optional(text),
    prepares: z.optional(z.boolean()),
    // Journals written before runs named their entity were all services runs (readJournal fills it in).
    entity: z.optional(text),
    action: text,
    createdAt: z.iso.datetime({ offset: true }),
    args,
  }),
  planned: z.looseObject({ kind: z.literal('planned'), id, revision: z.optional(z.string()), after: z.optional(z.unknown()), name: z.optional(z.string()), before: z.optional(z.unknown()) }),
  result: z.looseObject({
    kind: z.literal('result'),
    id,
    outcome: text,
    revision: z.optional(z.string()),
    createdId: z.optional(id),
    error: z.optional(z.string()),
    permanent: z.optional(z.boolean()),
    httpStatus: z.optional(z.number()),
    note: z.optional(z.string()),
  }),
  sending: z.looseObject({ kind: z.literal('sending'), id, intended: z.optional(z.unknown()) }),
  'planned-all': z.looseObject({ kind: z.literal('planned-all'), count: z.number().check(z.int(), z.nonnegative()) }),
  end: z.looseObject({ kind: z.literal('end'), at: z.string(), status: z.optional(z.enum(['done', 'declined', 'aborted'])) }),
} as const;

/** `header.runId: expected string, received number` for the first issue of a failed parse of a `kind` line. */
function issueText(kind: string, issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string {
  const issue = issues[0];
  if (!issue) return `${kind}: not valid`;
  return `${[kind, ...issue.path.map(String)].join('.')}: ${issue.message.replace(/^Invalid input: /, '')}`;
}

/**
 * A run's options (`header.args.options`) read through the verb's schema. The options of a resumed or undone run
 * come from a journal file, which is input like any other: what a verb rebuilds its action from is checked here,
 * not assumed, and its type is the schema's (spec "Bulk operations": resume; docs/architecture.md "Bulk runs, the journal, history and undo").
 * @param args the run's args (fresh, or a journal header's)
 * @param schema the verb's options, e.g. `{moves: Record<id, {to: slot, expect?: revision}>}`
 * @returns the options as `schema` gives them
 * @throws UserError (exit 2) naming the field: `the journal's options cannot be used: options.moves.b1.to: expected object, received string`
 */
export function journalOptions<T>(args: { options?: Record<string, unknown> }, schema: z.ZodMiniType<T>): T {
  const parsed = z.safeParse(schema, args.options ?? {});
  if (parsed.success) return parsed.data;
  throw new UserError(`the journal's options cannot be used: ${issueText('options', parsed.error.issues)}`, 'a journal is written by sitectl alone: restore it, or move it out of the way if it is not one', ExitCode.Usage);
}

/**
 * The lines of a file, as text, each bounded: yields `[lineNumber, text, complete]` (`complete` false for a last
 * line without its newline). Reads 64 KiB at a time, decoded as UTF-8 across block boundaries.
 * @throws JournalDamagedError for a line longer than {@link MAX_JOURNAL_LINE}, or a path that is not a file
 */
function* linesOf(path: string): Generator<[number, string, boolean]> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    throw new UserError(`cannot read journal ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  try {
    // A journal is a file sitectl wrote: a device or FIFO (`--resume /dev/zero`) would be read without end.
    if (!fstatSync(fd).isFile()) throw new JournalDamagedError(path, 'not a regular file');
    const block = Buffer.alloc(64 * 1024);
    const decoder = new StringDecoder('utf8');
    let pending = '';
    let n = 0;
    const tooLong = () => new JournalDamagedError(path, `line ${n + 1} is longer than ${MAX_JOURNAL_LINE / 1024 / 1024} MiB`);
    for (;;) {
      const read = readSync(fd, block, 0, block.length, null);
      if (read === 0) break;
      const text = decoder.write(block.subarray(0, read));
      let start = 0;
      for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
        const line = pending + text.slice(start, nl);
        pending = '';
        // Characters, not bytes: a bound all the same, at most three times the bytes.
        if (line.length > MAX_JOURNAL_LINE) throw tooLong();
        yield [++n, line, true];
        start = nl + 1;
      }
      pending += text.slice(start);
      if (pending.length > MAX_JOURNAL_LINE) throw tooLong();
    }
    pending += decoder.end();
    if (pending.length > 0) yield [++n, pending, false];
  } finally {
    closeSync(fd);
  }
}

/** The check of a result line the history's sums need: its id and outcome are text. */
function quickResult(value: unknown): { success: true } | { success: false; error: { issues: Array<{ path: PropertyKey[]; message: string }> } } {
  const line = value as { id?: unknown; outcome?: unknown };
  if (typeof line.id !== 'string' || line.id === '') return { success: false, error: { issues: [{ path: ['id'], message: 'expected string' }] } };
  if (typeof line.outcome !== 'string' || line.outcome === '') return { success: false, error: { issues: [{ path: ['outcome'], message: 'expected string' }] } };
  return { success: true };
}

/** Whether a line written by sitectl is of one of `kinds` (`{"kind":"planned",...`), told from its start. */
function skippable(raw: string, kinds: ReadonlySet<string>): boolean {
  const m = /^\{"kind":"([a-z-]+)"/.exec(raw);
  return m !== null && kinds.has(m[1]!);
}

/**
 * The lines of a journal, each parsed and checked against the shape of its kind; the first must be the header.
 * A last line cut short by a kill is dropped.
 * @param now when given, a header dated more than a day after it is refused (a clock or a hand gone wrong: it
 *   would otherwise be the newest change, taken by `undo --last`)
 * @param skip kinds of lines the caller does not read, passed over unparsed (after the header)
 * @throws JournalDamagedError naming the line and the field; UserError when the file cannot be opened
 */
export function* journalLines(path: string, now?: Date, skip?: ReadonlySet<JournalLine['kind']>): Generator<JournalLine> {
  let first = true;
  for (const [n, raw, complete] of linesOf(path)) {
    if (raw.trim() === '') continue;
    // Kinds the caller does not read are passed over unparsed: sitectl writes `kind` first (the history's sums
    // need no before-image; `--resume` and `undo` read every line).
    if (!first && skip && skippable(raw, skip)) continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      if (!complete) break;
      throw new JournalDamagedError(path, `line ${n} is not JSON`);
    }
    const kind = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as { kind?: unknown }).kind : undefined;
    if (first && kind !== 'header') throw new JournalDamagedError(path, `line ${n} is not a journal header (a sitectl journal starts with {"kind":"header",...})`);
    if (!first && kind === 'header') throw new JournalDamagedError(path, `line ${n}: a second header`);
    const schema = typeof kind === 'string' ? LINES[kind as keyof typeof LINES] : undefined;
    if (!schema) throw new JournalDamagedError(path, `line ${n}: unknown kind ${JSON.stringify(kind ?? null)}`);
    // The history's sums read a result's id and outcome only, for thousands of lines: those two are checked by
    // hand there (`--resume` and `undo` check every line whole).
    const parsed = skip && kind === 'result' && !first ? quickResult(value) : z.safeParse(schema, value);
    if (!parsed.success) {
      // A line cut short can still be JSON (a kill between two lines of one write); it is the last one then.
      if (!complete) break;
      throw new JournalDamagedError(path, `line ${n}: ${issueText(kind as string, parsed.error.issues)}`);
    }
    if (first && now) {
      const at = Date.parse((value as HeaderLine).createdAt);
      if (at > now.getTime() + FUTURE_SLACK_MS) throw new JournalDamagedError(path, `line ${n}: header.createdAt ${(value as HeaderLine).createdAt} is in the future`);
    }
    first = false;
    yield value as JournalLine;
  }
  if (first) throw new JournalDamagedError(path, 'it has no complete header line (empty, or cut short)');
}

/**
 * Reads a journal whole, for `--resume` and `undo`: every line checked (journalLines) before the run reads
 * anything of it.
 * @throws JournalDamagedError (exit 2) naming the file, the line and the field; UserError when it cannot be read
 */
export function readJournal(path: string, opts: { now?: Date } = {}): JournalState {
  const lines = journalLines(path, opts.now);
  const header = lines.next().value as HeaderLine;
  header.entity ??= 'services';
  const planned: PlannedLine[] = [];
  const seen = new Set<string>();
  const results = new Map<string, ResultLine>();
  const sending = new Map<string, unknown>();
  let ended = false;
  let planComplete = false;
  for (const line of lines) {
    if (line.kind === 'planned') {
      if (!seen.has(line.id)) {
        seen.add(line.id);
        planned.push(line);
      }
    } else if (line.kind === 'result') {
      results.set(line.id, line);
      sending.delete(line.id);
    } else if (line.kind === 'sending') {
      sending.set(line.id, line.intended);
    } else if (line.kind === 'planned-all') {
      planComplete = true;
    } else if (line.kind === 'end') {
      ended = true;
    }
  }
  return { path, header, planned, results, sending, planComplete, ended };
}

/** Lines the history's sums do not read: the plan (with its before-images) and the intents of creates. */
const SUMMARY_SKIPS: ReadonlySet<JournalLine['kind']> = new Set(['planned', 'sending']);

/** A journal as the history lists it: its header and counts, without the plan's before-images. */
export interface JournalSummary {
  path: string;
  header: HeaderLine;
  /** The last outcome of each item that has one. */
  outcomes: Map<string, string>;
  ended: boolean;
}

/**
 * Reads what the history shows of a journal, keeping no before-image in memory (a history of 1,000 journals of
 * thousands of items each stays small).
 * @throws JournalDamagedError, UserError as {@link readJournal}
 */
export function summarizeJournal(path: string, now?: Date): JournalSummary {
  const lines = journalLines(path, now, SUMMARY_SKIPS);
  const header = lines.next().value as HeaderLine;
  header.entity ??= 'services';
  const outcomes = new Map<string, string>();
  let ended = false;
  for (const line of lines) {
    if (line.kind === 'result') outcomes.set(line.id, line.outcome);
    else if (line.kind === 'end') ended = true;
  }
  return { path, header, outcomes, ended };
}

/**
 * The header of a journal, read from its first line only, or undefined for a file that is not a journal (no
 * error: the caller lists or prunes a folder that may hold anything).
 */
export function journalHeader(path: string): HeaderLine | undefined {
  try {
    return journalLines(path).next().value as HeaderLine | undefined;
  } catch {
    return undefined;
  }
}
