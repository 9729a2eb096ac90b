/** The plans family as the emulator serves it (family.ts): pricing plans (a visitor reads the public ones). */
import type { EmulatedFamily } from '../family.js';
import { plansServed } from './handlers.js';
import { PLAN_COLLECTIONS } from './model.js';

export const PLANS_FAMILY: EmulatedFamily = {
  name: 'plans',
  served: plansServed,
  collections: PLAN_COLLECTIONS,
  seed: 'the orders step makes the plans with the orders that buy them, from one random sequence (seed/orders.ts)',
};
