/**
 * The declarations a collection is made of and the shapes its two sides share (store/collection.ts, the
 * collection across sites; store/site-collection.ts, one site's view handlers use): documents, unique keys,
 * indexes, what a collection needs of its store, and a page request. See collection.ts's module comment.
 */
import type { QueryableDef, QueryTable } from './query-table.js';

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
