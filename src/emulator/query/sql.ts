/**
 * The platform's filter language and sort (docs/wire.md §6) translated to SQL over a collection's
 * query table (store.ts "Query tables"), with the exact results of the in-memory evaluator (filter.ts, sort.ts).
 *
 * A collection declares its queryable fields (dotted paths, `CollectionDef.queryable`). For each document the
 * store keeps, per field i, three columns computed here in JavaScript, so they follow the evaluator's own rules:
 * - `k<i>` (BLOB) the field's sort key: one rank byte (0 missing, 1 number or numeric string, 2 ISO date,
 *   3 other string, 4 boolean: {@link sortKey}'s ranks) then the value, encoded so that SQLite's byte order is
 *   {@link compareKeys}' order: numbers and instants as order-preserving 8-byte doubles, strings as CESU-8 (the
 *   UTF-8 form of each UTF-16 code unit, whose byte order is JavaScript's string order), booleans as one byte.
 *   Equal keys mean equal values under the filter's coercions (`"50"` equals `50`, two spellings of one instant
 *   are equal), so `$eq $ne $in $nin $hasSome $hasAll $exists $isEmpty`, ranges within the argument's own kind
 *   and every sort are plain comparisons on `k<i>`, which an index can serve.
 * - `v<i>` a string value's text as stored (the key keeps neither the spelling of a numeric or date string nor
 *   text SQLite can hand to JavaScript as a string); NULL for numbers, booleans and missing values, which the
 *   key gives back exactly.
 * - `l<i>` a string's lower-case form as JavaScript folds it, when it differs from the string (else NULL: the
 *   text is `coalesce(l<i>, v<i>)`), for `$startsWith $endsWith $contains` and a free-text search.
 *
 * What plain SQL cannot say exactly (a range whose string argument meets a string of another kind, compared as
 * text; equality with an object or an array; an argument with half of a surrogate pair; a search over a field
 * holding a number or a boolean) becomes a *leaf*: a call of the connection's `sitectl_leaf(slot, ...)`
 * function, which rebuilds the values it is given and runs the in-memory evaluator's own predicate on them.
 * A leaf costs a JavaScript call per row it is asked about, but never parses a document.
 *
 * A document is *regular* when every declared path leads, through objects only, to a string (without half of a
 * surrogate pair, which SQLite's UTF-8 cannot hold), a number, a boolean or nothing. Translation is exact on
 * regular documents; the store falls back to a streamed scan for a site that holds an irregular one (an array,
 * an object or null at a declared path), and for a filter or sort naming an undeclared field
 * ({@link translateQuery} returns undefined).
 */
import type { SQLInputValue } from 'node:sqlite';
import { compileFilter } from './filter.js';
import { asNumber, asTime } from './values.js';

/** A declared field's value on a regular document (undefined: missing). */
export type FieldValue = string | number | boolean | undefined;

/** Marks a value no column can hold (an array, an object or null at a declared path). */
export const IRREGULAR: unique symbol = Symbol('irregular');

const RANK_MISSING = 0;
const RANK_NUMBER = 1;
const RANK_DATE = 2;
const RANK_STRING = 3;
const RANK_BOOLEAN = 4;

/** The key of a missing value, and the first key of each rank (rank byte alone). */
const RANK_START = [0, 1, 2, 3, 4, 5].map((r) => Uint8Array.of(r));

/**
 * The value at a dotted path when it can be a column: walks own properties of objects only.
 * @returns the string, number or boolean found, undefined when nothing is there, {@link IRREGULAR} for an array,
 *   an object or null at the path or on the way to it
 */
export function fieldValue(doc: unknown, path: readonly string[]): FieldValue | typeof IRREGULAR {
  let value: unknown = doc;
  for (const key of path) {
    if (Array.isArray(value)) return IRREGULAR;
    if (value === null || typeof value !== 'object') return value === null ? IRREGULAR : undefined;
    value = Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
  }
  if (value === undefined) return undefined;
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? IRREGULAR : value;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  return IRREGULAR;
}

