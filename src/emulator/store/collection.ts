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
 */
import { ApplicationFailure, REVISION_MISMATCH_MESSAGE } from '../errors.js';
import { compileFilter } from '../query/filter.js';
import { MatchMemo } from '../query/memo.js';
import { translateQuery, type SqlQuery } from '../query/sql.js';
import { compareKeys, compilePath, first, sortKey, type SortKey } from '../query/values.js';
import type { QueryableDef, QueryTable, SeekPoint } from './query-table.js';

/** What every stored document has. Revision and dates are filled in by the collection. */
export interface Doc {
  id: string;
  revision?: string;
  createdDate?: string;
  updatedDate?: string;
}

/** A unique key: each value may belong to one document of the site (e.g. a service's slugs). */
export interface UniqueDef<T> {
  name: string;
  /** The values this document holds (all of them count: a service keeps its past slugs). */
  values(doc: T): readonly string[];
  /** The application error code when a value is taken (409). */
  code: string;
  /** Words for the error: `slug "yoga" is already used by another service`. */
  what: string;
}

/** A collection's declaration. */
export interface CollectionDef<T extends Doc> {
  /** The key in the store, e.g. `services`. */
  kind: string;
  /** The entity's name in events and messages, e.g. `service` (events are `service.created`, ...). */
  entity: string;
  /** The application error code of a missing id, e.g. `SERVICE_NOT_FOUND`. */
  notFound: string;
  uniques?: readonly UniqueDef<T>[];
  /** Revisions and updatedDate maintained by the collection (default true). */
  revisioned?: boolean;
  /**
   * Fields queried in SQLite: the collection is then not kept in memory (see the module comment). Filters and
   * sorts on other fields still work, by a streamed scan.
   */
  queryable?: QueryableDef;
  /** Phantom: carries the document type. */
  readonly _type?: T;
}

/**
 * What a collection needs of the store that holds it (store.ts's Store is the one implementation): its SQLite
 * rows, the unique-value claims, the change marks, the event log and the clock. Declared here so the store
 * imports the collection and not the other way round.
 */
export interface CollectionStore {
  /** Every stored row of a kind (of one site, when given). */
  rows(kind: string, site?: string): IterableIterator<{ site: string; doc: string }>;
  rowDoc(kind: string, site: string, id: string): string | undefined;
  /** Returns the new row's `seq` (creation order). */
  insertRow(kind: string, site: string, id: string, doc: string): number;
  /** How many documents of a kind a site holds. */
  countRows(kind: string, site: string): number;
  /** The query table of a queryable kind. */
  queryTable(kind: string, def: QueryableDef): QueryTable;
  updateRow(kind: string, site: string, id: string, doc: string): void;
  deleteRow(kind: string, site: string, id: string): void;
  /** Marks a document changed in the current transaction (the cache is rolled back with it). */
  touch(kind: string, site: string, id: string): void;
  /** The id holding a unique value, if any. */
  uniqueOwner(kind: string, site: string, name: string, value: string): string | undefined;
  /** Claims a value for `id` when no document holds it; returns false (nothing changed) when one does. */
  claimUnique(kind: string, site: string, name: string, value: string, id: string): boolean;
  releaseUnique(kind: string, site: string, name: string, value: string, id: string): void;
  releaseAllUniques(kind: string, site: string, id: string): void;
  /** Records a domain event; returns its sequence number. */
  appendEvent(site: string, type: string, entityId: string, entityJson: string): number;
  /** The emulator clock's now as an ISO string. */
  now(): string;
  /** Inside a bulk load (a seed): an insert leaves a taken id to the table's primary key. */
  readonly bulkLoading: boolean;
}

/** Declares a collection (a typed constant; the store instantiates it). */
export function defineCollection<T extends Doc>(def: CollectionDef<T>): CollectionDef<T> {
  return def;
}

/** Options of a write. */
export interface WriteOptions {
  /** The event type to record instead of the default (`booking.confirmed` rather than `booking.updated`); `false` for none. */
  event?: string | false;
}

/**
 * An index over one site's documents kept in step with its writes (see {@link SiteCollection.index}): built once
 * from every document, then told of each change (insert, update, delete, and what a rolled-back transaction puts
 * back) instead of being built again.
 */
export interface IndexDef<T, V> {
  /** Names the index among the collection's (one value per site and key). */
  key: string;
  /** The index of `docs`: every document of the site, in creation order. */
  build(docs: Iterable<T>): V;
  /**
   * Brings `index` up to date with one change: `before` is the document as the index last saw it (undefined for
   * an insert), `after` the one stored now (undefined for a delete). Must not throw: an index whose update threw
   * is dropped and built again on its next use.
   */
  apply(index: V, before: T | undefined, after: T | undefined): void;
}

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

/** A sort as the wire sends it (already validated by compileSort). */
export interface SortSpec {
  fieldName: string;
  order?: string;
}

