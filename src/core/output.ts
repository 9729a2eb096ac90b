/**
 * The one exporter of records to stdout (docs/architecture.md "Output and interaction"; gh's cmdutil/json_flags.go):
 *
 * - `--json [fields]`: a JSON array (or one object for a single record); no field list = every field, a
 *   comma-separated list = only those (dotted paths reach into nested objects).
 * - `--ndjson`: one JSON object per line, streamed as records arrive (constant memory).
 * - `--csv`: a header row of column keys, then RFC 4180 quoted rows, ISO dates.
 * - otherwise on a TTY: an aligned table with a bold header when colour is on, fitted to the terminal width by
 *   the one column engine (core/columns.ts), times by the one time rule (core/when.ts: `Thu 22:00`,
 *   `11-26 22:00`, or the date);
 * - otherwise (stdout piped): tab-separated rows with no header, ISO dates, no colour (like gh off a TTY).
 *
 * Only data goes to stdout; notices go to stderr through core/log.ts. Every format flag, and every field named
 * in `--json fields`, is checked when the format is resolved, before a command sends anything (docs/architecture.md "Layout and dependency direction"). Text from the server is escaped before it reaches a terminal (table, TSV, key/value views); JSON is left
 * as it is.
 */
import type { Command } from 'commander';
import { getPath, setPath } from '../api/paths.js';
import { UserError } from './errors.js';
import type { IOStreams } from './iostreams.js';
import { style } from './log.js';
import { escapeControl } from './text.js';
import type { ColumnShape } from './columns.js';

export type OutputFormat =
  | { kind: 'table' }
  | { kind: 'json'; fields?: string[] }
  | { kind: 'ndjson' }
  | { kind: 'csv' };

/** The parsed values of the flags `addFormatFlags` declares (Commander option values). */
export interface FormatFlags {
  json?: string | boolean;
  ndjson?: boolean;
  csv?: boolean;
}

/** One column of a table, TSV or CSV view. */
export interface Column<T> {
  /** Field name: the CSV header and, without `get`, the (dotted) path read from the record. */
  key: string;
  /** TTY table header; default `key` in upper case. */
  header?: string;
  /** Value of the cell; default: the value at `key`. (Method syntax: a column of a subtype fits a wider view.) */
  get?(record: T): unknown;
  /** Right-align on a TTY (numbers). */
  align?: 'left' | 'right';
  /** Never shortened to fit the terminal (ids: a truncated id cannot be copied). */
  noTruncate?: boolean;
  /** An id: shown by its first 8 characters on a terminal (any unique prefix is accepted back); whole when piped. */
  id?: boolean;
  /**
   * When the table is too wide, columns with the highest priority number are dropped first (before any cell is
   * cut); 0 (the default) is never dropped.
   */
  priority?: number;
  /**
   * How the column narrows on a terminal (core/columns.ts): `cut` (free text, the default) is cut with `…` down
   * to `min`; `whole` is never cut (the default for ids, `noTruncate` and times).
   */
  fit?: 'cut' | 'whole';
  /** Narrowest width of a `cut` column, in display cells (default 10). */
  min?: number;
}

/** How `column` behaves in the column engine, under `header`; `time`: its cells are times (never cut). */
export function columnShape<T>(column: Column<T>, time = false): ColumnShape {
  // Left undefined (cut) unless known: the browser still finds time columns by their cells.
  const fit = column.fit ?? (column.id || column.noTruncate || time ? 'whole' : undefined);
  return { header: column.header ?? column.key.toUpperCase(), fit, min: column.min, priority: column.priority, align: column.align };
}

/** Characters of an id shown in a terminal table (like a short git hash). */
export const SHORT_ID_LENGTH = 8;

/**
 * Says whether a `--json` field exists: `{ok: true}`, or the fields that do (and a close one, when the name
 * looks like a typo). Commands build one from the entity's schema; core knows no schemas.
 */
export type FieldChecker = (path: string) => { ok: true } | { ok: false; known: readonly string[]; suggestion?: string };

export type Records<T> = Iterable<T> | AsyncIterable<T>;