function rankOf(v: FieldValue): number {
  if (v === undefined) return RANK_MISSING;
  if (asNumber(v) !== undefined) return RANK_NUMBER;
  if (asTime(v) !== undefined) return RANK_DATE;
  return typeof v === 'string' ? RANK_STRING : RANK_BOOLEAN;
}

const SURROGATE = /[\uD800-\uDFFF]/;
/** Half of a surrogate pair: SQLite's text (UTF-8) cannot hold it, so a string with one is irregular. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** CESU-8: each UTF-16 code unit as its 1-3 byte UTF-8 form, so bytes order like JavaScript strings. */
function cesu8(s: string): Uint8Array {
  if (!SURROGATE.test(s)) return Buffer.from(s, 'utf8');
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return Uint8Array.from(out);
}

/** An IEEE double whose bytes order like the numbers: sign bit flipped for positives, every bit for negatives. */
function orderedDouble(rank: number, n: number): Uint8Array {
  const out = Buffer.alloc(9);
  out[0] = rank;
  out.writeDoubleBE(n === 0 ? 0 : n, 1);
  if (n < 0) for (let i = 1; i < 9; i++) out[i] = ~out[i]! & 255;
  else out[1]! |= 0x80;
  return out;
}

/**
 * The sort key of a field value (see the module comment): byte order is {@link compareKeys}' order, and two
 * values have the same key exactly when the filter language's equality holds between them.
 */
export function encodeKey(v: FieldValue): Uint8Array {
  if (v === undefined) return RANK_START[RANK_MISSING]!;
  if (typeof v === 'boolean') return Uint8Array.of(RANK_BOOLEAN, v ? 1 : 0);
  const n = asNumber(v);
  if (n !== undefined) return orderedDouble(RANK_NUMBER, n);
  // Each value is classified once (a seed encodes three dates per member, a million members).
  const t = asTime(v);
  if (t !== undefined) return orderedDouble(RANK_DATE, t);
  const bytes = cesu8(v as string);
  const out = new Uint8Array(bytes.length + 1);
  out[0] = RANK_STRING;
  out.set(bytes, 1);
  return out;
}

/** The raw column of a value: a string's text, else NULL (see the module comment). */
function rawOf(v: FieldValue): SQLInputValue {
  return typeof v === 'string' ? v : null;
}

function decodeDouble(key: Uint8Array): number {
  const b = Buffer.from(key.subarray(1, 9));
  if (b[0]! & 0x80) b[0]! &= 0x7f;
  else for (let i = 0; i < 8; i++) b[i] = ~b[i]! & 255;
  return b.readDoubleBE(0);
}

/**
 * Back from a leaf's two arguments to the value: the text of a string, else the key (passed only then, so a
 * leaf over a million strings allocates no buffer per row).
 */
function valueOf(key: Uint8Array | null, raw: unknown): FieldValue {
  if (typeof raw === 'string') return raw;
  if (!key) return undefined;
  switch (key[0]) {
    case RANK_NUMBER:
      return decodeDouble(key);
    case RANK_BOOLEAN:
      return key[1] === 1;
    default:
      return undefined;
  }
}

/** The column values of one document: `[k0, v0, l0, k1, v1, l1, ...]`, or undefined when it is not regular. */
export function columnsOf(doc: unknown, paths: readonly (readonly string[])[]): SQLInputValue[] | undefined {
  const out: SQLInputValue[] = [];
  for (const path of paths) {
    const v = fieldValue(doc, path);
    if (v === IRREGULAR) return undefined;
    const lower = typeof v === 'string' ? v.toLowerCase() : undefined;
    out.push(encodeKey(v), rawOf(v), lower === undefined || lower === v ? null : lower);
  }
  return out;
}

/**
 * A predicate SQLite asks JavaScript about: the declared fields it reads (each passed as the key when the value
 * is no string, and the string) and the test on a document rebuilt from them.
 */
