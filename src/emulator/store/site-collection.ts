/**
 * A collection seen from one site (store/collection.ts's module comment): what handlers read and write, with
 * revisions, unique keys and events; and the platform's revision rule (docs/wire.md §9).
 */
import { ApplicationFailure, REVISION_MISMATCH_MESSAGE } from '../errors.js';
import type { MatchMemo } from '../query/memo.js';
import type { CollectionDef, CollectionStore, Doc, IndexDef, PageRequest, WriteOptions } from './collection-types.js';

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

/**
 * What a site's view needs of the collection across sites (store/collection.ts's Collection is the one
 * implementation; declared here so that module imports this one and not the other way round).
 */
export interface CollectionCore<T extends Doc> {
  readonly def: CollectionDef<T>;
  readonly store: CollectionStore;
  getDoc(site: string, id: string): T | undefined;
  allDocs(site: string): IterableIterator<T>;
  sizeOf(site: string): number;
  page(site: string, req: PageRequest<T>): { items: T[]; total: number };
  matching(site: string, req: Pick<PageRequest<T>, 'filter' | 'sort' | 'search'>): IterableIterator<T>;
  matchingIds(site: string, filter: unknown, search?: PageRequest<T>['search']): string[];
  memoOf(site: string): MatchMemo<T>;
  derivedOf<V>(site: string, key: string, compute: () => V): V;
  indexOf<V>(site: string, def: IndexDef<T, V>): V;
  jsonOf(doc: T): string;
  write(site: string, doc: T, isNew: boolean): void;
  remove(site: string, id: string): void;
}

/**
 * A collection seen from one site: what handlers use. Reads are from memory; writes go to SQLite inside the
 * store's current transaction and keep the cache coherent (see store.ts).
 */
export class SiteCollection<T extends Doc> {
  constructor(
    private readonly collection: CollectionCore<T>,
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
