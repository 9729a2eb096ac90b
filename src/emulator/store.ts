/**
 * The emulator's one store: a SQLite file (`<dataDir>/store.sqlite`, WAL, synchronous=NORMAL so a committed
 * transaction survives a killed process) plus an in-memory cache of parsed services kept coherent with it.
 *
 * Services are JSON documents in `services` with indexed id and main-slug columns; every slug a service ever
 * had lives in `slugs` (unique), which is what makes slugs unique across services. Smaller collections
 * (business locations, staff, categories, booking policies, booking forms) share `entities` keyed by kind.
 * Domain events are appended to `events` with a sequence number.
 *
 * Reads of services come from the cache (queries filter parsed documents in JS, fast enough for 10,000
 * services). Every write goes through this class inside {@link Store.tx}; if the transaction rolls back, the
 * cache entries it touched are reloaded from the file, so the cache never shows uncommitted data.
 *
 * Cached documents are immutable once stored: writers build a new document (copy on write) and replace it.
 * That lets the store keep each document's JSON text beside it (written once, reused for events and replies),
 * and lets query matches be memoised per generation of the services collection ({@link Store.serviceMatches}).
 * The small collections are cached parsed as well, per kind, and dropped on any write to them.
 */
import Database from 'better-sqlite3';
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Checkpointer } from './checkpointer.js';
import type { EntityKind, ServiceDoc } from './model.js';
import { MatchMemo } from './query/memo.js';