export interface SqlLeaf {
  columns: number[];
  /** The paths of {@link columns}, split. */
  paths: ReadonlyArray<readonly string[]>;
  test: (doc: unknown) => boolean;
}

/** A filter and sort in SQL over a query table's columns (see {@link translateQuery}). */
export interface SqlQuery {
  /** A boolean SQL expression over `k<i>`/`v<i>` (never NULL), with `?` for {@link params}. */
  where: string;
  params: SQLInputValue[];
  /** Sort columns, most significant first; ties are broken by creation order (`seq`) by the caller. */
  orderBy: Array<{ column: number; desc: boolean }>;
  /** Leaves called as `sitectl_leaf(slot, ...)`, slot = index in this array. */
  leaves: SqlLeaf[];
}

/** Rebuilds the document a leaf tests from the values of its declared fields. */
function rebuild(leaf: SqlLeaf, args: readonly unknown[]): unknown {
  const doc: Record<string, unknown> = {};
  for (let j = 0; j < leaf.paths.length; j++) {
    const v = valueOf(args[2 * j] as Uint8Array | null, args[2 * j + 1]);
    if (v === undefined) continue;
    const path = leaf.paths[j]!;
    let at = doc;
    for (let i = 0; i < path.length - 1; i++) {
      const next = Object.hasOwn(at, path[i]!) ? at[path[i]!] : undefined;
      at = (next as Record<string, unknown> | undefined) ?? (at[path[i]!] = {});
    }
    at[path[path.length - 1]!] = v;
  }
  return doc;
}

/**
 * The body of the `sitectl_leaf(slot, k, v, ...)` SQL function for a query's leaves: 1 when leaf `slot`'s test
 * holds for the values passed (two per column the leaf reads), else 0.
 */
