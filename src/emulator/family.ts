/**
 * One family of the platform as the emulator serves it (docs/architecture.md "The emulator"): each family's folder
 * declares it in its `family.ts`: the operations it serves (each with who may call it, serve.ts `serve`), the
 * collections it stores and its step of the demo seed. `families.ts` lists them once; the server's routes, the
 * store's collections and the seed are all read from that list.
 */
import type { Prng } from './seed/random.js';
import type { ServedOperation } from './serve.js';
import type { CollectionDef, Doc } from './store/collection.js';
import type { Store } from './store/store.js';

/** What a family's seed step is given, for one site. */
export interface SeedStep {
  store: Store;
  site: string;
  /** The account's default site: the demo's services, bookings, members, plans and orders go there only. */
  main: boolean;
  kind: 'demo' | 'empty';
  /** The seed hour (epoch ms, on the hour): every time of the demo is an offset from it. */
  base: number;
  /** How many of each the step makes on this site (0 on a site other than the default). */
  counts: { services: number; bookings: number; staff: number; members: number };
  /** The account (the actor of seeded bookings). */
  actor: string;
  /** The site's random sequence, shared by the steps in the order of the list: the same options give the same demo. */
  rnd: Prng;
  /** What the steps before made on this site, by collection kind, in the order made (the staff of the services). */
  made: Map<string, Doc[]>;
  /** Where the bookings go: days either side of the seed hour (default: seed/bookings.ts), a busy next week. */
  bookings?: { windowDays?: number; busyWeek?: boolean };
  /** Told how a long seed goes, a line at a time (`bookings 40,000 of 100,000`). */
  progress?: (line: string) => void;
}

/** One family, as its folder declares it. */
export interface EmulatedFamily {
  /** Its folder's name (`staff`, `bookings`, `sign-in`...). */
  name: string;
  /** Every operation it serves. */
  served: readonly ServedOperation[];
  /** What it stores, declared to the store at start (so counts list them even when empty). */
  // Collections of different document types in one list: the store takes each as its declaration types it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  collections: ReadonlyArray<CollectionDef<any>>;
  /** Its step of the demo seed, or why it has none (what it serves is made by another family's step, or by use). */
  seed: ((step: SeedStep) => void) | string;
}
