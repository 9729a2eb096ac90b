/**
 * The one exporter of records to stdout (docs/architecture.md "Output and interaction"; gh's cmdutil/json_flags.go):
 *
 * - `--json [fields]`: a JSON array (or one object for a single record); no field list = every field, a
 *   comma-separated list = only those (dotted paths reach into nested objects).
 * - `--ndjson`: one JSON object per line, streamed as records arrive (constant memory).
 * - `--csv [fields]`: a header row of column keys, then RFC 4180 quoted rows, ISO dates; a field list picks the
 *   columns (a column's key uses that column's cell, any other field the value at its dotted path).
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
import { FieldsAsked, UserError } from './errors.js';
import type { IOStreams } from './iostreams.js';
import { style } from './log.js';
import { escapeControl } from './text.js';
import type { ColumnShape } from './columns.js';

export type OutputFormat =
  | { kind: 'table' }
  | { kind: 'json'; fields?: string[] }
  | { kind: 'ndjson' }
  | { kind: 'csv'; fields?: string[] };

/** The parsed values of the flags `addFormatFlags` declares (Commander option values). */
export interface FormatFlags {
  json?: string | boolean;
  ndjson?: boolean;
  csv?: string | boolean;
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
  /**
   * Display width a `cut` column asks for on a terminal before any column dropped ahead of it (a higher
   * `priority`) may stay; it still narrows to `min` once those are gone (core/columns.ts).
   */
  want?: number;
  /**
   * Which end of a cell a `cut` column gives up on a terminal: `end` (the default) or `start`, for text whose end
   * matters most (a command line shown as `…members approve --status PENDING`; core/columns.ts `cutStart`).
   */
  cutFrom?: 'end' | 'start';
  /** Display width in a streamed table (rows printed as they arrive, {@link PrintOptions.stream}); default the header's. */
  width?: number;
  /**
   * Read for a person at a terminal (a name behind an id, read only there): left out of TSV and of `--csv`
   * without fields, where the ids are. `--csv FIELD` still names it.
   */
  forPeople?: boolean;
  /** Its times are ages on a terminal (`3m ago` up to a day, core/when.ts ageText): when a change was made. */
  age?: boolean;
}

/** How `column` behaves in the column engine, under `header`; `time`: its cells are times (never cut). */
export function columnShape<T>(column: Column<T>, time = false): ColumnShape {
  // Left undefined (cut) unless known: the browser still finds time columns by their cells.
  const fit = column.fit ?? (column.id || column.noTruncate || time ? 'whole' : undefined);
  return { header: column.header ?? column.key.toUpperCase(), fit, min: column.min, priority: column.priority, align: column.align, want: column.want, cutFrom: column.cutFrom };
}

/** Characters of an id shown in a terminal table (like a short git hash). */
export const SHORT_ID_LENGTH = 8;

/**
 * Says whether a `--json` field exists: `{ok: true}`, or the fields that do (and a close one, when the name
 * looks like a typo). Commands build one from the entity's schema; core knows no schemas.
 */
export type FieldChecker = (path: string) => { ok: true } | { ok: false; known: readonly string[]; suggestion?: string };

export type Records<T> = Iterable<T> | AsyncIterable<T>;

/** Declares `--json [fields]`, `--ndjson` and `--csv [fields]` on `cmd` (call once per command that prints records). */
export function addFormatFlags(cmd: Command): Command {
  return cmd
    .option('--json [fields]', 'print JSON; optionally only these comma-separated fields (e.g. --json id,name)')
    .option('--ndjson', 'print one JSON object per line (streams)')
    .option('--csv [fields]', 'print CSV with a header row; optionally only these comma-separated fields (e.g. --csv id,name)');
}

const FIELD_LIST = /^[A-Za-z_$][\w$]*(\.[\w$]+)*(,[A-Za-z_$][\w$]*(\.[\w$]+)*)*$/;

/**
 * Turns the format flags into an OutputFormat, checking every `--json` and `--csv` field with `check` (when
 * given). A `--csv` field may also name one of `columns` (the keys of the command's columns, e.g. a booking's
 * `email`), whose cells it then prints.
 * @throws UserError (exit 2) when more than one format is asked for, the field list is malformed, or a field is
 *   unknown (the message lists the valid ones)
 */