export function leafFunction(leaves: () => readonly SqlLeaf[]): (...args: unknown[]) => number {
  return (slot, ...args) => {
    const leaf = leaves()[Number(slot)];
    if (!leaf) throw new Error(`sitectl_leaf: no leaf ${String(slot)} in the running query`);
    return leaf.test(rebuild(leaf, args)) ? 1 : 0;
  };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Thrown inside the translator when a part has no SQL form (the whole query then falls back). */
class Untranslatable extends Error {}

class Translator {
  readonly params: SQLInputValue[] = [];
  readonly leaves: SqlLeaf[] = [];
  private readonly index: Map<string, number>;

  constructor(private readonly paths: readonly (readonly string[])[], names: readonly string[]) {
    this.index = new Map(names.map((n, i) => [n, i]));
  }

  column(name: string): number {
    const i = this.index.get(name);
    if (i === undefined) throw new Untranslatable(name);
    return i;
  }

  private bind(v: SQLInputValue): string {
    this.params.push(v);
    return '?';
  }

  /** A leaf over columns `columns` running `test` (a predicate of the in-memory evaluator). */
  leaf(columns: number[], test: (doc: unknown) => boolean): string {
    this.leaves.push({ columns, paths: columns.map((c) => this.paths[c]!), test });
    return `sitectl_leaf(${this.leaves.length - 1}${columns.map((c) => `, iif(v${c} IS NULL, k${c}, NULL), v${c}`).join('')})`;
  }

  node(node: unknown): string {
    if (!isPlainObject(node)) throw new Untranslatable('filter');
    const parts: string[] = [];
    for (const [key, value] of Object.entries(node)) {
      if (key === '$and' || key === '$or') {
        const subs = (value as unknown[]).map((v) => this.node(v));
        if (subs.length === 0) parts.push(key === '$and' ? '1' : '0');
        else parts.push(`(${subs.join(key === '$and' ? ' AND ' : ' OR ')})`);
      } else if (key === '$not') {
        parts.push(`(NOT ${this.node(value)})`);
      } else {
        parts.push(this.field(key, value));
      }
    }
    return parts.length === 0 ? '1' : parts.length === 1 ? parts[0]! : `(${parts.join(' AND ')})`;
  }

  private field(name: string, value: unknown): string {
    const c = this.column(name);
    const isOps = isPlainObject(value) && Object.keys(value).length > 0 && Object.keys(value).every((k) => k.startsWith('$'));
    if (!isOps) return this.eq(c, name, value);
    const parts = Object.entries(value).map(([op, arg]) => this.operator(c, name, op, arg));
    return parts.length === 1 ? parts[0]! : `(${parts.join(' AND ')})`;
  }

  /** The key that `expected` equals, per equalsTo's coercions; undefined when equality needs the evaluator. */
  private eqKey(expected: unknown): Uint8Array | undefined {
    if (typeof expected === 'string' || typeof expected === 'boolean') return encodeKey(expected);
    if (typeof expected === 'number') return Number.isFinite(expected) ? encodeKey(expected) : undefined;
    return undefined;
  }

  private eq(c: number, name: string, expected: unknown): string {
    if (expected === null) return `(k${c} = x'00')`;
    const key = this.eqKey(expected);
    if (key) return `(k${c} = ${this.bind(key)})`;
    return this.leaf([c], compileFilter({ [name]: { $eq: expected } }));
  }

  /** `k IN (...)` over the keys of `list` (null matches nothing on a regular document); undefined if one has no key. */
  private inList(c: number, list: unknown[]): string | undefined {
    const keys: Uint8Array[] = [];
    for (const v of list) {
      if (v === null) continue;
      const key = this.eqKey(v);
      if (!key) return undefined;
      keys.push(key);
    }
    if (keys.length === 0) return '0';
    return `(k${c} IN (${keys.map((k) => this.bind(k)).join(', ')}))`;
  }

  private operator(c: number, name: string, op: string, arg: unknown): string {
    const viaLeaf = () => this.leaf([c], compileFilter({ [name]: { [op]: arg } }));
    switch (op) {
      case '$eq':
        return this.eq(c, name, arg);
      case '$ne':
        return `(NOT ${this.eq(c, name, arg)})`;
      case '$in':
      case '$hasSome':
        return this.inList(c, arg as unknown[]) ?? viaLeaf();
      case '$nin': {
        const sql = this.inList(c, arg as unknown[]);
        return sql ? `(NOT ${sql})` : viaLeaf();
      }
      case '$hasAll': {
        const list = arg as unknown[];
        if (list.length === 0) return '1';
        if (list.some((v) => v === null)) return '0';
        const keys = list.map((v) => this.eqKey(v));
        if (keys.some((k) => !k)) return viaLeaf();
        return `(${keys.map((k) => `k${c} = ${this.bind(k!)}`).join(' AND ')})`;
      }
      case '$exists':
        return arg ? `(k${c} <> x'00')` : `(k${c} = x'00')`;
      case '$isEmpty':
        return arg ? `(k${c} IN (x'00', x'03'))` : `(k${c} NOT IN (x'00', x'03'))`;
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        return this.range(c, name, op, arg as string | number | boolean);
      case '$not':
        return `(NOT ${this.field(name, arg)})`;
      case '$startsWith':
      case '$endsWith':
      case '$contains':
        return LONE_SURROGATE.test(arg as string) ? viaLeaf() : this.text(c, op, (arg as string).toLowerCase());
      default:
        return viaLeaf();
    }
  }

  /**
   * A string operator on the lower-case text (`l`, folded by JavaScript when the row was written): SQLite's
   * substr and instr count characters on both sides alike, so a prefix, suffix or substring matches exactly
   * when JavaScript's would. Values that are no strings never match.
   */
  private text(c: number, op: string, arg: string): string {
    const t = `coalesce(l${c}, v${c})`;
    if (arg === '') return `(v${c} IS NOT NULL)`;
    // Each `?` is bound in the order it appears in the SQL.
    if (op === '$contains') return `coalesce(instr(${t}, ${this.bind(arg)}) > 0, 0)`;
    if (op === '$startsWith') return `coalesce(substr(${t}, 1, length(${this.bind(arg)})) = ${this.bind(arg)}, 0)`;
    return `coalesce(substr(${t}, -length(${this.bind(arg)})) = ${this.bind(arg)}, 0)`;
  }

  /**
   * A free-text search: every word (lower case, no white space) appears in the text of one of `fields` (with
   * `any`, at least one word does: the services search's OR mode). A string's text is its lower-case form; a
   * number's or boolean's is decided by `test` through a leaf.
   */
  words(fields: readonly string[], words: readonly string[], test: (doc: unknown) => boolean, any = false): string {
    const cols = fields.map((f) => this.column(f));
    if (words.some((w) => LONE_SURROGATE.test(w))) return this.leaf(cols, test);
    const strings = cols.map((c) => `(v${c} IS NOT NULL OR k${c} = x'00')`).join(' AND ');
    const each = words.map((w) => `(${cols.map((c) => `coalesce(instr(coalesce(l${c}, v${c}), ${this.bind(w)}) > 0, 0)`).join(' OR ')})`);
    return `(CASE WHEN ${strings} THEN ${each.join(any ? ' OR ' : ' AND ') || '1'} ELSE ${this.leaf(cols, test)} END)`;
  }

  /**
   * A range: on the argument's own kind a key comparison (numbers with numbers, instants with instants, text
   * with text, booleans with booleans); a string argument is also compared as text with strings of the other
   * kinds (compareTo's fallback), which the evaluator decides through a leaf.
   */
  private range(c: number, name: string, op: string, arg: string | number | boolean): string {
    const rank = rankOf(arg);
    const sign = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }[op]!;
    const key = this.bind(encodeKey(arg));
    const own = sign.startsWith('>')
      ? `(k${c} ${sign} ${key} AND k${c} < ${this.bind(RANK_START[rank + 1]!)})`
      : `(k${c} ${sign} ${key} AND k${c} >= ${this.bind(RANK_START[rank]!)})`;
    if (typeof arg !== 'string') return own;
    const other = `(v${c} IS NOT NULL AND NOT (k${c} >= ${this.bind(RANK_START[rank]!)} AND k${c} < ${this.bind(RANK_START[rank + 1]!)}) AND ${this.leaf([c], compileFilter({ [name]: { [op]: arg } }))})`;
    return `(${own} OR ${other})`;
  }
}