/** Declares `--json [fields]`, `--ndjson` and `--csv` on `cmd` (call once per command that prints records). */
export function addFormatFlags(cmd: Command): Command {
  return cmd
    .option('--json [fields]', 'print JSON; optionally only these comma-separated fields (e.g. --json id,name)')
    .option('--ndjson', 'print one JSON object per line (streams)')
    .option('--csv', 'print CSV with a header row');
}

const FIELD_LIST = /^[A-Za-z_$][\w$]*(\.[\w$]+)*(,[A-Za-z_$][\w$]*(\.[\w$]+)*)*$/;

/**
 * Turns the format flags into an OutputFormat, checking every `--json` field with `check` (when given).
 * @throws UserError (exit 2) when more than one format is asked for, the field list is malformed, or a field is
 *   unknown (the message lists the valid ones)
 */
export function resolveFormat(opts: FormatFlags, check?: FieldChecker): OutputFormat {
  const chosen = [opts.json !== undefined && opts.json !== false, Boolean(opts.ndjson), Boolean(opts.csv)].filter(Boolean);
  if (chosen.length > 1) throw new UserError('choose one of --json, --ndjson and --csv');
  if (opts.ndjson) return { kind: 'ndjson' };
  if (opts.csv) return { kind: 'csv' };
  if (opts.json === true) return { kind: 'json' };
  if (typeof opts.json === 'string') {
    const spec = opts.json.replace(/\s+/g, '');
    if (!FIELD_LIST.test(spec)) {
      throw new UserError(
        `--json takes comma-separated field names, got '${opts.json}'`,
        `write --json=id,name, or put --json after the command's arguments`,
      );
    }
    const fields = spec.split(',');
    for (const field of fields) {
      const found = check?.(field);
      if (found && !found.ok) {
        throw new UserError(
          `unknown field "${field}" for --json${found.suggestion ? `; did you mean "${found.suggestion}"?` : ''}`,
          `valid fields: ${found.known.join(', ')}`,
        );
      }
    }
    return { kind: 'json', fields };
  }
  return { kind: 'table' };
}

/** A checker over a fixed list of top-level field names (reports, plans); dotted paths below them pass. */
export function fieldsChecker(known: readonly string[]): FieldChecker {
  return (path) => (known.includes(path.split('.')[0]!) ? { ok: true } : { ok: false, known });
}

/**
 * A copy of `record` holding only `fields` (dotted paths rebuild the nesting); absent fields are left out.
 */
export function pickFields(record: unknown, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const value = getPath(record, field);
    if (value !== undefined) setPath(out, field, value);
  }
  return out;
}

/** Options of the printers: `now` makes times testable; `zone` is the clock times are shown on (default local). */
export interface PrintOptions {
  now?: Date;
  zone?: string;
}

/**
 * Prints `records` in `format`. Streams for `ndjson`, TSV and CSV (constant memory); collects for `json` and the
 * TTY table (both need every row before the first byte).
 * @throws UserError when `--json` names a field that none of the records has.
 */
export async function printRecords<T>(
  io: IOStreams,
  format: OutputFormat,
  records: Records<T>,
  columns: readonly Column<T>[],
  opts: PrintOptions = {},
): Promise<void> {
  switch (format.kind) {
    case 'json': {
      const all: T[] = [];
      for await (const r of records) all.push(r);
      const out = format.fields ? all.map((r) => pickFields(r, format.fields!)) : all;
      await writeOut(io, JSON.stringify(out, null, 2) + '\n');
      return;
    }
    case 'ndjson':
      for await (const r of records) await writeOut(io, JSON.stringify(r) + '\n');
      return;
    case 'csv':
      await writeOut(io, columns.map((c) => csvCell(c.key)).join(',') + '\n');
      for await (const r of records) await writeOut(io, columns.map((c) => csvCell(plain(cellValue(r, c)))).join(',') + '\n');
      return;
    case 'table':
      if (!io.isStdoutTTY) {
        for await (const r of records) await writeOut(io, columns.map((c) => tsvCell(plain(cellValue(r, c)))).join('\t') + '\n');
        return;
      }
      {
        const all: T[] = [];
        for await (const r of records) all.push(r);
        const table = await renderTable(io, all, columns, opts);
        if (table) await writeOut(io, table);
      }
      return;
  }
}

