/**
 * The nouns with their loaders (commands/noun-list.ts holds the headers): the program lists every noun from its
 * header and imports the body of the one that runs. Only the program imports this module; a noun that runs other
 * nouns (`browse`) gets the list through its Invocation, so no noun's module closes a cycle back to itself.
 */
import { type LoadableNoun, NOUN_HEADERS, type NounModule } from './noun-list.js';

const LOADERS: Record<string, () => Promise<NounModule>> = {
  services: () => import('./services/index.js'),
  availability: () => import('./availability/index.js'),
  bookings: () => import('./bookings/index.js'),
  msb: () => import('./msb/index.js'),
  staff: () => import('./staff/index.js'),
  attendance: () => import('./attendance/index.js'),
  members: () => import('./members/index.js'),
  plans: () => import('./plans/index.js'),
  orders: () => import('./orders/index.js'),
  checkout: () => import('./checkout/index.js'),
  browse: () => import('./browse/index.js'),
  dashboard: () => import('./dashboard/index.js'),
  events: () => import('./events/index.js'),
  history: () => import('./history/index.js'),
  undo: () => import('./undo/index.js'),
  sites: () => import('./sites/index.js'),
  api: () => import('./api/index.js'),
  profile: () => import('./profile/index.js'),
  login: () => import('./login/index.js'),
  logout: () => import('./logout/index.js'),
  auth: () => import('./auth/index.js'),
  emulator: () => import('./emulator/index.js'),
};

/** Every noun, in help's order, with the loader of its body. */
export const NOUNS: readonly LoadableNoun[] = NOUN_HEADERS.map((h) => {
  const load = LOADERS[h.name];
  if (!load) throw new Error(`noun ${h.name} has no loader in commands/nouns.ts`);
  return { ...h, load };
});
