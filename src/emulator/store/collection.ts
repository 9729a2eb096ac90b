/**
 * A generic collection of one entity kind over the store's SQLite file (issue 5 section 2): ids, string
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
 */
import { ApplicationFailure, REVISION_MISMATCH_MESSAGE } from '../errors.js';
import { MatchMemo } from '../query/memo.js';

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
  insertRow(kind: string, site: string, id: string, doc: string): void;
  updateRow(kind: string, site: string, id: string, doc: string): void;
  deleteRow(kind: string, site: string, id: string): void;
  /** Marks a document changed in the current transaction (the cache is rolled back with it). */
  touch(kind: string, site: string, id: string): void;
  /** The id holding a unique value, if any. */
  uniqueOwner(kind: string, site: string, name: string, value: string): string | undefined;
  claimUnique(kind: string, site: string, name: string, value: string, id: string): void;
  releaseUnique(kind: string, site: string, name: string, value: string, id: string): void;
  releaseAllUniques(kind: string, site: string, id: string): void;
  /** Records a domain event; returns its sequence number. */
  appendEvent(site: string, type: string, entityId: string, entityJson: string): number;
  /** The emulator clock's now as an ISO string. */
  now(): string;
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

/** Per-site state of one collection. */
interface SiteState<T> {
  docs: Map<string, T>;
  generation: number;
  memo: MatchMemo<T>;
  view?: SiteCollection<T & Doc>;
  /** Values derived from every document (indexes), valid for `derivedAt` generation. */
  derived: Map<string, unknown>;
  derivedAt: number;
}

/** Returns `revision + 1` for the platform's int64-as-string revisions. */
export function nextRevision(revision: string | undefined): string {
  return revision && /^\d+$/.test(revision) ? (BigInt(revision) + 1n).toString() : '1';
}

/** HTTP 409, code REVISION_MISMATCH (platform-wire.md section 9): the caller's revision is not the stored one. */
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

  constructor(
    readonly def: CollectionDef<T>,
    readonly store: CollectionStore,
  ) {}

  private state(site: string): SiteState<T> {
    if (!this.loaded) this.load();
    let s = this.sites.get(site);
    if (!s) {
      const fresh: SiteState<T> = { docs: new Map(), generation: 0, memo: undefined as unknown as MatchMemo<T>, derived: new Map(), derivedAt: 0 };
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
    return this.state(site).docs;
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

  /** @internal Stores `doc` in the cache and SQLite (insert or replace). */
  write(site: string, doc: T, isNew: boolean): void {
    const text = JSON.stringify(doc);
    this.store.touch(this.def.kind, site, doc.id);
    if (isNew) this.store.insertRow(this.def.kind, site, doc.id, text);
    else this.store.updateRow(this.def.kind, site, doc.id, text);
    this.json.set(doc, text);
    this.state(site).docs.set(doc.id, doc);
    this.changed(site);
  }

  /** @internal Removes `id` from the cache and SQLite. */
  remove(site: string, id: string): void {
    this.store.touch(this.def.kind, site, id);
    this.store.deleteRow(this.def.kind, site, id);
    this.state(site).docs.delete(id);
    this.changed(site);
  }

  /**
   * @internal Puts the cache of `ids` back to what SQLite holds (after a rolled-back transaction). When a
   * document comes back that the cache had dropped, the site's map is rebuilt so creation order is kept.
   */
  reload(site: string, ids: Iterable<string>): void {
    if (!this.loaded) return;
    const s = this.state(site);
    let reorder = false;
    for (const id of ids) {
      const text = this.store.rowDoc(this.def.kind, site, id);
      if (text === undefined) {
        s.docs.delete(id);
        continue;
      }
      const doc = JSON.parse(text) as T;
      this.json.set(doc, text);
      if (!s.docs.has(id)) reorder = true;
      s.docs.set(id, doc);
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

  /** @internal Drops every cached document (after the store was cleared). */
  clear(): void {
    this.sites.clear();
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
    return this.collection.docsOf(this.site).get(id);
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

  /** Every document of the site in creation order. Do not mutate them. */
  all(): IterableIterator<T> {
    return this.collection.docsOf(this.site).values();
  }

  get size(): number {
    return this.collection.docsOf(this.site).size;
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
        if (before.has(value)) continue;
        const owner = this.owner(unique.name, value);
        if (owner !== undefined && owner !== doc.id) {
          throw new ApplicationFailure(409, unique.code, `${unique.what} "${value}" is already used by another ${this.def.entity}`, {
            [unique.name]: value,
          });
        }
        this.store.claimUnique(this.def.kind, this.site, unique.name, value, doc.id);
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
    if (this.get(doc.id)) throw new ApplicationFailure(409, 'ALREADY_EXISTS', `${this.def.entity} ${doc.id} already exists`, { id: doc.id });
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