/**
 * One page of a query (see {@link SiteCollection.page}). `search` is a further predicate on the document (the
 * members' free-text search): the fields it reads, the test, a key naming it among queries, and when the test
 * is "every one of `words` (with `any`: one of them) appears in the lower-case text of one of the fields", the
 * words (then it runs in SQL).
 */
export interface PageRequest<T> {
  filter?: unknown;
  sort?: readonly SortSpec[];
  offset: number;
  limit: number;
  search?: { fields: readonly string[]; test: (doc: T) => boolean; key: string; words?: readonly string[]; any?: boolean };
}

/** Documents parsed and kept by a queryable collection (most recently read last). */
const CACHE_SIZE = 2000;
/** Queries whose totals and page ends a queryable collection remembers per site. */
const SEEK_ENTRIES = 64;

/** Returns `revision + 1` for the platform's int64-as-string revisions. */
export function nextRevision(revision: string | undefined): string {
  return revision && /^\d+$/.test(revision) ? (BigInt(revision) + 1n).toString() : '1';
}

/** HTTP 409, code REVISION_MISMATCH (docs/wire.md §9): the caller's revision is not the stored one. */
export function revisionMismatch(id: string, requested: string, current: string | undefined): ApplicationFailure {
  return new ApplicationFailure(409, 'REVISION_MISMATCH', REVISION_MISMATCH_MESSAGE, {
    id,
    requestedRevision: requested,
    currentRevision: current,
  });
}

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

/**
 * A collection seen from one site: what handlers use. Reads are from memory; writes go to SQLite inside the
 * store's current transaction and keep the cache coherent (see store.ts).
 */
export class SiteCollection<T extends Doc> {
  constructor(
    private readonly collection: Collection<T>,
    readonly site: string,
  ) {}

  private get def(): CollectionDef<T> {
    return this.collection.def;
  }

  private get store(): CollectionStore {
    return this.collection.store;
  }

  /** The document, or undefined. Do not mutate it: build a copy and {@link update} it. */
  get(id: string): T | undefined {
    return this.collection.getDoc(this.site, id);
  }

  /**
   * The document, or the platform's not-found error.
   * @throws ApplicationFailure 404 with the collection's `notFound` code
   */
  require(id: unknown): T {
    const doc = typeof id === 'string' ? this.get(id) : undefined;
    if (!doc) throw new ApplicationFailure(404, this.def.notFound, `${this.def.entity} ${String(id)} was not found`, { id });
    return doc;
  }

  /**
   * Every document of the site in creation order. Do not mutate them. A queryable collection parses them one at
   * a time as the iteration goes: do not keep them all (use {@link page} or {@link matchingIds}).
   */
  all(): IterableIterator<T> {
    return this.collection.allDocs(this.site);
  }

  get size(): number {
    return this.collection.sizeOf(this.site);
  }

  /**
   * One page of the documents matching `filter` (and `search`), sorted by `sort` (ties, and no sort, in creation
   * order), `limit` of them from `offset`; `total` counts every match. A queryable collection runs it in SQL
   * (query/sql.ts; only the page is parsed) and remembers where each page ended, so the next page of the same
   * query seeks there instead of skipping `offset` rows; a filter or sort on an undeclared field, or a site
   * holding an irregular document, scans (one document parsed at a time, only the matches' ids and sort keys
   * kept). `filter` and `sort` must have been validated (compileFilter, compileSort).
   * @throws ValidationFailure only as the filter evaluator does (a range comparing a date with text)
   */
  page(req: PageRequest<T>): { items: T[]; total: number } {
    return this.collection.page(this.site, req);
  }

  /**
   * Every document matching `req.filter` (and `req.search`) in `req.sort`'s order (ties, and no sort, in creation
   * order): the matches' ids are found first (in SQL, or by a streamed scan as {@link page}), then each document
   * is read and parsed as the iteration reaches it and not kept (a search's aggregations over every match).
   * Do not write to the collection while iterating.
   */
  matching(req: Pick<PageRequest<T>, 'filter' | 'sort' | 'search'>): IterableIterator<T> {
    return this.collection.matching(this.site, req);
  }

  /** The ids of every document matching `filter` (and `search`), in creation order (by-filter jobs). */
  matchingIds(filter: unknown, search?: PageRequest<T>['search']): string[] {
    return this.collection.matchingIds(this.site, filter, search);
  }

  /** Memo of query matches over {@link all}, valid until the next write to this site's documents. */
  get memo(): MatchMemo<T> {
    return this.collection.memoOf(this.site);
  }

  /**
   * A value computed from the site's documents (an index by staff member, by session), kept until the next
   * write to them: `compute` runs again only after a change. The value is shared: never mutate it.
   */
  derived<V>(key: string, compute: () => V): V {
    return this.collection.derivedOf(this.site, key, compute);
  }

