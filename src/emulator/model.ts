/**
 * Shapes the emulator stores, in wire form (platform-wire.md section 8; spec 000 section 3). Documents are
 * kept exactly as they are sent: ISO date strings, string revisions, money values as decimal strings.
 */
import {
  LocationTypeValues,
  RateTypeValues,
  RemovedLocationSessionsActionValues,
  ServiceTypeValues,
} from '../api/schemas/service.js';

/** Collections kept in the generic `entities` table. */
export type EntityKind = 'businessLocations' | 'staffMembers' | 'categories' | 'bookingPolicies' | 'bookingForms';

export const SERVICE_TYPES = ServiceTypeValues;
/** Spec 000 section 3 lists FIXED, CUSTOM, VARIED, NO_FEE; the wire also carries SUBSCRIPTION. */
export const RATE_TYPES = [...RateTypeValues, 'SUBSCRIPTION'] as const;
export const LOCATION_TYPES = LocationTypeValues;
export const REMOVED_LOCATION_SESSION_ACTIONS = RemovedLocationSessionsActionValues;

export interface Money {
  value: string;
  currency: string;
  formattedValue?: string;
}

export interface Address {
  formatted?: string;
  streetAddress?: { number?: string; name?: string };
  city?: string;
  subdivision?: string;
  country?: string;
  postalCode?: string;
  geocode?: { latitude: number; longitude: number };
}

export interface ServiceLocation {
  id?: string;
  type: (typeof LOCATION_TYPES)[number];
  business?: { id: string; name?: string; default?: boolean; address?: Address };
  custom?: { id?: string; address?: Address };
  calculatedAddress?: Address;
}

export interface Slug {
  name: string;
  custom?: boolean;
  createdDate: string;
}

/** A service document. Fields beyond these are kept as sent. */
export interface ServiceDoc {
  id: string;
  type: (typeof SERVICE_TYPES)[number];
  name: string;
  revision: string;
  createdDate: string;
  updatedDate: string;
  mainSlug?: Slug;
  supportedSlugs?: Slug[];
  locations?: ServiceLocation[];
  payment?: {
    rateType?: string;
    fixed?: { price?: Money };
    options?: { online?: boolean; inPerson?: boolean; deposit?: boolean; pricingPlan?: boolean };
    pricingPlanIds?: string[];
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
