/**
 * The one exporter of records to stdout (design.md "Output and interaction"; gh's cmdutil/json_flags.go):
 *
 * - `--json [fields]`: a JSON array (or one object for a single record); no field list = every field, a
 *   comma-separated list = only those (dotted paths reach into nested objects).
 * - `--ndjson`: one JSON object per line, streamed as records arrive (constant memory).
 * - `--csv`: a header row of column keys, then RFC 4180 quoted rows, ISO dates.
 * - otherwise on a TTY: an aligned table (cli-table3) with a bold/dim header when colour is on, fitted to the
 *   terminal width, dates shown relative (within a week) or as `yyyy-MM-dd HH:mm`;
 * - otherwise (stdout piped): tab-separated rows with no header, ISO dates, no colour (like gh off a TTY).
 *
 * Only data goes to stdout; notices go to stderr through core/log.ts.
 */
import type { Command } from 'commander';
import { UserError } from './errors.js';
import type { IOStreams } from './iostreams.js';
import { getPath } from './paths.js';
import { style } from './log.js';

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
  /** Value of the cell; default: the value at `key`. */
  get?: (record: T) => unknown;
  /** Right-align on a TTY (numbers). */
  align?: 'left' | 'right';
  /** Never shortened to fit the terminal (ids: a truncated id cannot be copied). */
  noTruncate?: boolean;
}

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
 * Turns the format flags into an OutputFormat.
 * @throws UserError (exit 2) when more than one format is asked for or the field list is malformed.
 */
export function resolveFormat(opts: FormatFlags, _io?: IOStreams): OutputFormat {
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
    return { kind: 'json', fields: spec.split(',') };
  }
  return { kind: 'table' };
}

/**
 * A copy of `record` holding only `fields` (dotted paths rebuild the nesting); absent fields are left out.
 */
export function pickFields(record: unknown, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const value = getPath(record, field);
    if (value === undefined) continue;
    const parts = field.split('.');
    let target = out;
    for (const part of parts.slice(0, -1)) {
      const next = target[part];
      target = (next && typeof next === 'object' ? next : (target[part] = {})) as Record<string, unknown>;
    }
    target[parts[parts.length - 1]!] = value;
  }
  return out;
}

/** Options of the printers; `now` makes relative dates testable. */
export interface PrintOptions {
  now?: Date;
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
      const out = format.fields ? selectFields(all, format.fields) : all;
      await write(io, JSON.stringify(out, null, 2) + '\n');
      return;
    }
    case 'ndjson':
      for await (const r of records) await write(io, JSON.stringify(r) + '\n');
      return;
    case 'csv':
      await write(io, columns.map((c) => csvCell(c.key)).join(',') + '\n');
      for await (const r of records) await write(io, columns.map((c) => csvCell(plain(cellValue(r, c)))).join(',') + '\n');
      return;
    case 'table':
      if (!io.isStdoutTTY) {
        for await (const r of records) await write(io, columns.map((c) => tsvCell(plain(cellValue(r, c)))).join('\t') + '\n');
        return;
      }
      {
        const all: T[] = [];
        for await (const r of records) all.push(r);
        const table = await renderTable(io, all, columns, opts);
        if (table) await write(io, table);
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
      const out = format.fields ? selectFields([record], format.fields)[0] : record;
      await write(io, JSON.stringify(out, null, 2) + '\n');
      return;
    }
    case 'ndjson':
      await write(io, JSON.stringify(record) + '\n');
      return;
    case 'csv': {
      const columns = opts.columns ?? flatten(record).map(([k]) => ({ key: k }) as Column<T>);
      await printRecords(io, format, [record], columns, opts);
      return;
    }
    case 'table': {
      const rows = opts.rows ?? flatten(record);
      if (!io.isStdoutTTY) {
        await write(io, rows.map(([k, v]) => `${k}\t${tsvCell(plain(v))}`).join('\n') + (rows.length ? '\n' : ''));
        return;
      }
      const width = Math.max(0, ...rows.map(([k]) => k.length));
      const now = opts.now ?? new Date();
      const lines: string[] = [];
      for (const [k, v] of rows) {
        lines.push(`${style(io, 'dim', k.padEnd(width))}  ${await human(v, now)}`);
      }
      await write(io, lines.join('\n') + (lines.length ? '\n' : ''));
      return;
    }
  }
}

/** Every leaf of `value` as `[dotted.path, leaf]`, arrays indexed (`locations.0.type`); Dates are leaves. */
export function flatten(value: unknown, prefix = ''): Array<[string, unknown]> {
  if (value === null || typeof value !== 'object' || value instanceof Date) return prefix ? [[prefix, value]] : [];
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  if (entries.length === 0) return prefix ? [[prefix, Array.isArray(value) ? [] : {}]] : [];
  return entries.flatMap(([k, v]) => flatten(v, prefix ? `${prefix}.${k}` : k));
}