export function resolveFormat(opts: FormatFlags, check?: FieldChecker, more: { columns?: readonly string[] } = {}): OutputFormat {
  const given = (v: string | boolean | undefined) => v !== undefined && v !== false;
  const chosen = [given(opts.json), Boolean(opts.ndjson), given(opts.csv)].filter(Boolean);
  if (chosen.length > 1) throw new UserError('choose one of --json, --ndjson and --csv');
  if (opts.json === HELP_WORD || opts.csv === HELP_WORD) throw fieldsAsked(opts.json === HELP_WORD ? '--json' : '--csv', check, more.columns);
  if (opts.ndjson) return { kind: 'ndjson' };
  if (opts.csv === true) return { kind: 'csv' };
  if (typeof opts.csv === 'string') return { kind: 'csv', fields: fieldList('--csv', opts.csv, check, more.columns) };
  if (opts.json === true) return { kind: 'json' };
  if (typeof opts.json === 'string') return { kind: 'json', fields: fieldList('--json', opts.json, check) };
  return { kind: 'table' };
}

/** The word that asks a field flag for its fields (`--json help`): no entity has a field of that name. */
const HELP_WORD = 'help';

/**
 * What `--json help` stops with: the fields `check` knows (the top-level ones, as its refusal of an unknown name
 * lists them) and, for `--csv`, the command's column keys.
 * @returns FieldsAsked (exit 0), or a UserError (exit 2) when the command takes any field (no list to give)
 */
function fieldsAsked(flag: string, check: FieldChecker | undefined, columns: readonly string[] = []): Error {
  const found = check?.(`\u0000${HELP_WORD}`);
  const known = found && !found.ok ? found.known : [];
  const fields = [...new Set([...(flag === '--csv' ? columns : []), ...known])];
  if (fields.length === 0) return new UserError(`${flag} of this command takes any field name; it has no list to show`, `run it with ${flag} alone to see the whole record`);
  return new FieldsAsked(flag, fields);
}

/** The fields of `--json a,b` or `--csv a,b`, each checked. @throws UserError (exit 2) as {@link resolveFormat} */
function fieldList(flag: string, text: string, check: FieldChecker | undefined, columns: readonly string[] = []): string[] {
  const spec = text.replace(/\s+/g, '');
  if (!FIELD_LIST.test(spec)) {
    throw new UserError(`${flag} takes comma-separated field names, got '${text}'`, `write ${flag}=id,name, or put ${flag} after the command's arguments`);
  }
  const fields = spec.split(',');
  for (const field of fields) {
    if (columns.includes(field)) continue;
    const found = check?.(field);
    if (found && !found.ok) {
      const known = columns.length ? [...new Set([...columns, ...found.known])] : found.known;
      throw new UserError(`unknown field "${field}" for ${flag}${found.suggestion ? `; did you mean "${found.suggestion}"?` : ''}`, `valid fields: ${known.join(', ')}`);
    }
  }
  return fields;
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
  /**
   * Rows arrive over time and may never end (a followed feed): the terminal table is printed a row at a time
   * under its header, each column as wide as its `width` (or its header), instead of being collected first.
   */
  stream?: boolean;
  /**
   * With {@link stream}: the first this many rows are held to size the columns (each as wide as its widest cell
   * among them, its header or its `width`), then printed and the rest streamed at those widths: a long list
   * (`list --all` on a terminal) holds this many rows, not all of them.
   */
  widthSample?: number;
  /**
   * `--json` wraps the rows in an object with more keys beside them (`services search`: `{services,
   * aggregationData}`): `key` holds the rows, `extra` the other keys. A field list applies to each row; when it
   * names keys of `extra`, only the keys named are printed (`--json aggregationData`).
   */
  envelope?: { key: string; extra: Record<string, unknown> };
  /**
   * What to say on stderr when there was nothing to print (`No slots found between ... and ...`), wherever a
   * person reads it: under a table on a terminal, or whenever stderr is a terminal (piped or JSON output keeps
   * its data as it is: no rows, `[]`). Exit status stays 0: an empty answer is an answer.
   */
  empty?: string;
}

/**
 * Prints `records` in `format`. Streams for `ndjson`, TSV and CSV (constant memory); collects for `json` and the
 * TTY table (both need every row before the first byte). Says `opts.empty` when there was none.
 * @returns how many records were printed
 * @throws UserError when `--json` names a field that none of the records has.
 */
export async function printRecords<T>(
  io: IOStreams,
  format: OutputFormat,
  records: Records<T>,
  columns: readonly Column<T>[],
  opts: PrintOptions = {},
): Promise<number> {
  let count = 0;
  async function* counted(): AsyncGenerator<T> {
    for await (const r of records) {
      count++;
      yield r;
    }
  }
  await printEach(io, format, counted(), columns, opts);
  if (count === 0 && opts.empty && ((io.isStdoutTTY && format.kind === 'table') || io.isStderrTTY)) io.stderr.write(`${opts.empty}\n`);
  return count;
}

