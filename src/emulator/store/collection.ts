/**
 * A generic collection of one entity kind over the store's SQLite file (docs/architecture.md "The emulator"): ids, string
 * revisions bumped on every write with an optimistic check (409 REVISION_MISMATCH, nothing changed), created
 * and updated dates from the emulator's clock, declared unique keys (slugs, login e-mails) with lookups, the
 * JSON text kept beside each document, a memo of query matches, and a domain event appended in the same
 * transaction as each write (`service.created`, `booking.confirmed`, ...).
 *
 * A family adds a collection by declaring a {@link CollectionDef}; the store creates the collection on first
 * use. Every collection is partitioned by site: on the platform an account-level key reaches several sites,
 * chosen per request by `wix-site-id`, and each site has its own data. Handlers work on {@link SiteCollection}s,
 * a collection seen from one site.
 *
 * Documents are immutable once stored: writers build a new document (copy on write) and pass it in. That lets
 * the collection keep each document's JSON text (written once, reused for events and replies) and memoise
 * query matches until the next write to the site's data of this kind.
 *
 * Where documents live: a collection is *resident* (every document parsed in memory, loaded on first use) unless
 * it declares `queryable` fields. A queryable collection (members: a site may hold a million; services) keeps only a small
 * cache of recently read documents; `get` reads SQLite, `all` streams rows parsed one at a time, and
 * {@link SiteCollection.page} runs filters, sorts and paging in SQL over its query table (store/query-table.ts).
 *
 * Files: this one holds the collection across sites (documents, caches, the SQL or scanned queries);
 * store/site-collection.ts the one-site view handlers use (revisions, unique keys, events); store/collection-types.ts
 * the declarations both share.
 */
import { compileFilter } from '../query/filter.js';
import { MatchMemo } from '../query/memo.js';
import { translateQuery, type SqlQuery } from '../query/sql.js';
import { compareKeys, compilePath, first, sortKey, type SortKey } from '../query/values.js';
import type { CollectionDef, CollectionStore, Doc, IndexDef, PageRequest } from './collection-types.js';
import type { QueryTable, SeekPoint } from './query-table.js';
import { SiteCollection } from './site-collection.js';

export type { CollectionDef, CollectionStore, Doc, IndexDef, PageRequest, SortSpec, UniqueDef, WriteOptions } from './collection-types.js';
export { defineCollection } from './collection-types.js';
export { nextRevision, revisionMismatch, SiteCollection } from './site-collection.js';

/** Per-site state of one collection. */
interface SiteState<T> {
  docs: Map<string, T>;
  generation: number;
  memo: MatchMemo<T>;
  view?: SiteCollection<T & Doc>;
  /** Values derived from every document (indexes), valid for `derivedAt` generation. */
  derived: Map<string, unknown>;
  derivedAt: number;
  /** Indexes maintained write by write ({@link IndexDef}), by key. */
  indexes: Map<string, { def: IndexDef<T, unknown>; value: unknown }>;
  /** Of a queryable collection: totals and page ends of recent queries, valid for `seeksAt` generation. */
  seeks: Map<string, { total?: number; end?: SeekPoint }>;
  seeksAt: number;
}

/** Documents parsed and kept by a queryable collection (most recently read last). */
const CACHE_SIZE = 2000;
/** Queries whose totals and page ends a queryable collection remembers per site. */
const SEEK_ENTRIES = 64;

/** One kind of entity across every site; see the module comment. Created by the store (store.ts). */
export class Collection<T extends Doc> {
  private readonly sites = new Map<string, SiteState<T>>();
  private readonly json = new WeakMap<object, string>();
  private loaded = false;
  /** Whether every document is kept in memory (no `queryable` fields). */
  readonly resident: boolean;
  /** A queryable collection's recently read documents, by `site NUL id`. */
  private readonly cache = new Map<string, T>();

  constructor(
    readonly def: CollectionDef<T>,
    readonly store: CollectionStore,
  ) {
    this.resident = def.queryable === undefined;
    if (def.queryable) store.queryTable(def.kind, def.queryable);
  }

