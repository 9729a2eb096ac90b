/**
 * The emulator's one store: a SQLite file (`<dataDir>/store.sqlite`, WAL, synchronous=NORMAL so a committed
 * transaction survives a killed process) holding every collection of every site, the account's sites, domain
 * events and settings, with an in-memory cache of parsed documents kept coherent with it (collection.ts).
 *
 * Layout: `docs(site, kind, id, seq, doc)` holds every document as JSON (seq = creation order);
 * `uniques(site, kind, name, value, id)` makes declared keys unique per site (slugs, e-mails); `events` is the
 * domain event log (`service.created`, ...); `sites` the account's sites; `meta` settings (seed, clock, schema
 * version).
 *
 * Every write runs inside {@link Store.tx}: one SQLite transaction, committed when the function returns. A
 * nested `tx` is a savepoint (a bulk call runs each item in one, so a failing item leaves nothing behind). When
 * a transaction or savepoint rolls back, the cached documents it touched are reloaded from the file, so the
 * cache never shows uncommitted data. One transaction may span collections (a booking and the capacity it
 * takes; an order and its member).
 *
 * Query tables: a collection that declares queryable fields (members, services) is not kept in memory; its filters, sorts
 * and pages run in SQL over `query_<kind>` (query-table.ts, query/sql.ts), and the connection has the function
 * `sitectl_leaf` those queries call for what SQL cannot decide itself.
 */
