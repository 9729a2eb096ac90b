/**
 * Every family the emulator serves, once (family.ts): the server's routes, the store's collections and the demo
 * seed are read from this list, and nothing else names a family. The order is the seed's: each step may use what
 * the steps before it made on the site (the services their staff, the bookings their services, the orders their
 * members), and the steps share one random sequence per site in this order.
 */
import type { EmulatedFamily } from './family.js';
import { ATTENDANCE_FAMILY } from './attendance/family.js';
import { BOOKINGS_FAMILY } from './bookings/family.js';
import { MEMBERS_FAMILY } from './members/family.js';
import { SIGN_IN } from './oauth/family.js';
import { ORDERS_FAMILY } from './orders/family.js';
import { PLANS_FAMILY } from './plans/family.js';
import { SERVICES_FAMILY } from './services/family.js';
import { SITES } from './sites/family.js';
import { STAFF_FAMILY } from './staff/family.js';

export const FAMILIES: readonly EmulatedFamily[] = [SITES, STAFF_FAMILY, SERVICES_FAMILY, BOOKINGS_FAMILY, ATTENDANCE_FAMILY, MEMBERS_FAMILY, PLANS_FAMILY, ORDERS_FAMILY, SIGN_IN];
