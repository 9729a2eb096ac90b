/** The sign-in family as the emulator serves it (family.ts): sign-in: redirects, authentication, recovery and verification (the OAuth endpoints are oauth/http.ts). */
import type { EmulatedFamily } from '../family.js';
import { signInServed } from './handlers.js';
import { IDENTITY_COLLECTIONS } from './identity.js';

export const SIGN_IN: EmulatedFamily = {
  name: 'sign-in',
  served: signInServed,
  collections: IDENTITY_COLLECTIONS,
  seed: 'identities and sessions are made by signing up and signing in; the members are the members step\'s',
};
