/** The services family as the emulator serves it (family.ts): services and the furniture they refer to (categories, booking policies; locations and forms are stored here too). */
import type { EmulatedFamily } from '../family.js';
import { addOnsServed } from './add-ons.js';
import { bookingPoliciesServed, categoriesServed } from './furniture.js';
import { servicesServed } from './handlers.js';
import { SERVICE_COLLECTIONS } from './model.js';
import { seedServices } from '../seed/services.js';

export const SERVICES_FAMILY: EmulatedFamily = {
  name: 'services',
  served: [...servicesServed, ...categoriesServed, ...bookingPoliciesServed, ...addOnsServed],
  collections: SERVICE_COLLECTIONS,
  seed: seedServices,
};
