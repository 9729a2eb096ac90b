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
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { EntityKind, ServiceDoc } from './model.js';

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

/** Opens (creating if needed) the store in `dataDir`. See the module comment for the layout. */
export class Store {
  readonly db: Database.Database;
  private readonly cache = new Map<string, ServiceDoc>();
  private touched: Set<string> | null = null;
  private readonly stmt;

  constructor(readonly dataDir: string) {
    mkdirSync(dataDir, { recursive: true });
    this.db = new Database(join(dataDir, 'store.sqlite'));
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(SCHEMA);
    const db = this.db;
    this.stmt = {
      allServices: db.prepare<[], { doc: string }>('SELECT doc FROM services ORDER BY seq'),
      getService: db.prepare<[string], { doc: string }>('SELECT doc FROM services WHERE id = ?'),
      insertService: db.prepare<[string, string, string]>('INSERT INTO services (id, slug, doc) VALUES (?, ?, ?)'),
      updateService: db.prepare<[string, string, string]>('UPDATE services SET slug = ?, doc = ? WHERE id = ?'),
      deleteService: db.prepare<[string]>('DELETE FROM services WHERE id = ?'),
      slugOwner: db.prepare<[string], { service_id: string }>('SELECT service_id FROM slugs WHERE name = ?'),
      insertSlug: db.prepare<[string, string, string]>('INSERT OR REPLACE INTO slugs (name, service_id, created_date) VALUES (?, ?, ?)'),
      deleteSlugs: db.prepare<[string]>('DELETE FROM slugs WHERE service_id = ?'),
      listEntities: db.prepare<[string], { doc: string }>('SELECT doc FROM entities WHERE kind = ? ORDER BY seq'),
      getEntity: db.prepare<[string, string], { doc: string }>('SELECT doc FROM entities WHERE kind = ? AND id = ?'),
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
      return this.db.transaction(fn)();
    } catch (err) {
      for (const id of this.touched) {
        const row = this.stmt.getService.get(id);
        if (row) this.cache.set(id, JSON.parse(row.doc) as ServiceDoc);
        else this.cache.delete(id);
      }
      throw err;
    } finally {
      this.touched = null;
    }
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

  insertService(doc: ServiceDoc): void {
    this.touched?.add(doc.id);
    this.stmt.insertService.run(doc.id, doc.mainSlug?.name ?? '', JSON.stringify(doc));
    this.cache.set(doc.id, doc);
  }

  replaceService(doc: ServiceDoc): void {
    this.touched?.add(doc.id);
    this.stmt.updateService.run(doc.mainSlug?.name ?? '', JSON.stringify(doc), doc.id);
    this.cache.set(doc.id, doc);
  }

  deleteService(id: string): void {
    this.touched?.add(id);
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

  listEntities<T = Record<string, unknown>>(kind: EntityKind): T[] {
    return this.stmt.listEntities.all(kind).map((r) => JSON.parse(r.doc) as T);
  }

  getEntity<T = Record<string, unknown>>(kind: EntityKind, id: string): T | undefined {
    const row = this.stmt.getEntity.get(kind, id);
    return row ? (JSON.parse(row.doc) as T) : undefined;
  }

  putEntity(kind: EntityKind, doc: { id: string }): void {
    this.stmt.putEntity.run(kind, doc.id, kind, JSON.stringify(doc));
  }

  /** Appends a domain event and returns its sequence number. */
  appendEvent(type: string, entityId: string, entity: unknown, createdDate: string): number {
    return Number(this.stmt.appendEvent.run(type, entityId, JSON.stringify(entity), createdDate).lastInsertRowid);
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
    this.db.exec(
      "DELETE FROM services; DELETE FROM slugs; DELETE FROM entities; DELETE FROM events; DELETE FROM meta; DELETE FROM sqlite_sequence WHERE name IN ('services', 'events');",
    );
    this.cache.clear();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
