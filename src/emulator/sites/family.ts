/** The sites family as the emulator serves it (family.ts): the account's sites (the store's own table, listed in the admin key). */
import type { EmulatedFamily } from '../family.js';
import { sitesServed } from './handlers.js';

export const SITES: EmulatedFamily = {
  name: 'sites',
  served: sitesServed,
  collections: [],
  seed: 'the account\'s sites come from its admin key, and are added before any family seeds',
};