/**
 * Prints one record (`get` commands): `--json [fields]` / `--ndjson` as JSON, `--csv` as one row of `columns`;
 * on a TTY a readable key/value view of `rows` (default: every leaf of the record by dotted path); piped,
 * `key<TAB>value` lines.
 */
export async function printRecord<T>(
  io: IOStreams,
  format: OutputFormat,
  record: T,
  opts: PrintOptions & { rows?: Array<[label: string, value: unknown]>; columns?: readonly Column<T>[] } = {},
): Promise<void> {
  switch (format.kind) {
    case 'json': {
      const out = format.fields ? pickFields(record, format.fields) : record;
      await writeOut(io, JSON.stringify(out, null, 2) + '\n');
      return;
    }
    case 'ndjson':
      await writeOut(io, JSON.stringify(record) + '\n');
      return;
    case 'csv': {
      const columns = opts.columns ?? flatten(record).map(([k]) => ({ key: k }) as Column<T>);
      await printRecords(io, format, [record], columns, opts);
      return;
    }
    case 'table': {
      const rows = opts.rows ?? flatten(record);
      if (!io.isStdoutTTY) {
        await writeOut(io, rows.map(([k, v]) => `${k}\t${tsvCell(plain(v))}`).join('\n') + (rows.length ? '\n' : ''));
        return;
      }
      const width = Math.max(0, ...rows.map(([k]) => k.length));
      const now = opts.now ?? new Date();
      const lines: string[] = [];
      for (const [k, v] of rows) {
        lines.push(`${style(io, 'dim', k.padEnd(width))}  ${await human(v, now, { zone: opts.zone, full: true })}`);
      }
      await writeOut(io, lines.join('\n') + (lines.length ? '\n' : ''));
      return;
    }
  }
}

/**
 * Prints a single value that is not an entity (a count, a bulk report, a plan): `--json [fields]` as pretty
 * JSON, `--ndjson` as one line; on a terminal or piped, `text` when given, else the key/value view of
 * {@link printRecord}.
 */
export async function printValue(io: IOStreams, format: OutputFormat, value: unknown, opts: PrintOptions & { text?: string } = {}): Promise<void> {
  if (format.kind === 'json' || format.kind === 'ndjson') {
    const out = format.kind === 'json' && format.fields ? pickFields(value, format.fields) : value;
    await writeOut(io, (format.kind === 'json' ? JSON.stringify(out, null, 2) : JSON.stringify(out)) + '\n');
    return;
  }
  if (opts.text !== undefined) {
    await writeOut(io, escapeControl(opts.text) + (opts.text.endsWith('\n') || opts.text === '' ? '' : '\n'));
    return;
  }
  await printRecord(io, format, value, opts);
}

/** Every leaf of `value` as `[dotted.path, leaf]`, arrays indexed (`locations.0.type`); Dates are leaves. */
export function flatten(value: unknown, prefix = ''): Array<[string, unknown]> {
  if (value === null || typeof value !== 'object' || value instanceof Date) return prefix ? [[prefix, value]] : [];
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  if (entries.length === 0) return prefix ? [[prefix, Array.isArray(value) ? [] : {}]] : [];
  return entries.flatMap(([k, v]) => flatten(v, prefix ? `${prefix}.${k}` : k));
}

/** The value of one column of a record (its `get`, else the value at its key). */
export function cellValue<T>(record: T, column: Column<T>): unknown {
  return column.get ? column.get(record) : getPath(record, column.key);
}

/**
 * A time to show on the clock of a place (a booking's slot, `--tz`): on a terminal by the time rule
 * (core/when.ts) in that zone, or by `pattern` when given; the ISO instant when piped. Columns return it from
 * `get`.
 */
export class ZonedTime {
  constructor(
    readonly date: Date,
    /** IANA zone, e.g. `America/Los_Angeles`. */
    readonly zone: string,
    /** date-fns pattern for the terminal (`HH:mm` for the end of a slot shown beside its start). */
    readonly pattern?: string,
  ) {}
}