function selectFields<T>(records: readonly T[], fields: readonly string[]): Array<Record<string, unknown>> {
  const picked = records.map((r) => pickFields(r, fields));
  if (records.length > 0) {
    const missing = fields.filter((f) => records.every((r) => getPath(r, f) === undefined));
    if (missing.length > 0) {
      const known = [...new Set(records.flatMap((r) => (r && typeof r === 'object' ? Object.keys(r) : [])))].sort();
      throw new UserError(`unknown field${missing.length > 1 ? 's' : ''} for --json: ${missing.join(', ')}`, `available: ${known.join(', ')}`);
    }
  }
  return picked;
}

function cellValue<T>(record: T, column: Column<T>): unknown {
  return column.get ? column.get(record) : getPath(record, column.key);
}

/** Machine text of a value: ISO dates, `true`/`false`, '' for null/undefined, compact JSON for objects. */
export function plain(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** RFC 4180: quote when the cell holds a comma, quote, CR or LF (or edge spaces); double inner quotes. */
export function csvCell(text: string): string {
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function tsvCell(text: string): string {
  return text.replace(/[\t\r\n]+/g, ' ');
}

/** Human text of a value for a TTY: relative or `yyyy-MM-dd HH:mm` dates, `yes`/`no` not used (booleans stay). */
async function human(value: unknown, now: Date): Promise<string> {
  if (value instanceof Date) return formatDate(value, now);
  return tsvCell(plain(value));
}

const WEEK_MS = 7 * 24 * 3600 * 1000;

/** A date for people: "3 hours ago" / "in 2 days" within a week of `now`, else `yyyy-MM-dd HH:mm` (local time). */
export async function formatDate(date: Date, now: Date): Promise<string> {
  if (Number.isNaN(date.getTime())) return '';
  if (Math.abs(now.getTime() - date.getTime()) < WEEK_MS) {
    const { formatDistanceStrict } = await import('date-fns/formatDistanceStrict');
    return formatDistanceStrict(date, now, { addSuffix: true });
  }
  const { format } = await import('date-fns/format');
  return format(date, 'yyyy-MM-dd HH:mm');
}

/**
 * The TTY table: no borders, two spaces between columns, header in upper case (bold/dim when colour is on),
 * widest columns truncated with `…` so a row fits `io.columns`.
 */
async function renderTable<T>(io: IOStreams, records: readonly T[], columns: readonly Column<T>[], opts: PrintOptions): Promise<string> {
  // An empty table is no table: the command says "no ... match" on stderr instead of a lone header.
  if (records.length === 0) return '';
  const now = opts.now ?? new Date();
  const headers = columns.map((c) => c.header ?? c.key.toUpperCase());
  const rows: string[][] = [];
  for (const r of records) {
    const row: string[] = [];
    for (const c of columns) row.push(await human(cellValue(r, c), now));
    rows.push(row);
  }
  const natural = columns.map((_, i) => Math.max(headers[i]!.length, ...rows.map((row) => [...row[i]!].length)));
  const widths = fitWidths(natural, Math.max(20, io.columns), 2, columns.map((c) => !c.noTruncate));
  const { default: Table } = await import('cli-table3');
  const table = new Table({
    head: headers.map((h) => style(io, 'bold', h)),
    colWidths: widths.map((w) => w + 2),
    colAligns: columns.map((c) => c.align ?? 'left'),
    truncate: '…',
    wordWrap: false,
    chars: {
      top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
      bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
      left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '',
    },
    style: { 'padding-left': 0, 'padding-right': 2, head: [], border: [], compact: true },
  });
  for (const row of rows) table.push(row);
  const lines = table.toString().split('\n').map((l) => l.replace(/\s+$/, ''));
  return lines.join('\n') + '\n';
}

/**
 * Column widths that fit `total` characters with `gap` between columns: while too wide, shrink the widest
 * shrinkable column by one (never below 4 characters). Columns with `shrinkable[i] === false` keep their width.
 */
export function fitWidths(natural: readonly number[], total: number, gap: number, shrinkable?: readonly boolean[]): number[] {
  const widths = [...natural];
  const sum = () => widths.reduce((a, b) => a + b, 0) + gap * widths.length;
  while (sum() > total) {
    let widest = -1;
    for (let i = 0; i < widths.length; i++) {
      if (shrinkable?.[i] === false) continue;
      if (widest < 0 || widths[i]! > widths[widest]!) widest = i;
    }
    if (widest < 0 || widths[widest]! <= 4) break;
    widths[widest]! -= 1;
  }
  return widths;
}

/**
 * Writes and waits for 'drain' when the stream's buffer is full, so streamed output uses constant memory.
 * @throws Error when stdout was closed by the reader (EPIPE, e.g. `| head`), so producers stop fetching;
 *   main.ts turns that into a quiet exit 0.
 */
async function write(io: IOStreams, text: string): Promise<void> {
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
