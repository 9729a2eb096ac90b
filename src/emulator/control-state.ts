/**
 * What a handler of the control plane (/__emulator/...) is given: the running emulator's state, the request's
 * query, id and route parameters, and the parsed body. control.ts routes to the handlers; the families'
 * own control routes (oauth/control.ts, orders/payment.ts) are written against these types.
 */
import type { AdminKey } from './auth.js';
import type { EmulatedFamily } from './family.js';
import type { FaultInjector } from './faults.js';
import type { SeedOptions } from './seed/index.js';
import type { Store } from './store/store.js';

/** The running emulator as the control plane sees it. */
export interface ControlState {
  store: Store;
  faults: FaultInjector;
  dataDir: string;
  url: () => string;
  key: AdminKey;
  startedAt: string;
  /** The families served (families.ts): what a reset seeds and a new site is furnished with. */
  families: readonly EmulatedFamily[];
  /**
   * Resets the store by seeding a new file apart and switching to it (seed/in-file.ts `reseedApart`, given by
   * `startEmulator`); without it a reset clears and seeds the store in place.
   */
  reseed?: (opts: Required<SeedOptions>) => Promise<void>;
}

/** What a control handler gets besides the parsed body. */
export interface ControlRequest {
  query: URLSearchParams;
  requestId: string;
  /** Values of the route's `{name}` segments. */
  params: Record<string, string>;
  /** The site the request names (its `wix-site-id` header), if it names one. */
  siteId?: string;
}

// Control bodies are free-form JSON checked field by field by each handler.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Body = any;
/** One control route: the state, the parsed body, the request; returns the JSON reply (or a promise of it: a reset). */
export type ControlHandler = (emu: ControlState, body: Body, req: ControlRequest) => object | Promise<object>;