/** A {@link ZonedTime}, or '' when `value` is not a date. */
export function zoned(value: Date | string | null | undefined, zone: string, pattern?: string): ZonedTime | '' {
  const date = value instanceof Date ? value : typeof value === 'string' ? new Date(value) : undefined;
  return date && !Number.isNaN(date.getTime()) ? new ZonedTime(date, zone, pattern) : '';
}

/** Machine text of a value: ISO dates, `true`/`false`, '' for null/undefined, compact JSON for objects. */
export function plain(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (value instanceof ZonedTime) return value.date.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** RFC 4180: quote when the cell holds a comma, quote, CR or LF (or edge spaces); double inner quotes. */
export function csvCell(text: string): string {
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One cell of TSV or a terminal table: tabs and newlines folded, control characters escaped. */
function tsvCell(text: string): string {
  return escapeControl(text.replace(/[\t\r\n]+/g, ' '));
}

/**
 * Human text of a value for a terminal: times by the time rule (core/when.ts) on the clock of `zone` (default:
 * a {@link ZonedTime}'s own zone, this machine's for a Date), or in full (`Thu 2026-11-26 22:00`) for a
 * key/value view; anything else as escaped one-line text.
 */
export async function human(value: unknown, now: Date, opts: { zone?: string; full?: boolean } = {}): Promise<string> {
  if (value instanceof Date || value instanceof ZonedTime) {
    const when = await import('./when.js');
    if (value instanceof Date) return opts.full ? when.fullTimeText(value, opts.zone ?? when.localZone()) : when.timeText(value, now, opts.zone ?? when.localZone());
    if (value.pattern) {
      const [{ format }, { TZDate }] = await Promise.all([import('date-fns/format'), import('@date-fns/tz')]);
      return format(new TZDate(value.date.getTime(), opts.zone ?? value.zone), value.pattern);
    }
    const zone = opts.zone ?? value.zone;
    return opts.full ? when.fullTimeText(value.date, zone) : when.timeText(value.date, now, zone);
  }
  return tsvCell(plain(value));
}

/**
 * The TTY table: no borders, two spaces between columns, header in upper case (bold when colour is on), fitted
 * to `io.columns` by the column engine (core/columns.ts): low-priority columns dropped (the header then ends
 * with `›`), free text cut with `…`, ids and times never cut.
 */
async function renderTable<T>(io: IOStreams, records: readonly T[], columns: readonly Column<T>[], opts: PrintOptions): Promise<string> {
  // An empty table is no table: the command says "no ... match" on stderr instead of a lone header.
  if (records.length === 0) return '';
  const now = opts.now ?? new Date();
  const cells: string[][] = [];
  const times = columns.map(() => false);
  for (const r of records) {
    const row: string[] = [];
    for (const [i, c] of columns.entries()) {
      const value = cellValue(r, c);
      if (value instanceof Date || value instanceof ZonedTime) times[i] = true;
      const text = await human(value, now, { zone: opts.zone });
      row.push(c.id ? text.slice(0, SHORT_ID_LENGTH) : text);
    }
    cells.push(row);
  }
  const { planColumns, planHeader, planLine, cutText } = await import('./columns.js');
  const shapes = columns.map((c, i) => columnShape(c, times[i]));
  const width = Math.max(20, io.columns);
  const plan = planColumns(shapes, cells, width);
  const lines = [style(io, 'bold', cutText(planHeader(plan, shapes), width)), ...cells.map((row) => cutText(planLine(plan, shapes, row), width))];
  return lines.join('\n') + '\n';
}

/**
 * Writes and waits for 'drain' when the stream's buffer is full, so streamed output uses constant memory.
 * @throws Error when stdout was closed by the reader (EPIPE, e.g. `| head`), so producers stop fetching;
 *   main.ts turns that into a quiet exit 0.
 */
export async function writeOut(io: IOStreams, text: string): Promise<void> {
  const out = io.stdout;
  if (out.destroyed) throw new Error('stdout was closed');
  if (out.write(text)) return;
  await new Promise<void>((resolve, reject) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', closed);
      resolve();
    };
    const closed = () => {
      out.off('drain', done);
      out.off('close', closed);
      reject(new Error('stdout was closed'));
    };
    out.on('drain', done);
    out.on('close', closed);
  });
}
