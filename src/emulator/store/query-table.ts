/**
 * The query table of a collection that declares queryable fields (`CollectionDef.queryable`): one row per
 * document, `query_<kind>(seq, site, id, irregular, k0, v0, k1, v1, ...)` keyed by the document's `seq` (so rows
 * are appended in creation order), the columns of query/sql.ts computed when the collection writes the document
 * (in the same transaction), a unique index on `(site, id)`, one on `(site, seq)` (creation order), and an index `(site, k<i>, seq)` per field declared
 * `indexed`. Filters, sorts, counts and pages run here; only the documents of a page are read from
 * `docs` and parsed.
 *
 * The table is derived data: when it is missing, when its declared fields changed, or when its row count
 * differs from the kind's documents (a store written before the table existed), it is rebuilt from `docs` on
 * open, streaming one document at a time.
 */
import type { SQLInputValue } from 'node:sqlite';
import { columnsOf, type SqlLeaf, type SqlQuery } from '../query/sql.js';
import { pragma, prepare, transaction, type Database, type Statement } from './sqlite.js';

/** The page cache of a bulk load or a rebuild (negative: KiB, SQLite's convention), instead of 2 MiB. */
export const BULK_CACHE_KIB = -384 * 1024;

/** What a collection declares to be queried in SQLite. */
export interface QueryableDef {
  /** Dotted paths of the fields filters and sorts may name; any other field makes a query scan instead. */
  fields: readonly string[];
  /** The fields (of `fields`) with an index of their own `(site, field, seq)`: the usual filters and sorts. */
  indexed?: readonly string[];
}

/** Where a page ended: the sort keys and `seq` of its last row, to seek the next page from (keyset paging). */
export interface SeekPoint {
  keys: Uint8Array[];
  seq: number;
}

/** Distinct statements kept prepared per table (a filter's shape, not its values, makes a statement). */
const MAX_STATEMENTS = 64;

/** See the module comment. Created by the store, one per kind. */
export class QueryTable {
  readonly table: string;
  private readonly paths: string[][];
  private readonly statements = new Map<string, Statement<SQLInputValue[], Record<string, unknown>>>();
  private readonly insert: Statement<SQLInputValue[]>;
  private readonly update: Statement<SQLInputValue[]>;
  private readonly remove: Statement<[string, string]>;
  private readonly irregular: Statement<[string], { one: number }>;