export interface DomainEvent {
  seq: number;
  type: string;
  entityId: string;
  entity: unknown;
  createdDate: string;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS services (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  slug TEXT NOT NULL,
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS services_slug ON services(slug);
CREATE TABLE IF NOT EXISTS slugs (
  name TEXT PRIMARY KEY,
  service_id TEXT NOT NULL,
  created_date TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS slugs_service ON slugs(service_id);
CREATE TABLE IF NOT EXISTS entities (
  kind TEXT NOT NULL,
  id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  doc TEXT NOT NULL,
  PRIMARY KEY (kind, id)
);
CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
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
}

/** Opens (creating if needed) the store in `dataDir`. See the module comment for the layout. */
export class Store {
  readonly db: Database.Database;
  private readonly cache = new Map<string, ServiceDoc>();
  /** JSON text of each cached document, exactly `JSON.stringify(doc)`. */
  private readonly docJson = new WeakMap<ServiceDoc, string>();
  /** Parsed small collections by kind, in seq order; a kind is reloaded after any write to it. */
  private readonly entityCache = new Map<EntityKind, Map<string, unknown>>();
  /** Changes whenever the set or content of cached services changes (including a rollback). */
  private generation = 0;
  private touched: Set<string> | null = null;
  private readonly stmt;
  /** Memoised query matches over {@link Store.services}, valid until the next service write. */
  readonly serviceMatches = new MatchMemo<ServiceDoc>(() => this.generation);
  private checkpointer: Checkpointer | undefined;
  private commits = 0;

  constructor(
    readonly dataDir: string,
    opts: StoreOptions = {},
  ) {
    mkdirSync(dataDir, { recursive: true });
    const file = join(dataDir, 'store.sqlite');
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(SCHEMA);
    if (opts.backgroundCheckpoints) {
      this.checkpointer = Checkpointer.start(file, () => {
        this.checkpointer = undefined;
        if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
      });
      if (this.checkpointer) this.db.pragma('wal_autocheckpoint = 0');
    }
    const db = this.db;
    this.stmt = {
      allServices: db.prepare<[], { doc: string }>('SELECT doc FROM services ORDER BY seq'),
      getService: db.prepare<[string], { doc: string }>('SELECT doc FROM services WHERE id = ?'),
      insertService: db.prepare<[string, string, string]>('INSERT INTO services (id, slug, doc) VALUES (?, ?, ?)'),
      updateService: db.prepare<[string, string, string]>('UPDATE services SET slug = ?, doc = ? WHERE id = ?'),
      updateServiceDoc: db.prepare<[string, string]>('UPDATE services SET doc = ? WHERE id = ?'),
      deleteService: db.prepare<[string]>('DELETE FROM services WHERE id = ?'),
      slugOwner: db.prepare<[string], { service_id: string }>('SELECT service_id FROM slugs WHERE name = ?'),
      insertSlug: db.prepare<[string, string, string]>('INSERT OR REPLACE INTO slugs (name, service_id, created_date) VALUES (?, ?, ?)'),
      deleteSlugs: db.prepare<[string]>('DELETE FROM slugs WHERE service_id = ?'),
      listEntities: db.prepare<[string], { id: string; doc: string }>('SELECT id, doc FROM entities WHERE kind = ? ORDER BY seq'),
      putEntity: db.prepare<[string, string, string, string]>(
        `INSERT INTO entities (kind, id, seq, doc) VALUES (?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM entities WHERE kind = ?), ?)
         ON CONFLICT (kind, id) DO UPDATE SET doc = excluded.doc`,
      ),
      countEntities: db.prepare<[], { kind: string; n: number }>('SELECT kind, COUNT(*) AS n FROM entities GROUP BY kind'),
      appendEvent: db.prepare<[string, string, string, string]>(
        'INSERT INTO events (type, entity_id, entity, created_date) VALUES (?, ?, ?, ?)',
      ),
      listEvents: db.prepare<[number, number], { seq: number; type: string; entity_id: string; entity: string; created_date: string }>(
        'SELECT seq, type, entity_id, entity, created_date FROM events WHERE seq > ? ORDER BY seq LIMIT ?',
      ),
      countEvents: db.prepare<[], { n: number; last: number | null }>('SELECT COUNT(*) AS n, MAX(seq) AS last FROM events'),
      getMeta: db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?'),
      setMeta: db.prepare<[string, string]>('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)'),
    };
    for (const row of this.stmt.allServices.iterate()) {
      const doc = JSON.parse(row.doc) as ServiceDoc;
      this.cache.set(doc.id, doc);
      this.docJson.set(doc, row.doc);
    }
  }

  /**
   * Runs `fn` in one SQLite transaction (committed when it returns, rolled back when it throws). Nested calls
   * join the outer transaction. On rollback the services touched are reloaded into the cache from the file.
   */
  tx<T>(fn: () => T): T {
    if (this.touched) return fn();
    this.touched = new Set();
    try {
      const result = this.db.transaction(fn)();
      if (this.checkpointer && ++this.commits % WAL_CHECK_EVERY === 0) this.capWal();
      return result;
    } catch (err) {
      this.generation++;
      this.entityCache.clear();
      for (const id of this.touched) {
        const row = this.stmt.getService.get(id);
        if (row) this.remember(JSON.parse(row.doc) as ServiceDoc, row.doc);
        else this.cache.delete(id);
      }
      throw err;
    } finally {
      this.touched = null;
    }
  }

  /** Checkpoints on this connection when background checkpoints have let the WAL grow past its cap. */
  private capWal(): void {
    let size = 0;
    try {
      size = statSync(join(this.dataDir, 'store.sqlite-wal')).size;
    } catch {
      return;
    }
    if (size > MAX_WAL_BYTES) this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  /** Every service, in creation order. Callers must not mutate the documents (clone before changing). */
  services(): IterableIterator<ServiceDoc> {
    return this.cache.values();
  }

  serviceCount(): number {
    return this.cache.size;
  }

  /** The cached service, or undefined. Do not mutate it. */
  getService(id: string): ServiceDoc | undefined {
    return this.cache.get(id);
  }

  /**
   * `JSON.stringify(doc)`, from the text kept when `doc` was stored or loaded (computed for any other
   * document). Valid because stored documents are never mutated.
   */
  serviceJson(doc: ServiceDoc): string {
    return this.docJson.get(doc) ?? JSON.stringify(doc);
  }

  private remember(doc: ServiceDoc, json: string): void {
    this.cache.set(doc.id, doc);
    this.docJson.set(doc, json);
  }

  /** Stores a new service. `doc` must not be mutated afterwards. */
  insertService(doc: ServiceDoc): void {
    this.touched?.add(doc.id);
    this.generation++;
    const json = JSON.stringify(doc);
    this.stmt.insertService.run(doc.id, doc.mainSlug?.name ?? '', json);
    this.remember(doc, json);
  }

  /** Replaces a stored service with a new document (never the cached one mutated in place). */
  replaceService(doc: ServiceDoc): void {
    this.touched?.add(doc.id);
    this.generation++;
    const json = JSON.stringify(doc);
    const slug = doc.mainSlug?.name ?? '';
    // Leaving the slug column out when it is unchanged spares SQLite the slug index update.
    const previous = this.cache.get(doc.id);
    if (previous && (previous.mainSlug?.name ?? '') === slug) this.stmt.updateServiceDoc.run(json, doc.id);
    else this.stmt.updateService.run(slug, json, doc.id);
    this.remember(doc, json);
  }

  deleteService(id: string): void {
    this.touched?.add(id);
    this.generation++;
    this.stmt.deleteService.run(id);
    this.stmt.deleteSlugs.run(id);
    this.cache.delete(id);
  }

  /** Id of the service that owns slug `name` (current or past), or undefined. */
  slugOwner(name: string): string | undefined {
    return this.stmt.slugOwner.get(name)?.service_id;
  }

  claimSlug(name: string, serviceId: string, createdDate: string): void {
    this.stmt.insertSlug.run(name, serviceId, createdDate);
  }

  private entitiesOf(kind: EntityKind): Map<string, unknown> {
    let byId = this.entityCache.get(kind);
    if (!byId) {
      byId = new Map();
      for (const r of this.stmt.listEntities.all(kind)) byId.set(r.id, JSON.parse(r.doc));
      this.entityCache.set(kind, byId);
    }
    return byId;
  }

  /** Every entity of `kind` in insertion order. The documents are shared: do not mutate them. */
  listEntities<T = Record<string, unknown>>(kind: EntityKind): T[] {
    return [...this.entitiesOf(kind).values()] as T[];
  }

  /** The entity, or undefined. The document is shared: do not mutate it. */
  getEntity<T = Record<string, unknown>>(kind: EntityKind, id: string): T | undefined {
    return this.entitiesOf(kind).get(id) as T | undefined;
  }

  putEntity(kind: EntityKind, doc: { id: string }): void {
    this.entityCache.delete(kind);
    this.stmt.putEntity.run(kind, doc.id, kind, JSON.stringify(doc));
  }

  /** Appends a domain event and returns its sequence number. A stored service reuses its JSON text. */
  appendEvent(type: string, entityId: string, entity: unknown, createdDate: string): number {
    const json = this.docJson.get(entity as ServiceDoc) ?? JSON.stringify(entity);
    return Number(this.stmt.appendEvent.run(type, entityId, json, createdDate).lastInsertRowid);
  }

  /** Events with seq > after, oldest first, at most `limit`. */
  listEvents(after: number, limit: number): DomainEvent[] {
    return this.stmt.listEvents.all(after, limit).map((r) => ({
      seq: r.seq,
      type: r.type,
      entityId: r.entity_id,
      entity: JSON.parse(r.entity) as unknown,
      createdDate: r.created_date,
    }));
  }

  /** Row counts per collection plus the last event sequence number. */
  counts(): Record<string, number> {
    const out: Record<string, number> = {
      services: this.cache.size,
      businessLocations: 0,
      staffMembers: 0,
      categories: 0,
      bookingPolicies: 0,
      bookingForms: 0,
    };
    for (const r of this.stmt.countEntities.all()) out[r.kind] = r.n;
    const ev = this.stmt.countEvents.get();
    out.events = ev?.n ?? 0;
    out.lastEventSeq = ev?.last ?? 0;
    return out;
  }

  getMeta(key: string): string | undefined {
    return this.stmt.getMeta.get(key)?.value;
  }

  setMeta(key: string, value: string): void {
    this.stmt.setMeta.run(key, value);
  }

  /** Deletes every row of every table (inside the caller's transaction) and empties the cache. */
  clearAll(): void {
    for (const id of this.cache.keys()) this.touched?.add(id);
    this.generation++;
    this.entityCache.clear();
    this.db.exec(
      "DELETE FROM services; DELETE FROM slugs; DELETE FROM entities; DELETE FROM events; DELETE FROM meta; DELETE FROM sqlite_sequence WHERE name IN ('services', 'events');",
    );
    this.cache.clear();
  }

  /** Stops the checkpoint worker, then closes the connection (SQLite checkpoints the WAL as it closes). */
  close(): void {
    this.checkpointer?.stop();
    this.checkpointer = undefined;
    if (this.db.open) this.db.close();
  }
}