async function printEach<T>(io: IOStreams, format: OutputFormat, records: AsyncIterable<T>, columns: readonly Column<T>[], opts: PrintOptions): Promise<void> {
  switch (format.kind) {
    case 'json': {
      const all: T[] = [];
      for await (const r of records) all.push(r);
      await writeOut(io, JSON.stringify(jsonOf(all, format.fields, opts.envelope), null, 2) + '\n');
      return;
    }
    case 'ndjson':
      for await (const r of records) await writeOut(io, JSON.stringify(r) + '\n');
      return;
    case 'csv': {
      const shown = format.fields ? csvColumns(columns, format.fields) : columns.filter((c) => !c.forPeople);
      await writeOut(io, shown.map((c) => csvCell(c.key)).join(',') + '\n');
      for await (const r of records) await writeOut(io, shown.map((c) => csvCell(plain(cellValue(r, c)))).join(',') + '\n');
      return;
    }
    case 'table':
      if (!io.isStdoutTTY) {
        const piped = columns.filter((c) => !c.forPeople);
        for await (const r of records) await writeOut(io, piped.map((c) => tsvCell(plain(cellValue(r, c)))).join('\t') + '\n');
        return;
      }
      if (opts.stream) {
        await streamTable(io, records, columns, opts);
        return;
      }
      {
        const all: T[] = [];
        for await (const r of records) all.push(r);
        const table = await renderTable(io, all, columns, opts);
        if (table) {
          await writeOut(io, table.text);
          // The screen names its clock once, under the table, where a person reads it (stderr: stdout is the rows).
          if (table.zones.length && io.isStderrTTY) io.stderr.write(style(io, 'dim', `times in ${table.zones.join(', ')}`) + '\n');
        }
      }
      return;
  }
}

/** What `--json [fields]` prints for `rows`: the array (each row picked), or the envelope around it. */
function jsonOf<T>(rows: readonly T[], fields: readonly string[] | undefined, envelope: PrintOptions['envelope']): unknown {
  const own = envelope ? [envelope.key, ...Object.keys(envelope.extra)] : [];
  const isOwn = (f: string) => own.includes(f.split('.')[0]!);
  const rowFields = fields?.filter((f) => !isOwn(f));
  const picked = rowFields?.length ? rows.map((r) => pickFields(r, rowFields)) : rows;
  if (!envelope) return picked;
  const named = fields?.filter(isOwn) ?? [];
  if (named.length === 0) return { [envelope.key]: picked, ...envelope.extra };
  // Only the keys named: the rows when their key or any of their fields is, and the extra keys named.
  const withRows = rowFields!.length > 0 || named.includes(envelope.key);
  return { ...(withRows ? { [envelope.key]: picked } : {}), ...pickFields(envelope.extra, named.filter((f) => f !== envelope.key)) };
}

/**
 * The format of a command whose rows, piped without a format flag, are NDJSON rather than TSV (an event feed,
 * the per-item results of a bulk create): `table` off a terminal becomes `ndjson`; anything else is kept.
 */
export function ndjsonWhenPiped(io: IOStreams, format: OutputFormat): OutputFormat {
  return format.kind === 'table' && !io.isStdoutTTY ? { kind: 'ndjson' } : format;
}

