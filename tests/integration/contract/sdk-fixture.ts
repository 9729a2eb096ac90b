/**
 * The one list of where the family tables and the official SDK's modules knowingly part
 * (docs/contracts.md "The official SDK as the reference"), read by `sdk-wire.test.ts`. Every entry has its reason;
 * an entry that no longer applies fails the test, so this file stays the truth.
 */
import type { SdkModule } from '../../helpers/sdk-meta.js';

/** The SDK module of each family table (null: the platform's SDK has no module for it among ours). */
export const FAMILY_MODULES: Record<string, SdkModule | null> = {
  sites: null,
  // Calendar Events v3 (working hours as WORKING_HOURS events): no @wix/auto_sdk_calendar_* module is among the
  // SDK packages this project can install; the table follows the platform's public REST reference.
  'calendar-events': null,
  services: 'bookings_services',
  'staff-members': 'bookings_staff-members',
  categories: 'bookings_categories-v-2',
  'booking-policies': 'bookings_booking-policies',
  availability: 'bookings_availability-calendar',
  'time-slots': 'bookings_availability-time-slots',
  bookings: 'bookings_bookings',
  'extended-bookings': 'bookings_extended-bookings',
  attendance: 'bookings_attendance',
  // The multi-service booking calls live on the bookings module (docs/wire.md §11).
  'multi-service-bookings': 'bookings_bookings',
  members: 'members_members',
  plans: 'pricing-plans_plans',
  // Management orders, member orders and plan checkout are one module: pricing-plans orders.
  orders: 'pricing-plans_orders',
  'member-orders': 'pricing-plans_orders',
  checkout: 'pricing-plans_orders',
  redirects: 'redirects_redirects',
  authentication: 'identity_authentication',
  recovery: 'identity_recovery',
  verification: 'identity_verification',
  // The Add-ons API and the Bookings Pricing API: no module among the SDK packages this project installs.
  'add-ons': null,
  'bookings-pricing': null,
};

/** Table operations the SDK names otherwise: `family.operation` -> the SDK's public method. */
export const SDK_NAMES: Record<string, string> = {
  // The module exports the singular query as `query` (meta `query`, path /v2/extended-booking/query).
  'extended-bookings.queryExtendedBooking': 'query',
};

/** Table operations without an SDK counterpart, and why they are in a table. */
export const OURS_ONLY: Record<string, string> = {
  'calendar-events.queryEvents': "Calendar Events v3 holds a staff member's working hours (`staff hours`); its SDK module is not among the packages available here, so the public REST reference is followed",
  'calendar-events.createEvent': "Calendar Events v3: a WORKING_HOURS event per day and range (`staff hours set`); no SDK module available here",
  'calendar-events.cancelEvent': "Calendar Events v3: a working-hours event removed (`staff hours set --off`, or hours replaced); no SDK module available here",
  'sites.querySites':
    'Sites v2 (account level, wix-account-id) has no module among the SDK packages of our families; docs/catalogue.md "Sites of an account" names the call and `services apply --to-site` needs it',
  'authentication.loginCallback':
    `GET /v1/callback, in the authentication table (docs/sign-in.md "Pieces"); the SDK's authentication module has no public method for it (its OAuth strategy ends sign-in in a browser frame instead)`,
  'authentication.verify':
    "docs/wire.md §22 names POST /v2/{factorType}/verify; the SDK's authentication module exposes no method for it (its flows verify through the verification module); `login` and `auth verify` send it for an SMS or CALL factor's code (docs/wire.md §22 'Sign-in factors')",
  'staff-members.restoreStaffMemberFromTrashBin':
    "the module types RestoreStaffMemberFromTrashBinRequest/Response but exports no method; the platform's REST reference names a POST (docs/wire.md §14 \"Staff search, count and the trash bin\": the path is assumed); `staff restore` and the undo of `staff delete` send it",
  'add-ons.createAddOn': 'the Add-ons API (/addons/v1/add-ons; docs/wire.md "Add-on groups and add-ons") has no module among the SDK packages available here; add-on groups hold its add-ons',
  'add-ons.queryAddOns': 'the Add-ons API: no module among the SDK packages available here; its request shape is assumed (docs/wire.md "Add-on groups and add-ons")',
  'add-ons.getAddOn': 'the Add-ons API: no module among the SDK packages available here (docs/wire.md "Add-on groups and add-ons")',
  'bookings-pricing.calculatePrice': 'the Bookings Pricing API: no module among the SDK packages available here; the price of a booking with add-ons (docs/wire.md "Add-on groups and add-ons")',
  'verification.resendDuringAuthentication':
    "docs/wire.md §22 names POST /v1/auth/resend; the SDK's verification module has no method for it (auth verify --resend uses it)",
};