  private state(site: string): SiteState<T> {
    if (!this.loaded && this.resident) this.load();
    let s = this.sites.get(site);
    if (!s) {
      const fresh: SiteState<T> = { docs: new Map(), generation: 0, memo: undefined as unknown as MatchMemo<T>, derived: new Map(), derivedAt: 0, indexes: new Map(), seeks: new Map(), seeksAt: 0 };
      fresh.memo = new MatchMemo<T>(() => fresh.generation);
      s = fresh;
      this.sites.set(site, s);
    }
    return s;
  }

  /** Reads every document of this kind, once, on first use (so a start does not parse kinds nobody asks for). */
  private load(): void {
    this.loaded = true;
    for (const row of this.store.rows(this.def.kind)) {
      const doc = JSON.parse(row.doc) as T;
      this.json.set(doc, row.doc);
      this.state(row.site).docs.set(doc.id, doc);
    }
  }

  /** The collection seen from one site (cached). */
  at(site: string): SiteCollection<T> {
    const s = this.state(site);
    s.view ??= new SiteCollection<T>(this, site) as unknown as SiteCollection<T & Doc>;
    return s.view as unknown as SiteCollection<T>;
  }

  /** @internal */ docsOf(site: string): Map<string, T> {
    if (!this.resident) throw new Error(`${this.def.kind} is queried in SQLite: its documents are not kept in memory`);
    return this.state(site).docs;
  }

  private table(): QueryTable {
    return this.store.queryTable(this.def.kind, this.def.queryable!);
  }

  /** @internal The document or undefined (a queryable collection reads SQLite unless it has it cached). */
  getDoc(site: string, id: string): T | undefined {
    if (this.resident) return this.state(site).docs.get(id);
    const key = `${site}\u0000${id}`;
    let doc = this.cache.get(key);
    if (doc) {
      this.cache.delete(key);
      this.cache.set(key, doc);
      return doc;
    }
    const text = this.store.rowDoc(this.def.kind, site, id);
    if (text === undefined) return undefined;
    doc = JSON.parse(text) as T;
    this.json.set(doc, text);
    this.remember(key, doc);
    return doc;
  }