/** The columns `--csv [fields]` prints: all of them, or per field the column with that key, else its path. */
function csvColumns<T>(columns: readonly Column<T>[], fields: readonly string[] | undefined): readonly Column<T>[] {
  return fields ? fields.map((f) => columns.find((c) => c.key === f) ?? { key: f }) : columns;
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
      // A field list picks from the record's own fields (or the columns' keys) in printRecords.
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
export async function human(value: unknown, now: Date, opts: { zone?: string; full?: boolean; age?: boolean } = {}): Promise<string> {
  if (value instanceof Date || value instanceof ZonedTime) {
    const when = await import('./when.js');
    if (value instanceof Date) {
      const zone = opts.zone ?? when.localZone();
      return opts.full ? when.fullTimeText(value, zone) : opts.age ? when.ageText(value, now, zone) : when.timeText(value, now, zone);
    }
    if (value.pattern) {
      const [{ format }, { TZDate }] = await Promise.all([import('date-fns/format'), import('@date-fns/tz')]);
      return format(new TZDate(value.date.getTime(), opts.zone ?? value.zone), value.pattern);
    }
    const zone = opts.zone ?? value.zone;
    return opts.full ? when.fullTimeText(value.date, zone) : opts.age ? when.ageText(value.date, now, zone) : when.timeText(value.date, now, zone);
  }
  return tsvCell(plain(value));
}

/**
 * The TTY table: no borders, two spaces between columns, header in upper case (bold when colour is on), fitted
 * to `io.columns` by the column engine (core/columns.ts): low-priority columns dropped (the header then ends
 * with `›`), free text cut with `…`, ids and times never cut.
 */
async function renderTable<T>(io: IOStreams, records: readonly T[], columns: readonly Column<T>[], opts: PrintOptions): Promise<{ text: string; zones: string[] } | undefined> {
  // An empty table is no table: the command says "no ... match" on stderr instead of a lone header.
  if (records.length === 0) return undefined;
  const now = opts.now ?? new Date();
  const cells: string[][] = [];
  const times = columns.map(() => false);
  const zones = new Set<string>();
  for (const r of records) {
    const row: string[] = [];
    for (const [i, c] of columns.entries()) {
      const value = cellValue(r, c);
      if (value instanceof Date || value instanceof ZonedTime) {
        times[i] = true;
        zones.add(opts.zone ?? (value instanceof ZonedTime ? value.zone : (await import('./when.js')).localZone()));
      }
      const text = await human(value, now, { zone: opts.zone, age: c.age });
      row.push(c.id ? text.slice(0, SHORT_ID_LENGTH) : text);
    }
    cells.push(row);
  }
  const { planColumns, planHeader, planLine, cutText } = await import('./columns.js');
  const shapes = columns.map((c, i) => columnShape(c, times[i]));
  const width = Math.max(20, io.columns);
  const plan = planColumns(shapes, cells, width);
  const lines = [style(io, 'bold', cutText(planHeader(plan, shapes), width)), ...cells.map((row) => cutText(planLine(plan, shapes, row), width))];
  return { text: lines.join('\n') + '\n', zones: [...zones] };
}

/**
 * A table printed as its rows arrive (a followed feed on a terminal): the header (bold when colour is on), then
 * each row at once, every column as wide as its `width` (or its header), cut with `…` past it, cut at the
 * terminal's edge; times by the time rule, ids short. The clock (`times in ZONE`, stderr) is named only when a
 * cell shows a time: above the header when one of the first rows does, else under the table when a later one does.
 */
async function streamTable<T>(io: IOStreams, records: Records<T>, columns: readonly Column<T>[], opts: PrintOptions): Promise<void> {
  const { cutText, displayWidth, fitText } = await import('./columns.js');
  const headers = columns.map((c) => c.header ?? c.key.toUpperCase());
  const widths = columns.map((c, i) => c.width ?? displayWidth(headers[i]!));
  const edge = Math.max(20, io.columns);
  const line = (cells: readonly string[]) => cutText(cells.map((t, i) => fitText(t, widths[i]!, columns[i]!.align, columns[i]!.cutFrom)).join('  ').trimEnd(), edge);
  // Whether a cell has shown a time yet, and whether the clock was named: a table with no time in it names none.
  let timeShown = false;
  let zoneSaid = false;
  const sayZone = () => {
    if (zoneSaid || !timeShown || !opts.zone || !io.isStderrTTY) return;
    zoneSaid = true;
    io.stderr.write(style(io, 'dim', `times in ${opts.zone}`) + '\n');
  };
  const cellsOf = async (r: T): Promise<string[]> => {
    const cells: string[] = [];
    for (const c of columns) {
      const value = cellValue(r, c);
      if (value instanceof Date || value instanceof ZonedTime) timeShown = true;
      const text = await human(value, opts.now ?? new Date(), { zone: opts.zone, age: c.age });
      cells.push(c.id ? text.slice(0, SHORT_ID_LENGTH) : text);
    }
    return cells;
  };
  const sample: string[][] = [];
  let header = false;
  const start = async () => {
    for (const cells of sample) cells.forEach((t, i) => (widths[i] = columns[i]!.width ?? Math.max(widths[i]!, displayWidth(t))));
    // The clock named once, as the table starts, when its first rows show a time (stderr: stdout is the rows).
    sayZone();
    await writeOut(io, style(io, 'bold', line(headers)) + '\n');
    header = true;
    for (const cells of sample.splice(0)) await writeOut(io, line(cells) + '\n');
  };
  for await (const r of records) {
    const cells = await cellsOf(r);
    if (!header && sample.length < (opts.widthSample ?? 0)) {
      sample.push(cells);
      continue;
    }
    if (!header) await start();
    await writeOut(io, line(cells) + '\n');
  }
  if (!header && sample.length) await start();
  // A time first shown past the first rows: the clock is named under the table, as a drawn table names it.
  sayZone();
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