import { chmodSync, mkdirSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { Clock } from '../clock.js';
import { Checkpointer } from './checkpointer.js';
import { Collection, type CollectionDef, type Doc } from './collection.js';
import { openSchema } from './migrate.js';
import { BULK_CACHE_KIB, QueryTable, type QueryableDef } from './query-table.js';
import { openDatabase, pragma, prepare, transaction, type Database } from './sqlite.js';
import { statements } from './statements.js';
import { leafFunction, type SqlLeaf } from '../query/sql.js';

export interface DomainEvent {
  seq: number;
  siteId: string;
  type: string;
  entityId: string;
  entity: unknown;
  createdDate: string;
}

export interface Site {
  id: string;
  name: string;
  createdDate: string;
}

/** The layout this code writes; older stores are migrated on open (migrate.ts). */
export const SCHEMA_VERSION = 2;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sites (id TEXT PRIMARY KEY, name TEXT NOT NULL, created_date TEXT NOT NULL, seq INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS docs (
  site TEXT NOT NULL,
  kind TEXT NOT NULL,
  id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  doc TEXT NOT NULL,
  PRIMARY KEY (site, kind, id)
);
CREATE INDEX IF NOT EXISTS docs_order ON docs(kind, site, seq);
CREATE TABLE IF NOT EXISTS uniques (
  site TEXT NOT NULL,
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  value TEXT NOT NULL,
  id TEXT NOT NULL,
  PRIMARY KEY (site, kind, name, value)
);
CREATE INDEX IF NOT EXISTS uniques_owner ON uniques(site, kind, id);
CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  site TEXT NOT NULL,
  type TEXT NOT NULL,
  entity_id TEXT NOT NULL,
  entity TEXT NOT NULL,
  created_date TEXT NOT NULL
);
`;

/** SQLite's default `wal_autocheckpoint`, restored if the checkpoint worker fails. */
const AUTO_CHECKPOINT_PAGES = 1000;
/**
 * With background checkpoints the WAL can only restart from its beginning when a checkpoint has caught up
 * between two commits; under an endless stream of writes it would grow without bound, so past this size the
 * request connection checkpoints (and truncates) itself. Checked every {@link WAL_CHECK_EVERY} commits.
 */
const MAX_WAL_BYTES = 256 * 1024 * 1024;
const WAL_CHECK_EVERY = 64;

export interface StoreOptions {
  /** Run WAL checkpoints in a worker thread instead of inside commits (see checkpointer.ts). Default false. */
  backgroundCheckpoints?: boolean;
  /** Real time source for the clock (tests). */
  realNow?: () => number;
  /** The account's default site: receives the data of a store written by an earlier version. */
  defaultSite?: { id: string; name: string };
  /** The file's name in `dataDir` (default {@link STORE_FILE}; a new store is seeded under another, then renamed). */
  fileName?: string;
  /** What a new file starts with (a reset seeded apart: the running store's settings and sites, see {@link Store.carry}). */
  carry?: StoreCarry;
}

/** The settings (meta, the clock's among them) and sites a reset keeps, as {@link Store.carry} reads them. */
export interface StoreCarry {
  meta: Record<string, string>;
  sites: (Site & { seq: number })[];
}

/** The store's file in the data dir. */
export const STORE_FILE = 'store.sqlite';

type Key = string;
const keyOf = (kind: string, site: string, id: string): Key => `${kind}\u0000${site}\u0000${id}`;

/** Opens (creating and migrating as needed) the store in `dataDir`. See the module comment. */
export class Store {
  /** The connection (another one after {@link replaceFile}). */
  db!: Database;
  /** The SQLite file's path. */
  readonly file: string;
  private closed = false;
  readonly clock: Clock;
  private readonly collections = new Map<string, Collection<Doc>>();
  /** Keys written in each open transaction level (outermost first). */
  private touchedStack: Set<Key>[] = [];
  private txNow: string | undefined;
  private muted = 0;
  private nextSeq!: number;
  private stmt!: ReturnType<typeof statements>;
  private checkpointer: Checkpointer | undefined;
  private commits = 0;
  /** One transaction wrapper for every call: sqlite.ts nests it as a savepoint inside an open one. */
  private readonly inTransaction: <T>(fn: () => T) => T;
  private readonly queryTables = new Map<string, QueryTable>();
  /** Inside {@link bulkLoad}. */
  bulkLoading = false;
  /** Query tables opened in each open transaction level: forgotten when it rolls back (their DDL is undone). */
  private openedStack: string[][] = [];
  /** The leaves of the query running now, for `sitectl_leaf` (queries run synchronously, one at a time). */
  private leaves: readonly SqlLeaf[] = [];

  /** @throws Error when the data dir cannot be created or the file is not a SQLite database */
  constructor(
    readonly dataDir: string,
    private readonly opts: StoreOptions = {},
  ) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    this.file = join(dataDir, opts.fileName ?? STORE_FILE);
    this.inTransaction = <T>(fn: () => T): T => transaction(this.db, fn);
    this.open(opts);
    if (opts.carry) this.applyCarry(opts.carry);
    this.clock = new Clock({ get: (k) => this.getMeta(k), set: (k, v) => this.setMeta(k, v) }, opts.realNow);
  }

  /** Opens the connection to {@link file}, its pragmas, schema, checkpoint worker and statements. */
  private open(opts: StoreOptions): void {
    const file = this.file;
    this.db = openDatabase(file);
    // Site data: owner-only whatever the umask (docs/architecture.md "The emulator"); the WAL and SHM files follow the database.
    chmodSync(file, 0o600);
    pragma(this.db, 'journal_mode = WAL');
    pragma(this.db, 'synchronous = NORMAL');
    pragma(this.db, 'busy_timeout = 5000');
    openSchema(this.db, SCHEMA, opts.defaultSite);
    for (const suffix of ['-wal', '-shm']) {
      try {
        chmodSync(file + suffix, 0o600);
      } catch {
        // Created on the first write.
      }
    }
    if (opts.backgroundCheckpoints) {
      this.checkpointer = Checkpointer.start(file, () => {
        this.checkpointer = undefined;
        if (!this.closed) pragma(this.db, `wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
      });
      if (this.checkpointer) pragma(this.db, 'wal_autocheckpoint = 0');
    }
    const db = this.db;
    db.function('sitectl_leaf', { varargs: true, deterministic: false }, leafFunction(() => this.leaves) as (...args: unknown[]) => number);
    this.stmt = statements(db);
    this.nextSeq = (this.stmt.maxSeq.get()?.m ?? 0) + 1;
    this.setMeta('schemaVersion', String(SCHEMA_VERSION));
  }

  /** The collection declared by `def` (created on first use; its documents load on first read). */
  collection<T extends Doc>(def: CollectionDef<T>): Collection<T> {
    let c = this.collections.get(def.kind);
    if (!c) {
      c = new Collection<Doc>(def as unknown as CollectionDef<Doc>, this);
      this.collections.set(def.kind, c);
    }
    return c as unknown as Collection<T>;
  }

  /**
   * Runs `fn` in one transaction (committed when it returns, rolled back when it throws). Inside a transaction
   * it runs in a savepoint of its own. `now` (ISO) is the time every write of the transaction records; it
   * defaults to the clock's time when the outermost transaction starts.
   */
  tx<T>(fn: () => T, now?: string): T {
    const outer = this.touchedStack.length === 0;
    if (outer) this.txNow = now ?? this.clock.nowIso();
    const touched = new Set<Key>();
    this.touchedStack.push(touched);
    const opened: string[] = [];
    this.openedStack.push(opened);
    try {
      const result = this.inTransaction(fn);
      this.touchedStack.pop();
      this.openedStack.pop();
      const parent = this.touchedStack[this.touchedStack.length - 1];
      if (parent) for (const k of touched) parent.add(k);
      this.openedStack[this.openedStack.length - 1]?.push(...opened);
      if (outer && this.checkpointer && ++this.commits % WAL_CHECK_EVERY === 0) this.capWal();
      return result;
    } catch (err) {
      this.touchedStack.pop();
      this.openedStack.pop();
      for (const kind of opened) this.queryTables.delete(kind);
      this.reloadTouched(touched);
      this.siteIds = undefined;
      throw err;
    } finally {
      if (outer) this.txNow = undefined;
    }
  }

  /** The time writes of the current transaction record (ISO); the clock's time outside one. */
  now(): string {
    return this.txNow ?? this.clock.nowIso();
  }

  private reloadTouched(keys: Set<Key>): void {
    const bySite = new Map<string, { kind: string; site: string; ids: string[] }>();
    for (const key of keys) {
      if (!key.includes('\u0000')) {
        this.collections.get(key)?.forget();
        continue;
      }
      const [kind, site, id] = key.split('\u0000') as [string, string, string];
      const k = `${kind}\u0000${site}`;
      let entry = bySite.get(k);
      if (!entry) bySite.set(k, (entry = { kind, site, ids: [] }));
      entry.ids.push(id);
    }
    for (const { kind, site, ids } of bySite.values()) this.collections.get(kind)?.reload(site, ids);
  }

  /** @internal Records that (kind, site, id) is written in the current transaction. */
  touch(kind: string, site: string, id: string): void {
    const top = this.touchedStack[this.touchedStack.length - 1];
    if (!top) throw new Error('store writes must run inside store.tx()');
    // A collection not kept in memory forgets its few cached documents on a rollback: no key per write (a seed
    // of a million members would keep a million).
    top.add(this.collections.get(kind)?.resident === false ? kind : keyOf(kind, site, id));
  }

  /** Checkpoints on this connection when background checkpoints have let the WAL grow past its cap. */
  private capWal(): void {
    let size = 0;
    try {
      size = statSync(`${this.file}-wal`).size;
    } catch {
      return;
    }
    if (size > MAX_WAL_BYTES) pragma(this.db, 'wal_checkpoint(TRUNCATE)');
  }

  /** @internal Rows of a kind (every site, or one), in creation order. */
  rows(kind: string, site?: string): IterableIterator<{ site: string; doc: string }> {
    return site === undefined ? this.stmt.rows.iterate(kind) : this.stmt.siteRows.iterate(kind, site);
  }

  /** @internal */ rowDoc(kind: string, site: string, id: string): string | undefined {
    return this.stmt.rowDoc.get(site, kind, id)?.doc;
  }

  /** @internal Inserts a document's row; returns its `seq` (creation order). */
  insertRow(kind: string, site: string, id: string, doc: string): number {
    const seq = this.nextSeq++;
    this.stmt.insertRow.run(site, kind, id, seq, doc);
    return seq;
  }

  /** @internal How many documents of a kind the site holds. */
  countRows(kind: string, site: string): number {
    return this.stmt.countKind.get(kind, site)?.n ?? 0;
  }

  /**
   * @internal The query table of a kind that declares queryable fields (created, or rebuilt from its documents,
   * on first use: query-table.ts).
   */
  queryTable(kind: string, def: QueryableDef): QueryTable {
    let t = this.queryTables.get(kind);
    if (!t) {
      t = new QueryTable(this.db, kind, def, (leaves, fn) => this.withLeaves(leaves, fn));
      this.queryTables.set(kind, t);
      this.openedStack[this.openedStack.length - 1]?.push(kind);
    }
    return t;
  }

  /**
   * Runs `fn` (a bulk load inside the caller's transaction: a seed) with a page cache of 384 MiB instead of
   * SQLite's 2 MiB, and the indexes of the open query tables and `uniques_owner` built once at the end instead
   * of row by row (each is one sort then; row by row, random keys touch pages all over a large B-tree). Inserts
   * of the load leave a taken id to the table's primary key (SQLite's constraint error, not a 409): the data of
   * a seed is new by construction.
   */
  bulkLoad<R>(fn: () => R): R {
    if (this.bulkLoading) return fn();
    const before = pragma(this.db, 'cache_size') as number;
    this.bulkLoading = true;
    pragma(this.db, `cache_size = ${BULK_CACHE_KIB}`);
    this.db.exec('DROP INDEX IF EXISTS uniques_owner');
    try {
      let run = fn;
      for (const t of this.queryTables.values()) {
        const inner = run;
        run = () => t.withoutIndexes(inner);
      }
      return run();
    } finally {
      this.bulkLoading = false;
      this.db.exec('CREATE INDEX IF NOT EXISTS uniques_owner ON uniques(site, kind, id)');
      pragma(this.db, `cache_size = ${before}`);
    }
  }

  private withLeaves<R>(leaves: readonly SqlLeaf[], fn: () => R): R {
    const previous = this.leaves;
    this.leaves = leaves;
    try {
      return fn();
    } finally {
      this.leaves = previous;
    }
  }

  /** Names of the query tables in the file (some may not be open in this process yet). */
  private queryTableNames(): string[] {
    return prepare<[], { name: string }>(this.db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'query\\_%' ESCAPE '\\'")
      .all()
      .map((r) => r.name);
  }

  /** @internal */ updateRow(kind: string, site: string, id: string, doc: string): void {
    this.stmt.updateRow.run(doc, site, kind, id);
  }

  /** @internal */ deleteRow(kind: string, site: string, id: string): void {
    this.stmt.deleteRow.run(site, kind, id);
  }

  /** @internal */ uniqueOwner(kind: string, site: string, name: string, value: string): string | undefined {
    return this.stmt.uniqueOwner.get(site, kind, name, value)?.id;
  }

  /** @internal Claims a unique value for `id` unless it is held; returns whether it was free. */
  claimUnique(kind: string, site: string, name: string, value: string, id: string): boolean {
    return Number(this.stmt.claimUnique.run(site, kind, name, value, id).changes) > 0;
  }

  /** @internal */ releaseUnique(kind: string, site: string, name: string, value: string, id: string): void {
    this.stmt.releaseUnique.run(site, kind, name, value, id);
  }

  /** @internal */ releaseAllUniques(kind: string, site: string, id: string): void {
    this.stmt.releaseAll.run(site, kind, id);
  }

  /**
   * Appends a domain event (inside the caller's transaction) and returns its sequence number; 0 while events
   * are muted (seeding: the demo data is the starting state, not a change anyone made).
   */
  appendEvent(site: string, type: string, entityId: string, entityJson: string): number {
    if (this.muted > 0) return 0;
    return Number(this.stmt.appendEvent.run(site, type, entityId, entityJson, this.now()).lastInsertRowid);
  }

  /** Runs `fn` (a transaction) with domain events muted. */
  withoutEvents<T>(fn: () => T): T {
    this.muted++;
    try {
      return fn();
    } finally {
      this.muted--;
    }
  }

  /** Events with seq > after, oldest first, at most `limit`. */
  listEvents(after: number, limit: number): DomainEvent[] {
    return this.stmt.listEvents.all(after, limit).map((r) => ({
      seq: r.seq,
      siteId: r.site,
      type: r.type,
      entityId: r.entity_id,
      entity: JSON.parse(r.entity) as unknown,
      createdDate: r.created_date,
    }));
  }

  /** Ids of the account's sites (see {@link hasSite}); undefined until asked, and after a change. */
  private siteIds: Set<string> | undefined;

  /** The account's sites, oldest first. */
  sites(): Site[] {
    return this.stmt.sites.all().map((r) => ({ id: r.id, name: r.name, createdDate: r.created_date }));
  }

  /**
   * Whether the account has this site. Asked on every request (auth), so the ids are kept in memory; any change
   * to the sites, and any rolled-back transaction, drops the copy.
   */
  hasSite(id: string): boolean {
    this.siteIds ??= new Set(this.sites().map((s) => s.id));
    return this.siteIds.has(id);
  }

  /** Adds a site to the account (inside the caller's transaction or its own). */
  addSite(site: { id: string; name: string }): Site {
    const createdDate = this.now();
    this.siteIds = undefined;
    this.stmt.addSite.run(site.id, site.name, createdDate);
    return { ...site, createdDate };
  }

  /** Removes a site and all of its data. */
  removeSite(id: string): void {
    this.siteIds = undefined;
    this.tx(() => {
      this.db.prepare('DELETE FROM docs WHERE site = ?').run(id);
      this.db.prepare('DELETE FROM uniques WHERE site = ?').run(id);
      for (const table of this.queryTableNames()) this.db.prepare(`DELETE FROM ${table} WHERE site = ?`).run(id);
      this.stmt.removeSite.run(id);
    });
    for (const c of this.collections.values()) c.clear();
  }

  /** Document counts per site and kind, plus the event log's size and last sequence number. */
  counts(): { sites: Record<string, Record<string, number>>; events: number; lastEventSeq: number } {
    const sites: Record<string, Record<string, number>> = {};
    const zeros = Object.fromEntries([...this.collections.keys()].map((kind) => [kind, 0]));
    for (const s of this.sites()) sites[s.id] = { ...zeros };
    for (const r of this.stmt.countRows.all()) (sites[r.site] ??= {})[r.kind] = r.n;
    const ev = this.stmt.countEvents.get();
    return { sites, events: ev?.n ?? 0, lastEventSeq: ev?.last ?? 0 };
  }

  getMeta(key: string): string | undefined {
    return this.stmt.getMeta.get(key)?.value;
  }

  setMeta(key: string, value: string): void {
    this.stmt.setMeta.run(key, value);
  }

  /**
   * Deletes every document, unique key and event of every site (inside the caller's transaction) and empties
   * the caches. Sites, the clock and other settings are kept.
   */
  clearData(): void {
    this.db.exec("DELETE FROM docs; DELETE FROM uniques; DELETE FROM events; DELETE FROM sqlite_sequence WHERE name = 'events';");
    for (const table of this.queryTableNames()) this.db.exec(`DELETE FROM ${table}`);
    for (const c of this.collections.values()) c.clear();
    this.nextSeq = 1;
  }

  /**
   * What a reset keeps, to seed a new file with ({@link StoreOptions.carry}): every setting but the query tables'
   * signatures and the schema version (the clock's offset, OAuth's secret, apps and policies, the last seed's
   * options), and the account's sites with their creation dates and order.
   */
  carry(): StoreCarry {
    const meta: Record<string, string> = {};
    for (const r of prepare<[], { key: string; value: string }>(this.db, 'SELECT key, value FROM meta').all()) {
      if (!r.key.startsWith('queryTable:') && r.key !== 'schemaVersion') meta[r.key] = r.value;
    }
    const sites = prepare<[], { id: string; name: string; created_date: string; seq: number }>(this.db, 'SELECT id, name, created_date, seq FROM sites ORDER BY seq')
      .all()
      .map((r) => ({ id: r.id, name: r.name, createdDate: r.created_date, seq: r.seq }));
    return { meta, sites };
  }

  private applyCarry(carry: StoreCarry): void {
    this.tx(() => {
      for (const [k, v] of Object.entries(carry.meta)) this.setMeta(k, v);
      const insert = prepare<[string, string, string, number]>(this.db, 'INSERT OR REPLACE INTO sites (id, name, created_date, seq) VALUES (?, ?, ?, ?)');
      for (const site of carry.sites) insert.run(site.id, site.name, site.createdDate, site.seq);
    }, new Date(0).toISOString());
  }

  /**
   * Makes `source` (a complete store file in the data dir, closed, without `-wal`: {@link closeAsOneFile}) this
   * store's file, between two requests: the connection and the checkpoint worker are closed, the file renamed
   * over {@link file} (the old `-wal` and `-shm` removed first, so none is replayed into the new file), and the
   * connection reopened. Every cached document, query table and site id is dropped; the clock object is kept,
   * its settings written to the new file. Requests are synchronous on the store, so each sees the old file or
   * the new one, never both.
   * @throws Error inside a transaction (a swap must not cut one), or the file system's error of the rename
   */
  replaceFile(source: string): void {
    if (this.touchedStack.length > 0) throw new Error('the store file cannot be replaced inside a transaction');
    if (this.closed) throw new Error('the store is closed');
    this.checkpointer?.stop();
    this.checkpointer = undefined;
    this.db.close();
    for (const suffix of ['-wal', '-shm', '-journal']) {
      try {
        unlinkSync(this.file + suffix);
      } catch {
        // SQLite removed it as the last connection closed.
      }
    }
    renameSync(source, this.file);
    this.open(this.opts);
    for (const c of this.collections.values()) c.clear();
    this.queryTables.clear();
    this.siteIds = undefined;
    this.clock.persist();
  }

  /**
   * Closes the store as one self-contained file (its WAL written back and the file left in rollback-journal
   * mode, so no `-wal` or `-shm` file goes with it): for a file about to be renamed. Reopened, it is WAL again.
   */
  closeAsOneFile(): void {
    this.checkpointer?.stop();
    this.checkpointer = undefined;
    if (this.closed) return;
    pragma(this.db, 'journal_mode = DELETE');
    this.close();
  }

  /** Stops the checkpoint worker, then closes the connection (SQLite checkpoints the WAL as it closes). */
  close(): void {
    this.checkpointer?.stop();
    this.checkpointer = undefined;
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }
}

