/** The bookings family as the emulator serves it (family.ts): bookings, availability, time slots, extended bookings and multi-service bookings. */
import type { EmulatedFamily } from '../family.js';
import { availabilityServed, bookingsServed, extendedBookingsServed, multiServiceBookingsServed } from './handlers.js';
import { BOOKING_COLLECTIONS } from './model.js';
import { timeSlotsServed } from './time-slots.js';
import { bookingsPricingServed } from './pricing.js';
import { seedBookingsStep } from '../seed/bookings.js';

export const BOOKINGS_FAMILY: EmulatedFamily = {
  name: 'bookings',
  served: [...availabilityServed, ...timeSlotsServed, ...bookingsServed, ...extendedBookingsServed, ...multiServiceBookingsServed, ...bookingsPricingServed],
  collections: BOOKING_COLLECTIONS,
  seed: seedBookingsStep,
};
