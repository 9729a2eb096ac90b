/**
 * Every API family table, for what must see them all: the emulator's registry, the contract test that walks
 * every operation, and (later) the GraphQL schema. A command imports only its own family's module, never this
 * one, so it pays only for its own tables and schemas.
 */
import type { Family } from './family.js';
import { authenticationFamily, recoveryFamily, redirectsFamily, verificationFamily } from './auth/families.js';
import { availabilityFamily } from './availability.js';
import { bookingsFamily } from './bookings.js';
import { checkoutFamily } from './checkout.js';
import { extendedBookingsFamily } from './extended-bookings.js';
import { membersFamily } from './members.js';
import { multiServiceBookingsFamily } from './multi-service-bookings.js';
import { memberOrdersFamily, ordersFamily } from './orders.js';
import { plansFamily } from './plans.js';
import { servicesFamily } from './services.js';
import { sitesFamily } from './sites.js';
import { bookingPoliciesFamily, categoriesFamily } from './service-furniture.js';
import { staffMembersFamily } from './staff-members.js';
import { calendarEventsFamily } from './calendar-events.js';
import { attendanceFamily } from './attendance.js';
import { timeSlotsFamily } from './time-slots.js';
import { addOnsFamily, bookingsPricingFamily } from './add-ons.js';

export const FAMILIES: readonly Family[] = [sitesFamily, servicesFamily, staffMembersFamily, calendarEventsFamily, categoriesFamily, bookingPoliciesFamily, availabilityFamily, timeSlotsFamily, bookingsFamily, extendedBookingsFamily, multiServiceBookingsFamily, attendanceFamily, membersFamily, plansFamily, ordersFamily, memberOrdersFamily, checkoutFamily, redirectsFamily, authenticationFamily, recoveryFamily, verificationFamily, addOnsFamily, bookingsPricingFamily];