/**
 * Translates a filter and a sort over a collection's declared fields to SQL (see the module comment).
 * The filter and sort must already be valid (compileFilter / compileSort have accepted them).
 * @param names the declared field paths, in column order (`names[i]` is `k<i>`/`v<i>`)
 * @param extra a predicate on the document (a free-text search) reading only the fields `extra.fields`; with
 *   `words`, it holds when every word (with `any`: one word) appears in the lower-case text of one of the
 *   fields, which runs in SQL
 * @returns the SQL, or undefined when a field is not declared (the caller scans instead)
 */
export function translateQuery(
  names: readonly string[],
  filter: unknown,
  sort: readonly { fieldName: string; order?: string }[] | undefined,
  extra?: { fields: readonly string[]; test: (doc: unknown) => boolean; words?: readonly string[]; any?: boolean },
): SqlQuery | undefined {
  const paths = names.map((n) => n.split('.'));
  const t = new Translator(paths, names);
  try {
    let where = filter === undefined || filter === null ? '1' : t.node(filter);
    if (extra) {
      const test = extra.words ? t.words(extra.fields, extra.words, extra.test, extra.any) : t.leaf(extra.fields.map((f) => t.column(f)), extra.test);
      where = `(${where} AND ${test})`;
    }
    const orderBy = (sort ?? []).map((s) => ({ column: t.column(s.fieldName), desc: s.order === 'DESC' }));
    return { where, params: t.params, orderBy, leaves: t.leaves };
  } catch (err) {
    if (err instanceof Untranslatable) return undefined;
    throw err;
  }
}