/** SDK operations of these modules that no table has, and why: docs/wire.md §27 lists the same (sdk-only-doc.test.ts). */
export const SDK_ONLY: Record<string, string> = {
  'bookings_bookings.bookingsCancelBookingAnonymously': "a visitor's action through an e-mailed token, not a back office's (no wix-site-id mapping either: bare /v1 path)",
  'bookings_bookings.bookingsGetBookingAnonymously': "a visitor's action through an e-mailed token, not a back office's",
  'bookings_bookings.bookingsRescheduleBookingAnonymously': "a visitor's action through an e-mailed token, not a back office's",
  'bookings_bookings.cancelMultiServiceBookingAnonymously': "a visitor's action through an e-mailed token, not a back office's",
  'bookings_bookings.getAnonymousActionToken': 'mints the token of the anonymous actions above, which sitectl does not take',
  'bookings_bookings.getAnonymousActionTokenForMultiServiceBooking': 'mints the token of the anonymous actions above, which sitectl does not take',
  'bookings_bookings.getMultiServiceBookingAnonymously': "a visitor's action through an e-mailed token, not a back office's",
  'bookings_bookings.getServiceAnonymously': "a visitor's action through an e-mailed token, not a back office's",
  'bookings_bookings.setBookingSubmissionId': 'links a booking to a form submission of the site\'s booking form: no sitectl verb fills forms',
  'bookings_staff-members.bulkGetOrCreateStaffMembers': 'a bulk staff write: not served yet',
  'bookings_staff-members.bulkUpdateStaffMemberTags': 'staff tags: not part of the back office sitectl serves',
  'bookings_staff-members.bulkUpdateStaffMemberTagsByFilter': 'staff tags: not part of the back office sitectl serves',
  'bookings_staff-members.getOrCreateStaffMember': 'a staff member for a Wix user id: sitectl has no Wix users',
  'bookings_staff-members.queryStaffMembersV2': 'Staff Members v2: the tables follow v1, as the seed does',
  'bookings_staff-members.searchStaffMembersV2': 'Staff Members v2: the tables follow v1, as the seed does',
  'bookings_staff-members.setServiceProvider': 'service provider settings: not a back-office verb sitectl has',
  'identity_oauth.token':
    'the token endpoint is not a family table (no credentials, snake_case answers): src/api/auth/tokens.ts, its URL checked by the last test of sdk-wire.test.ts',
  'identity_oauth.tokenInfo': 'the token endpoint companion, src/api/auth/tokens.ts tokenInfo; its URL checked by the last test of sdk-wire.test.ts',
  'identity_oauth.jwks': 'sitectl does not verify tokens itself (the platform does); the emulator does not publish keys',
  'identity_oauth.userInfo': 'sitectl reads the signed-in member through members getCurrentMember; the emulator serves /oauth2/user-info outside the tables',
  'identity_authentication.validateEmail': 'not served yet; registration reports a bad address itself',
};

type Aspect = 'method' | 'url' | 'path' | 'request' | 'reply';

/** The identity replies' `mfaChallengeData`, which the module's public meta types leave out. */
const MFA_CHALLENGE_REPLY =
  "`mfaChallengeData`: the MFA_CHALLENGE answer of an SMS or CALL sign-in factor (docs/wire.md §22 'Sign-in factors'); the module's public typings mark it @internal and leave it out of the meta types, its internal build types it (StateMachineResponse.mfaChallengeData)";

/** Accepted differences of a table operation from its SDK counterpart: `family.operation` -> aspect -> reason. */
export const DIFFERENCES: Record<string, Partial<Record<Aspect, string>>> = {
  'services.updateService': {
    request:
      "`mask`: the module's typings leave field masks out, but its request serializer sends one (index.js updateService: transformSDKFieldMaskToRESTFieldMask on path `mask`)",
  },
  'services.bulkUpdateServicesByFilter': {
    request: "`mask`: left out of the typings, sent by the module's serializer (index.js bulkUpdateServicesByFilter, path `mask`)",
  },
  'services.updateAddOnGroup': {
    request: "`mask`: left out of the typings, sent by the module's serializer (index.js updateAddOnGroup: transformSDKFieldMaskToRESTFieldMask on path `mask`)",
  },
  'plans.updatePlan': {
    request: "`fieldMask`: left out of the typings, sent by the module's serializer (index.js updatePlan, path `fieldMask`)",
  },
  'authentication.registerV2': { reply: MFA_CHALLENGE_REPLY },
  'authentication.loginV2': { reply: MFA_CHALLENGE_REPLY },
  'verification.verifyDuringAuthentication': { reply: MFA_CHALLENGE_REPLY },
  // recover answers the same state reply (docs/wire.md §22); the emulator's recover itself always ends in SUCCESS.
  'recovery.recover': { reply: MFA_CHALLENGE_REPLY },
  'redirects.createRedirectSession': {
    request:
      "`membersAccount`: docs/wire.md §21 names the members account sections (ACCOUNT_INFO, BOOKINGS, ...); the SDK's typings have no such intent. sitectl never sends it; the emulator answers it with a placeholder page",
  },
};