  /**
   * @param runLeaves makes a query's leaves the ones `sitectl_leaf` calls while `fn` runs (the store's function)
   * @throws Error (SQLite's) when the table cannot be created
   */
  constructor(
    private readonly db: Database,
    readonly kind: string,
    readonly def: QueryableDef,
    private readonly runLeaves: <R>(leaves: readonly SqlLeaf[], fn: () => R) => R,
  ) {
    if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(kind)) throw new Error(`query table: kind ${kind} is not a plain name`);
    this.table = `query_${kind}`;
    this.paths = def.fields.map((f) => f.split('.'));
    const cols = def.fields.map((_, i) => `k${i}, v${i}, l${i}`).join(', ');
    const marks = def.fields.map(() => '?, ?, ?').join(', ');
    const sets = def.fields.map((_, i) => `k${i} = ?, v${i} = ?, l${i} = ?`).join(', ');
    this.open();
    this.insert = prepare(db, `INSERT INTO ${this.table} (site, id, seq, irregular, ${cols}) VALUES (?, ?, ?, ?, ${marks})`);
    this.update = prepare(db, `UPDATE ${this.table} SET irregular = ?, ${sets} WHERE site = ? AND id = ?`);
    this.remove = prepare(db, `DELETE FROM ${this.table} WHERE site = ? AND id = ?`);
    this.irregular = prepare(db, `SELECT 1 AS one FROM ${this.table} WHERE site = ? AND irregular = 1 LIMIT 1`);
  }

  /** Creates the table and its indexes, rebuilding it from `docs` when it does not match them (module comment). */
  private open(): void {
    const signature = JSON.stringify({ layout: 5, ...this.def });
    const metaKey = `queryTable:${this.kind}`;
    const stored = prepare<[string], { value: string }>(this.db, 'SELECT value FROM meta WHERE key = ?').get(metaKey)?.value;
    transaction(this.db, () => {
      if (stored !== signature) this.db.exec(`DROP TABLE IF EXISTS ${this.table}`);
      const cols = this.def.fields.map((_, i) => `k${i} BLOB NOT NULL, v${i}, l${i} TEXT`).join(', ');
      this.db.exec(`CREATE TABLE IF NOT EXISTS ${this.table} (seq INTEGER PRIMARY KEY, site TEXT NOT NULL, id TEXT NOT NULL, irregular INTEGER NOT NULL, ${cols})`);
      this.db.exec(`CREATE INDEX IF NOT EXISTS ${this.table}_irregular ON ${this.table} (site) WHERE irregular = 1`);
      this.createIndexes();
      prepare<[string, string]>(this.db, 'INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(metaKey, signature);
      const docs = prepare<[string], { n: number }>(this.db, 'SELECT COUNT(*) AS n FROM docs WHERE kind = ?').get(this.kind)!.n;
      const rows = prepare<[], { n: number }>(this.db, `SELECT COUNT(*) AS n FROM ${this.table}`).get()!.n;
      if (docs !== rows) this.rebuild();
    });
  }

  /**
   * The indexes a bulk load drops and builds again: `(site, id)` and the fields'. Creation order needs none: it
   * is the table's own (seq is the rowid).
   */
  private createIndexes(): void {
    this.db.exec(`CREATE UNIQUE INDEX IF NOT EXISTS ${this.table}_id ON ${this.table} (site, id)`);
    // A query without a sort walks a site's rows in creation order: without this index SQLite took `(site, id)`
    // for `site = ?` and sorted every row of the site by seq for each page (133 ms a page at 100,000 members,
    // 535 ms at offset 50,000); with it a page is a range of the index; offset pages are keyset under the hood).
    this.db.exec(`CREATE INDEX IF NOT EXISTS ${this.table}_seq ON ${this.table} (site, seq)`);
    for (const field of this.def.indexed ?? []) {
      const i = this.def.fields.indexOf(field);
      if (i < 0) throw new Error(`query table ${this.kind}: indexed field ${field} is not among its fields`);
      this.db.exec(`CREATE INDEX IF NOT EXISTS ${this.table}_k${i} ON ${this.table} (site, k${i}, seq)`);
    }
  }

  /**
   * Runs `fn` (many writes, inside the caller's transaction) with the fields' indexes dropped, then builds them
   * again: one sort per index instead of a B-tree insert per row and index (a seed of a million members).
   */
  withoutIndexes<R>(fn: () => R): R {
    for (const field of this.def.indexed ?? []) this.db.exec(`DROP INDEX IF EXISTS ${this.table}_k${this.def.fields.indexOf(field)}`);
    this.db.exec(`DROP INDEX IF EXISTS ${this.table}_id`);
    this.db.exec(`DROP INDEX IF EXISTS ${this.table}_seq`);
    try {
      return fn();
    } finally {
      this.createIndexes();
      this.analyze();
    }
  }

  /**
   * Samples the table's indexes for the query planner (sqlite_stat1). Without it SQLite takes `status = ?` for
   * a handful of rows and sorts every APPROVED member rather than walk the last-name index in order.
   */
  private analyze(): void {
    this.db.exec(`PRAGMA analysis_limit = 1000; ANALYZE ${this.table}; PRAGMA analysis_limit = 0`);
  }

  /** Fills the table again from `docs`, one document parsed at a time, with its indexes built at the end. */
  private rebuild(): void {
    this.db.exec(`DELETE FROM ${this.table}`);
    const before = pragma(this.db, 'cache_size') as number;
    pragma(this.db, `cache_size = ${BULK_CACHE_KIB}`);
    try {
      this.withoutIndexes(() => this.refill());
    } finally {
      pragma(this.db, `cache_size = ${before}`);
    }
  }

  private refill(): void {
    const cols = this.def.fields.map((_, i) => `k${i}, v${i}, l${i}`).join(', ');
    const marks = this.def.fields.map(() => '?, ?, ?').join(', ');
    const insert = prepare<SQLInputValue[]>(this.db, `INSERT INTO ${this.table} (site, id, seq, irregular, ${cols}) VALUES (?, ?, ?, ?, ${marks})`);
    const rows = prepare<[string], { site: string; id: string; seq: number; doc: string }>(this.db, 'SELECT site, id, seq, doc FROM docs WHERE kind = ?');
    for (const r of rows.iterate(this.kind)) insert.run(r.site, r.id, r.seq, ...this.columns(JSON.parse(r.doc)));
  }

  /** `[irregular, k0, v0, ...]` of a document. */
  private columns(doc: unknown): SQLInputValue[] {
    const cols = columnsOf(doc, this.paths);
    return cols ? [0, ...cols] : [1, ...this.def.fields.flatMap(() => [Uint8Array.of(0), null, null])];
  }

  /** Inserts the row of a new document, `seq` its creation order (inside the caller's transaction). */
  add(site: string, id: string, seq: number, doc: unknown): void {
    this.insert.run(site, id, seq, ...this.columns(doc));
  }

  /** Replaces the columns of a stored document's row (inside the caller's transaction). */
  replace(site: string, id: string, doc: unknown): void {
    this.update.run(...this.columns(doc), site, id);
  }

  /** Removes the row of a document (inside the caller's transaction). */
  delete(site: string, id: string): void {
    this.remove.run(site, id);
  }

  /** Whether the site holds a document no SQL query is exact on (see query/sql.ts): queries then scan. */
  hasIrregular(site: string): boolean {
    return this.irregular.get(site) !== undefined;
  }

  /** Empties the table (the store's data was cleared), or one site's rows. */
  clear(site?: string): void {
    if (site === undefined) this.db.exec(`DELETE FROM ${this.table}`);
    else prepare<[string]>(this.db, `DELETE FROM ${this.table} WHERE site = ?`).run(site);
  }

  private statement(sql: string): Statement<SQLInputValue[], Record<string, unknown>> {
    let s = this.statements.get(sql);
    if (!s) {
      if (this.statements.size >= MAX_STATEMENTS) this.statements.delete(this.statements.keys().next().value as string);
      s = prepare(this.db, sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  /** How many rows of `site` match `q`. */
  count(site: string, q: SqlQuery): number {
    const s = this.statement(`SELECT COUNT(*) AS n FROM ${this.table} WHERE site = ? AND ${q.where}`);
    return this.runLeaves(q.leaves, () => Number(s.get(site, ...q.params)!.n));
  }

  /**
   * The ids of one page of `site`'s rows matching `q`, in `q`'s order then creation order: `limit` rows after
   * skipping `offset`, counted from `after` (the end of an earlier page) when given.
   * @returns the ids and where the page ended (undefined when it is empty)
   */
  page(site: string, q: SqlQuery, opts: { offset: number; limit: number; after?: SeekPoint }): { ids: string[]; end: SeekPoint | undefined } {
    const order = q.orderBy.map((o) => `k${o.column} ${o.desc ? 'DESC' : 'ASC'}`);
    const params: SQLInputValue[] = [site, ...q.params];
    let seek = '';
    if (opts.after) {
      const { sql, values } = seekClause(q.orderBy, opts.after);
      seek = ` AND ${sql}`;
      params.push(...values);
    }
    // Only what an index holds (its keys and seq, the rowid): skipping `offset` rows reads no table row when the
    // filter is on the sort's field too; the page's ids are read by seq after.
    const keyCols = q.orderBy.map((o, i) => `, k${o.column} AS s${i}`).join('');
    const s = this.statement(
      `SELECT seq${keyCols} FROM ${this.table} WHERE site = ? AND ${q.where}${seek} ORDER BY ${[...order, 'seq ASC'].join(', ')} LIMIT ? OFFSET ?`,
    );
    params.push(opts.limit, opts.offset);
    const rows = this.runLeaves(q.leaves, () => s.all(...params));
    const last = rows[rows.length - 1];
    const ids = this.statement(`SELECT seq, id FROM ${this.table} WHERE seq IN (SELECT value FROM json_each(?))`);
    const idOf = new Map(ids.all(JSON.stringify(rows.map((r) => Number(r.seq)))).map((r) => [Number(r.seq), r.id as string]));
    return {
      ids: rows.map((r) => idOf.get(Number(r.seq))!),
      end: last ? { keys: q.orderBy.map((_, i) => last[`s${i}`] as Uint8Array), seq: Number(last.seq) } : undefined,
    };
  }

  /** Every id of `site` matching `q`, in `q`'s order then creation order (no order: by-filter jobs). */
  ids(site: string, q: SqlQuery): string[] {
    const order = [...q.orderBy.map((o) => `k${o.column} ${o.desc ? 'DESC' : 'ASC'}`), 'seq ASC'].join(', ');
    const s = this.statement(`SELECT id FROM ${this.table} WHERE site = ? AND ${q.where} ORDER BY ${order}`);
    return this.runLeaves(q.leaves, () => s.all(site, ...q.params).map((r) => r.id as string));
  }
}

/**
 * Rows strictly after `after` in the order `orderBy` then `seq` ascending: `(a > ?) OR (a = ? AND b < ?) OR ...
 * OR (a = ? AND b = ? AND seq > ?)`, led by the first key's bound so an index on it seeks instead of scanning.
 */
function seekClause(orderBy: SqlQuery['orderBy'], after: SeekPoint): { sql: string; values: SQLInputValue[] } {
  const values: SQLInputValue[] = [];
  const terms: string[] = [];
  for (let i = 0; i <= orderBy.length; i++) {
    const equal = orderBy.slice(0, i).map((o, j) => {
      values.push(after.keys[j]!);
      return `k${o.column} = ?`;
    });
    if (i < orderBy.length) {
      const o = orderBy[i]!;
      values.push(after.keys[i]!);
      terms.push(`(${[...equal, `k${o.column} ${o.desc ? '<' : '>'} ?`].join(' AND ')})`);
    } else {
      values.push(after.seq);
      terms.push(`(${[...equal, 'seq > ?'].join(' AND ')})`);
    }
  }
  if (orderBy.length === 0) return { sql: terms[0]!, values };
  const first = orderBy[0]!;
  values.push(after.keys[0]!);
  return { sql: `(${terms.join(' OR ')}) AND k${first.column} ${first.desc ? '<=' : '>='} ?`, values };
}
