/** The bookings family as the emulator serves it (family.ts): bookings, availability, extended bookings and multi-service bookings. */
import type { EmulatedFamily } from '../family.js';
import { availabilityServed, bookingsServed, extendedBookingsServed, multiServiceBookingsServed } from './handlers.js';
import { BOOKING_COLLECTIONS } from './model.js';
import { bookingsPricingServed } from './pricing.js';
import { seedBookingsStep } from '../seed/bookings.js';

export const BOOKINGS_FAMILY: EmulatedFamily = {
  name: 'bookings',
  served: [...availabilityServed, ...bookingsServed, ...extendedBookingsServed, ...multiServiceBookingsServed, ...bookingsPricingServed],
  collections: BOOKING_COLLECTIONS,
  seed: seedBookingsStep,
};