  private remember(key: string, doc: T): void {
    this.cache.delete(key);
    if (this.cache.size >= CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(key, doc);
  }

  /** @internal Every document of the site in creation order (a queryable collection parses one row at a time). */
  *allDocs(site: string): IterableIterator<T> {
    if (this.resident) {
      yield* this.state(site).docs.values();
      return;
    }
    for (const row of this.store.rows(this.def.kind, site)) {
      const doc = JSON.parse(row.doc) as T;
      this.json.set(doc, row.doc);
      yield doc;
    }
  }

  /** @internal How many documents the site holds. */
  sizeOf(site: string): number {
    return this.resident ? this.state(site).docs.size : this.store.countRows(this.def.kind, site);
  }

  /** The SQL of a query on a queryable collection, or undefined when it must scan (query/sql.ts). */
  private sqlOf(site: string, req: Pick<PageRequest<T>, 'filter' | 'sort' | 'search'>): SqlQuery | undefined {
    if (this.resident || this.table().hasIrregular(site)) return undefined;
    const search = req.search as { fields: readonly string[]; test: (doc: unknown) => boolean; words?: readonly string[]; any?: boolean } | undefined;
    return translateQuery(this.def.queryable!.fields, req.filter, req.sort, search);
  }

  /** @internal See {@link SiteCollection.page}. */
  page(site: string, req: PageRequest<T>): { items: T[]; total: number } {
    const q = this.sqlOf(site, req);
    if (!q) return this.scanPage(site, req);
    const s = this.state(site);
    if (s.seeksAt !== s.generation) {
      s.seeks.clear();
      s.seeksAt = s.generation;
    }
    const shape = JSON.stringify([req.filter ?? null, req.sort ?? null, req.search?.key ?? null]);
    const table = this.table();
    const counted = this.seekEntry(s, shape);
    counted.total ??= table.count(site, q);
    const from = req.offset > 0 ? s.seeks.get(`${req.offset}\u0000${shape}`)?.end : undefined;
    const { ids, end } = from ? table.page(site, q, { offset: 0, limit: req.limit, after: from }) : table.page(site, q, { offset: req.offset, limit: req.limit });
    if (end) this.seekEntry(s, `${req.offset + ids.length}\u0000${shape}`).end = end;
    return { items: ids.map((id) => this.getDoc(site, id)!), total: counted.total };
  }

  private seekEntry(s: SiteState<T>, key: string): { total?: number; end?: SeekPoint } {
    let e = s.seeks.get(key);
    if (!e) {
      if (s.seeks.size >= SEEK_ENTRIES) s.seeks.delete(s.seeks.keys().next().value as string);
      e = {};
      s.seeks.set(key, e);
    }
    return e;
  }

  /**
   * A page by a streamed scan: each document parsed, tested and dropped; only the matches' ids and sort keys
   * are kept, then the page's documents are read again by id. For filters and sorts on undeclared fields.
   */
  private scanPage(site: string, req: PageRequest<T>): { items: T[]; total: number } {
    const matched = this.scanIds(site, req);
    const items = matched.slice(req.offset, req.offset + req.limit).map((id) => this.getDoc(site, id)!);
    return { items, total: matched.length };
  }

  /** The ids of every match of `req` in its order, by a streamed scan (see {@link scanPage}). */
  private scanIds(site: string, req: Pick<PageRequest<T>, 'filter' | 'sort' | 'search'>): string[] {
    const accept = compileFilter(req.filter);
    const keys = (req.sort ?? []).map((sp) => ({ path: compilePath(sp.fieldName), sign: sp.order === 'DESC' ? -1 : 1 }));
    const matched: Array<{ id: string; k: SortKey[] }> = [];
    for (const doc of this.allDocs(site)) {
      if (!accept(doc) || (req.search && !req.search.test(doc))) continue;
      matched.push({ id: doc.id, k: keys.map((key) => sortKey(first(doc, key.path))) });
    }
    if (keys.length > 0) {
      matched.sort((a, b) => {
        for (let i = 0; i < keys.length; i++) {
          const c = compareKeys(a.k[i]!, b.k[i]!);
          if (c !== 0) return c * keys[i]!.sign;
        }
        return 0;
      });
    }
    return matched.map((m) => m.id);
  }

  /** @internal See {@link SiteCollection.matching}. */
  *matching(site: string, req: Pick<PageRequest<T>, 'filter' | 'sort' | 'search'>): IterableIterator<T> {
    const q = this.sqlOf(site, req);
    for (const id of q ? this.table().ids(site, q) : this.scanIds(site, req)) {
      if (this.resident) {
        const doc = this.state(site).docs.get(id);
        if (doc) yield doc;
        continue;
      }
      const text = this.store.rowDoc(this.def.kind, site, id);
      if (text !== undefined) yield JSON.parse(text) as T;
    }
  }

  /** @internal See {@link SiteCollection.matchingIds}. */
  matchingIds(site: string, filter: unknown, search?: PageRequest<T>['search']): string[] {
    const q = this.sqlOf(site, { filter, search });
    return q ? this.table().ids(site, q) : this.scanIds(site, { filter, search });
  }

  /** @internal */ memoOf(site: string): MatchMemo<T> {
    return this.state(site).memo;
  }

  /** @internal */ derivedOf<V>(site: string, key: string, compute: () => V): V {
    const s = this.state(site);
    if (s.derivedAt !== s.generation) {
      s.derived.clear();
      s.derivedAt = s.generation;
    }
    if (s.derived.has(key)) return s.derived.get(key) as V;
    const value = compute();
    s.derived.set(key, value);
    return value;
  }

  /** @internal See {@link SiteCollection.index}. */
  indexOf<V>(site: string, def: IndexDef<T, V>): V {
    const s = this.state(site);
    let entry = s.indexes.get(def.key);
    if (!entry) {
      entry = { def: def as IndexDef<T, unknown>, value: def.build(this.allDocs(site)) };
      s.indexes.set(def.key, entry);
    }
    return entry.value as V;
  }

  /** Tells every index of the site about one change (see {@link IndexDef.apply}); one that throws is dropped. */
  private applyIndexes(s: SiteState<T>, before: T | undefined, after: T | undefined): void {
    for (const [key, entry] of s.indexes) {
      try {
        entry.def.apply(entry.value, before, after);
      } catch {
        s.indexes.delete(key);
      }
    }
  }

  /** `JSON.stringify(doc)`, from the text kept when the document was stored or loaded. */
  jsonOf(doc: T): string {
    let text = this.json.get(doc);
    if (text === undefined) {
      text = JSON.stringify(doc);
      this.json.set(doc, text);
    }
    return text;
  }

  private changed(site: string): void {
    this.state(site).generation++;
  }

  /** @internal Stores `doc` in the cache and SQLite (insert or replace), and its query table row if any. */
  write(site: string, doc: T, isNew: boolean): void {
    const s = this.state(site);
    const before = s.indexes.size > 0 && !isNew ? this.getDoc(site, doc.id) : undefined;
    const text = JSON.stringify(doc);
    // The query table first: opened for the first time (after a reset swapped the file, say), it is rebuilt from
    // the documents, and must not find this one there already and then be given it again (a duplicate seq).
    const table = this.resident ? undefined : this.table();
    this.store.touch(this.def.kind, site, doc.id);
    const seq = isNew ? this.store.insertRow(this.def.kind, site, doc.id, text) : (this.store.updateRow(this.def.kind, site, doc.id, text), 0);
    this.json.set(doc, text);
    if (!table) s.docs.set(doc.id, doc);
    else {
      if (isNew) table.add(site, doc.id, seq, doc);
      else table.replace(site, doc.id, doc);
      this.cache.delete(`${site}\u0000${doc.id}`);
    }
    if (s.indexes.size > 0) this.applyIndexes(s, before, doc);
    this.changed(site);
  }

  /** @internal Removes `id` from the cache and SQLite. */
  remove(site: string, id: string): void {
    const s = this.state(site);
    const before = s.indexes.size > 0 ? this.getDoc(site, id) : undefined;
    const table = this.resident ? undefined : this.table();
    this.store.touch(this.def.kind, site, id);
    this.store.deleteRow(this.def.kind, site, id);
    if (!table) s.docs.delete(id);
    else {
      table.delete(site, id);
      this.cache.delete(`${site}\u0000${id}`);
    }
    if (before) this.applyIndexes(s, before, undefined);
    this.changed(site);
  }

  /**
   * @internal Puts the cache of `ids` back to what SQLite holds (after a rolled-back transaction). When a
   * document comes back that the cache had dropped, the site's map is rebuilt so creation order is kept.
   */
  reload(site: string, ids: Iterable<string>): void {
    if (!this.resident) {
      for (const id of ids) this.cache.delete(`${site}\u0000${id}`);
      // What the documents were before the rollback is not known here: the indexes are built again on next use.
      this.sites.get(site)?.indexes.clear();
      this.changed(site);
      return;
    }
    if (!this.loaded) return;
    const s = this.state(site);
    let reorder = false;
    for (const id of ids) {
      const text = this.store.rowDoc(this.def.kind, site, id);
      const before = s.docs.get(id);
      if (text === undefined) {
        s.docs.delete(id);
        if (before && s.indexes.size > 0) this.applyIndexes(s, before, undefined);
        continue;
      }
      const doc = JSON.parse(text) as T;
      this.json.set(doc, text);
      if (!before) reorder = true;
      s.docs.set(id, doc);
      if (s.indexes.size > 0) this.applyIndexes(s, before, doc);
    }
    if (reorder) {
      s.docs.clear();
      for (const row of this.store.rows(this.def.kind, site)) {
        const doc = JSON.parse(row.doc) as T;
        this.json.set(doc, row.doc);
        s.docs.set(doc.id, doc);
      }
    }
    this.changed(site);
  }

  /** @internal A queryable collection after a rolled-back transaction: drops its cache, every site changed. */
  forget(): void {
    this.cache.clear();
    for (const [site, s] of this.sites) {
      s.indexes.clear();
      this.changed(site);
    }
  }

  /** @internal Drops every cached document (after the store was cleared). */
  clear(): void {
    this.sites.clear();
    this.cache.clear();
    this.loaded = false;
  }
}
