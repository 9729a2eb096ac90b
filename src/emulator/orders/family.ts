/** The orders family as the emulator serves it (family.ts): orders, member orders and checkout. */
import type { EmulatedFamily } from '../family.js';
import { checkoutServed, memberOrdersServed, ordersServed } from './handlers.js';
import { ORDER_COLLECTIONS } from './model.js';
import { seedOrdersStep } from '../seed/orders.js';

export const ORDERS_FAMILY: EmulatedFamily = {
  name: 'orders',
  served: [...ordersServed, ...memberOrdersServed, ...checkoutServed],
  collections: ORDER_COLLECTIONS,
  seed: seedOrdersStep,
};