  /**
   * An index of the site's documents maintained write by write (see {@link IndexDef}): `def.build` runs on first
   * use (and again only after the index was dropped: an `apply` that threw, a rolled-back transaction on a
   * queryable collection, a cleared store); each insert, update and delete of this site, and each document a
   * rolled-back transaction puts back, goes through `def.apply`. Unlike {@link derived} it survives writes, so a
   * large site pays for one change, not for every document, per write. The value is shared and only `apply`
   * may change it.
   */
  index<V>(def: IndexDef<T, V>): V {
    return this.collection.indexOf(this.site, def);
  }

  /** `JSON.stringify(doc)` from the stored text (same bytes): for replies and events without re-serialising. */
  json(doc: T): string {
    return this.collection.jsonOf(doc);
  }

  /** The id of the document holding `value` under unique key `name`, or undefined. */
  owner(name: string, value: string): string | undefined {
    return this.store.uniqueOwner(this.def.kind, this.site, name, value);
  }

  private claim(doc: T, previous: T | undefined): void {
    for (const unique of this.def.uniques ?? []) {
      const before = new Set(previous ? unique.values(previous) : []);
      const after = new Set(unique.values(doc));
      for (const value of after) {
        if (before.has(value) || this.store.claimUnique(this.def.kind, this.site, unique.name, value, doc.id)) continue;
        if (this.owner(unique.name, value) !== doc.id) {
          throw new ApplicationFailure(409, unique.code, `${unique.what} "${value}" is already used by another ${this.def.entity}`, {
            [unique.name]: value,
          });
        }
      }
      for (const value of before) if (!after.has(value)) this.store.releaseUnique(this.def.kind, this.site, unique.name, value, doc.id);
    }
  }

  private event(type: string | false | undefined, fallback: string, doc: T): void {
    if (type === false) return;
    this.store.appendEvent(this.site, type ?? `${this.def.entity}.${fallback}`, doc.id, this.collection.jsonOf(doc));
  }

  /**
   * Stores a new document: revision "1" and createdDate/updatedDate = now (a createdDate already set, as the
   * seed sets it, is kept), unique keys claimed, `<entity>.created` recorded.
   * @returns the stored document (do not mutate it)
   * @throws ApplicationFailure 409 when the id exists or a unique value is taken
   */
  insert(doc: T, opts: WriteOptions = {}): T {
    if (!this.store.bulkLoading && this.get(doc.id)) throw new ApplicationFailure(409, 'ALREADY_EXISTS', `${this.def.entity} ${doc.id} already exists`, { id: doc.id });
    const now = this.store.now();
    const stored = (this.def.revisioned === false
      ? { ...doc }
      : { ...doc, revision: '1', createdDate: doc.createdDate ?? now, updatedDate: doc.updatedDate ?? doc.createdDate ?? now }) as T;
    this.claim(stored, undefined);
    this.collection.write(this.site, stored, true);
    this.event(opts.event, 'created', stored);
    return stored;
  }

  /**
   * Replaces a stored document with `next` (same id): when `expectedRevision` is given it must equal the
   * stored revision, else 409 REVISION_MISMATCH and nothing changes; the revision goes up by one and
   * updatedDate becomes now; unique keys follow; `<entity>.updated` (or `opts.event`) is recorded.
   * @returns the stored document (do not mutate it)
   * @throws ApplicationFailure 404 (unknown id), 409 (stale revision or a unique value taken)
   */
  update(next: T, opts: WriteOptions & { expectedRevision?: string } = {}): T {
    const current = this.require(next.id);
    if (opts.expectedRevision !== undefined && opts.expectedRevision !== current.revision) {
      throw revisionMismatch(current.id, opts.expectedRevision, current.revision);
    }
    const stored = (this.def.revisioned === false
      ? { ...next }
      : { ...next, revision: nextRevision(current.revision), createdDate: current.createdDate, updatedDate: this.store.now() }) as T;
    this.claim(stored, current);
    this.collection.write(this.site, stored, false);
    this.event(opts.event, 'updated', stored);
    return stored;
  }

  /**
   * Deletes a document (its unique values are released); `<entity>.deleted` is recorded with the last state.
   * @returns the deleted document
   * @throws ApplicationFailure 404 (unknown id), 409 (stale `expectedRevision`)
   */
  delete(id: string, opts: WriteOptions & { expectedRevision?: string } = {}): T {
    const current = this.require(id);
    if (opts.expectedRevision !== undefined && opts.expectedRevision !== current.revision) {
      throw revisionMismatch(id, opts.expectedRevision, current.revision);
    }
    this.store.releaseAllUniques(this.def.kind, this.site, id);
    this.collection.remove(this.site, id);
    this.event(opts.event, 'deleted', current);
    return current;
  }
}
