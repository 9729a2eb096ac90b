/**
 * One example request per operation of every family table, for the contract test. An example may create what
 * it needs first (a fresh service to delete or clone), so every route of a mutating operation is tried on an
 * entity of its own. An operation without an example fails the contract test: adding an operation means adding
 * its example here.
 */
import { challengeOf, createVerifier } from '../../../src/api/auth/pkce.js';
import { availability } from '../../../src/api/availability.js';
import { bookings } from '../../../src/api/bookings.js';
import { ApiClient } from '../../../src/api/client.js';
import { checkout } from '../../../src/api/checkout.js';
import { orders } from '../../../src/api/orders.js';
import { plans } from '../../../src/api/plans.js';
import { members } from '../../../src/api/members.js';
import { multiServiceBookings } from '../../../src/api/multi-service-bookings.js';
import { services } from '../../../src/api/services.js';
import { addOns } from '../../../src/api/add-ons.js';
import { staffMembers } from '../../../src/api/staff-members.js';
import { attendance } from '../../../src/api/attendance.js';
import { bookingPolicies, categories } from '../../../src/api/service-furniture.js';
import { calendarEvents } from '../../../src/api/calendar-events.js';
import { runInProcess, type TestEmulator } from '../../helpers/index.js';
import { makeStudio, type Studio } from '../../helpers/studio.js';

/** What examples can draw on: a client of the test emulator and ids of its demo data. */
export interface Fixtures {
  api: ApiClient;
  emu: TestEmulator;
  /** A service created for this call alone. */
  freshService(): Promise<{ id: string; revision: string }>;
  /**
   * A bookable appointment slot no other example has used (wire form, as the availability query gives it), of the
   * fixtures' own studio (tests/helpers/studio.ts): one exists at any hour, and no other booking takes it.
   */
  freeSlot(): Promise<Record<string, unknown>>;
  /** Two back-to-back bookable slots of the studio's appointment (wire form) no other example has used. */
  freeChain(): Promise<Array<Record<string, unknown>>>;
  /** A CREATED appointment booking made for this call alone. */
  freshBooking(): Promise<{ id: string; revision: string; slot: Record<string, unknown> }>;
  /** A multi-service booking of two back-to-back appointments made for this call alone. */
  freshGroup(): Promise<{ id: string; bookings: Array<{ id: string; revision: string }> }>;
  /** A course's schedule id. */
  courseScheduleId(): Promise<string>;
  /** An APPROVED member created for this call alone (a BLOCKED one when asked). */
  freshMember(status?: 'APPROVED' | 'BLOCKED'): Promise<{ id: string; slug: string }>;
  /** A public monthly plan (20 USD, 12 cycles) created for this call alone. */
  freshPlan(): Promise<{ id: string }>;
  /** An ACTIVE, unpaid offline order of a fresh plan by a fresh member, made for this call alone. */
  freshOrder(): Promise<{ id: string; endDate: string }>;
}

type Example = (fx: Fixtures) => Promise<Record<string, unknown>>;

/**
 * Operations that need a credential an API key is not (the "my" calls act on the member of a member token,
 * docs/wire.md §18, §20): with the API key the contract test sends they answer this refusal on every route, in the
 * platform's error envelope, and the contract test checks exactly that.
 */
export const REFUSALS: Record<string, Record<string, { status: number; code: string }>> = {
  members: {
    updateCurrentMemberSlug: { status: 401, code: 'UNAUTHENTICATED' },
    joinCommunity: { status: 401, code: 'UNAUTHENTICATED' },
    leaveCommunity: { status: 401, code: 'UNAUTHENTICATED' },
    getCurrentMember: { status: 401, code: 'UNAUTHENTICATED' },
    deleteMyMember: { status: 401, code: 'UNAUTHENTICATED' },
  },
  'member-orders': {
    memberGetOrder: { status: 401, code: 'UNAUTHENTICATED' },
    memberListOrders: { status: 401, code: 'UNAUTHENTICATED' },
    requestCancellation: { status: 401, code: 'UNAUTHENTICATED' },
  },
  checkout: {
    getOnlineOrderPreview: { status: 401, code: 'UNAUTHENTICATED' },
  },
  authentication: {
    changePassword: { status: 401, code: 'UNAUTHENTICATED' },
  },
  // Not a credential: end options are for services with an hourly duration range, which the emulator has none of
  // (docs/wire.md "Time slots"), so every service answers the module's END_OPTIONS_NOT_SUPPORTED.
  'time-slots': {
    listAvailabilityTimeSlotEndOptions: { status: 400, code: 'END_OPTIONS_NOT_SUPPORTED' },
  },
};

/** A booking policy created for one example. */
async function freshPolicy(fx: Fixtures) {
  const { bookingPolicy } = await bookingPolicies.createBookingPolicy(fx.api, { bookingPolicy: { name: `Policy ${unique()}` } });
  return bookingPolicy as typeof bookingPolicy & { id: string; revision: string };
}

/** A staff member created for one example (with its resource: schedule ids). */
async function freshStaff(fx: Fixtures) {
  const { staffMember } = await staffMembers.createStaffMember(fx.api, { staffMember: { name: `Staff ${unique()}`.slice(0, 40), email: `s${unique()}@example.com` }, fields: ['RESOURCE_DETAILS'] });
  return staffMember;
}

/** A staff member created and deleted for this call alone: in the trash bin. */
async function trashedStaff(fx: Fixtures) {
  const s = await freshStaff(fx);
  await staffMembers.deleteStaffMember(fx.api, { staffMemberId: s.id });
  return s;
}

/** A service category created for this call alone. */
async function freshCategory(fx: Fixtures) {
  return (await categories.createCategory(fx.api, { category: { name: `Category ${unique()}` } })).category;
}

/** A Monday working-hours event for a new staff member moved to hours of its own. */
async function ownHoursEvent(fx: Fixtures) {
  const s = await freshStaff(fx);
  const scheduleId = s.resource!.eventsSchedule!.id!;
  await staffMembers.assignCustomSchedule(fx.api, { staffMemberId: s.id, scheduleId });
  return { scheduleId, type: 'WORKING_HOURS', start: { localDate: '2030-01-07T09:00:00' }, end: { localDate: '2030-01-07T17:00:00' }, recurrenceRule: { frequency: 'WEEKLY' as const, days: ['MONDAY' as const] } };
}

/** An attendance set for one example, on a booking made for it. */
async function freshAttendance(fx: Fixtures) {
  const { attendance: made } = await attendance.setAttendance(fx.api, { attendance: { bookingId: (await fx.freshBooking()).id, status: 'ATTENDED', numberOfAttendees: 1 } });
  return made!;
}

/** A new identity registered with a password (through the admin key), its session token and e-mail. */
async function newIdentity(fx: Fixtures): Promise<{ email: string; password: string; identityId: string; sessionToken: string }> {
  const email = `contract-${unique()}@example.com`;
  const r = await fx.emu.request('POST', '/_api/iam/authentication/v2/register', { loginId: { email }, password: 'secret-pass' });
  if (r.status !== 200) throw new Error(`register: ${JSON.stringify(r.body)}`);
  return { email, password: 'secret-pass', identityId: r.body.identity.id, sessionToken: r.body.sessionToken };
}

/** A sign-in waiting for its e-mail code (the site's policy turned on for one registration), and the code. */
async function pendingVerification(fx: Fixtures): Promise<{ stateToken: string; code: string }> {
  await fx.emu.request('PUT', '/__emulator/auth-policy', { requireEmailVerification: true });
  try {
    const email = `verify-${unique()}@example.com`;
    const r = await fx.emu.request('POST', '/_api/iam/authentication/v2/register', { loginId: { email }, password: 'secret-pass' });
    const mail = await fx.emu.request('GET', `/__emulator/mail?to=${encodeURIComponent(email)}`);
    return { stateToken: r.body.stateToken, code: mail.body.mail.at(-1).code };
  } finally {
    await fx.emu.request('PUT', '/__emulator/auth-policy', { requireEmailVerification: false });
  }
}

/** A quantity add-on (5 USD, up to 3) made for this call alone. */
async function freshAddOn(fx: Fixtures): Promise<string> {
  const { addOn } = await addOns.createAddOn(fx.api, { addOn: { name: `Towel ${unique()}`, price: { value: '5', currency: 'USD' }, maxQuantity: 3 } });
  return addOn.id!;
}

/** A fresh service with one add-on group holding a fresh add-on. */
async function freshGroup(fx: Fixtures): Promise<{ serviceId: string; groupId: string; addOnId: string }> {
  const serviceId = (await fx.freshService()).id;
  const addOnId = await freshAddOn(fx);
  const { addOnGroup } = await services.createAddOnGroup(fx.api, { serviceId, addOnGroup: { name: 'Extras', addOnIds: [addOnId] } });
  return { serviceId, groupId: addOnGroup.id!, addOnId };
}

let n = 0;
const unique = () => `${Date.now().toString(36)}-${(n++).toString(36)}`;

export const EXAMPLES: Record<string, Record<string, Example>> = {
  sites: {
    querySites: async () => ({ query: { cursorPaging: { limit: 10 } } }),
  },
  categories: {
    createCategory: async () => ({ category: { name: `Contract ${unique()}` } }),
    queryCategories: async () => ({ query: { filter: { name: { $exists: true } }, cursorPaging: { limit: 5 } } }),
    getCategory: async (fx) => ({ categoryId: (await freshCategory(fx)).id }),
    updateCategory: async (fx) => {
      const c = await freshCategory(fx);
      return { category: { id: c.id, revision: c.revision!, name: `Renamed ${unique()}` } };
    },
    deleteCategory: async (fx) => ({ categoryId: (await freshCategory(fx)).id }),
    countCategories: async () => ({ filter: { name: { $exists: true } } }),
    moveCategory: async (fx) => ({ categoryId: (await freshCategory(fx)).id, position: 'FIRST' }),
  },
  'booking-policies': {
    createBookingPolicy: async () => ({ bookingPolicy: { name: `Contract ${unique()}`, limitEarlyBookingPolicy: { enabled: true, earliestBookingInMinutes: 60 } } }),
    getBookingPolicy: async (fx) => ({ bookingPolicyId: (await freshPolicy(fx)).id }),
    updateBookingPolicy: async (fx) => {
      const p = await freshPolicy(fx);
      return { bookingPolicy: { id: p.id, revision: p.revision, participantsPolicy: { maxParticipantsPerBooking: 2 } } };
    },
    deleteBookingPolicy: async (fx) => ({ bookingPolicyId: (await freshPolicy(fx)).id }),
    // The site's default already (a no-op on the platform too), so the other examples keep the seed's default rules.
    setDefaultBookingPolicy: async (fx) => {
      const { bookingPolicies: all } = await services.queryPolicies(fx.api, { query: { cursorPaging: { limit: 100 } } });
      return { bookingPolicyId: all.find((p) => p.bookingPolicy.default)!.bookingPolicy.id! };
    },
    queryBookingPolicies: async () => ({ query: { filter: { 'participantsPolicy.maxParticipantsPerBooking': { $gte: 1 } }, sort: [{ fieldName: 'name', order: 'ASC' }], cursorPaging: { limit: 5 } } }),
    countBookingPolicies: async () => ({ filter: { default: true } }),
    getStrictestBookingPolicy: async (fx) => ({ bookingPolicyIds: [(await freshPolicy(fx)).id, (await freshPolicy(fx)).id] }),
  },
  'staff-members': {
    queryStaffMembers: async () => ({ query: { filter: { name: { $exists: true } }, cursorPaging: { limit: 5 } } }),
    createStaffMember: async () => ({ staffMember: { name: `Contract ${unique()}`.slice(0, 40), email: `c${unique()}@example.com` }, fields: ['RESOURCE_DETAILS'] }),
    getStaffMember: async (fx) => ({ staffMemberId: (await freshStaff(fx)).id, fields: ['RESOURCE_DETAILS', 'ASSOCIATED_IDENTITY_STATUS'] }),
    updateStaffMember: async (fx) => {
      const s = await freshStaff(fx);
      return { staffMember: { id: s.id, revision: s.revision, description: 'contract' } };
    },
    deleteStaffMember: async (fx) => ({ staffMemberId: (await freshStaff(fx)).id }),
    countStaffMembers: async () => ({ filter: { name: { $exists: true } } }),
    countStaffMembersV2: async () => ({ filter: {} }),
    searchStaffMembers: async () => ({ search: { search: { expression: 'Staff' }, cursorPaging: { limit: 5 } }, fields: ['RESOURCE_DETAILS'] }),
    listDeletedStaffMembers: async (fx) => ({ staffMemberIds: [(await trashedStaff(fx)).id], paging: { limit: 5 } }),
    getDeletedStaffMember: async (fx) => ({ staffMemberId: (await trashedStaff(fx)).id }),
    removeStaffMemberFromTrashBin: async (fx) => ({ staffMemberId: (await trashedStaff(fx)).id }),
    restoreStaffMemberFromTrashBin: async (fx) => ({ staffMemberId: (await trashedStaff(fx)).id }),
    connectStaffMemberToUser: async (fx) => ({ staffMemberId: (await freshStaff(fx)).id, email: `u${unique()}@example.com` }),
    disconnectStaffMemberFromUser: async (fx) => {
      const s = await freshStaff(fx);
      await staffMembers.connectStaffMemberToUser(fx.api, { staffMemberId: s.id });
      return { staffMemberId: s.id };
    },
    assignCustomSchedule: async (fx) => {
      const s = await freshStaff(fx);
      return { staffMemberId: s.id, scheduleId: s.resource!.eventsSchedule!.id! };
    },
    assignWorkingHoursSchedule: async (fx) => {
      const s = await freshStaff(fx);
      await staffMembers.assignCustomSchedule(fx.api, { staffMemberId: s.id, scheduleId: s.resource!.eventsSchedule!.id! });
      return { staffMemberId: s.id, scheduleId: s.resource!.workingHoursSchedules![0]!.id! };
    },
  },
  'calendar-events': {
    queryEvents: async () => ({ recurrenceType: ['MASTER'], query: { filter: { type: 'WORKING_HOURS' }, cursorPaging: { limit: 10 } } }),
    createEvent: async (fx) => ({ event: await ownHoursEvent(fx) }),
    cancelEvent: async (fx) => {
      const { event } = await calendarEvents.createEvent(fx.api, { event: await ownHoursEvent(fx) });
      return { eventId: event.id };
    },
  },
  services: {
    createService: async () => ({ service: { name: `Contract ${unique()}`, type: 'APPOINTMENT' } }),
    bulkCreateServices: async () => ({ services: [{ name: `Bulk ${unique()}`, type: 'CLASS', defaultCapacity: 4 }], returnEntity: true }),
    getService: async (fx) => ({ serviceId: (await fx.freshService()).id }),
    updateService: async (fx) => {
      const s = await fx.freshService();
      return { service: { id: s.id, revision: s.revision, description: 'contract' }, mask: 'description' };
    },
    bulkUpdateServices: async (fx) => {
      const s = await fx.freshService();
      return { services: [{ service: { id: s.id, revision: s.revision, hidden: true }, mask: 'hidden' }], returnEntity: true };
    },
    bulkUpdateServicesByFilter: async (fx) => ({ filter: { id: (await fx.freshService()).id }, service: { tagLine: 'by filter' }, mask: 'tagLine' }),
    deleteService: async (fx) => ({ serviceId: (await fx.freshService()).id }),
    bulkDeleteServices: async (fx) => ({ ids: [(await fx.freshService()).id] }),
    bulkDeleteServicesByFilter: async (fx) => ({ filter: { id: (await fx.freshService()).id } }),
    queryServices: async () => ({ query: { filter: { type: 'CLASS' }, sort: [{ fieldName: 'name', order: 'ASC' }], paging: { limit: 3 } } }),
    searchServices: async () => ({ search: { cursorPaging: { limit: 3 }, aggregations: [{ name: 'byType', type: 'VALUE', fieldPath: 'type' }] } }),
    queryPolicies: async () => ({ query: { cursorPaging: { limit: 2 } } }),
    queryBookingForms: async () => ({ query: {} }),
    countServices: async () => ({ filter: { hidden: false } }),
    queryLocations: async () => ({ filter: {} }),
    queryCategories: async () => ({ filter: {} }),
    setServiceLocations: async (fx) => ({ serviceId: (await fx.freshService()).id, locations: [{ type: 'CUSTOMER' }] }),
    enablePricingPlansForService: async (fx) => ({ serviceId: (await fx.freshService()).id, pricingPlanIds: [(await fx.freshPlan()).id] }),
    disablePricingPlansForService: async (fx) => {
      const s = await fx.freshService();
      const plan = await fx.freshPlan();
      await services.enablePricingPlansForService(fx.api, { serviceId: s.id, pricingPlanIds: [plan.id] });
      return { serviceId: s.id, pricingPlanIds: [plan.id] };
    },
    setCustomSlug: async (fx) => ({ serviceId: (await fx.freshService()).id, slug: `custom-${unique()}` }),
    validateSlug: async () => ({ slug: `free-${unique()}` }),
    cloneService: async (fx) => ({ sourceServiceId: (await fx.freshService()).id }),
    createAddOnGroup: async (fx) => ({ serviceId: (await fx.freshService()).id, addOnGroup: { name: 'Extras', maxNumberOfAddOns: 1, addOnIds: [await freshAddOn(fx)] } }),
    updateAddOnGroup: async (fx) => {
      const g = await freshGroup(fx);
      return { serviceId: g.serviceId, addOnGroup: { id: g.groupId, prompt: 'Pick one' }, mask: 'prompt' };
    },
    deleteAddOnGroup: async (fx) => {
      const g = await freshGroup(fx);
      return { serviceId: g.serviceId, addOnGroupId: g.groupId };
    },
    listAddOnGroupsByServiceId: async (fx) => ({ serviceId: (await freshGroup(fx)).serviceId }),
    setAddOnsForGroup: async (fx) => {
      const g = await freshGroup(fx);
      return { serviceId: g.serviceId, groupId: g.groupId, addOnIds: [await freshAddOn(fx), g.addOnId] };
    },
  },
  'add-ons': {
    createAddOn: async () => ({ addOn: { name: `Extra time ${unique()}`, price: { value: '15', currency: 'USD' }, durationInMinutes: 15 } }),
    getAddOn: async (fx) => ({ addOnId: await freshAddOn(fx) }),
    queryAddOns: async (fx) => ({ query: { filter: { id: await freshAddOn(fx) }, cursorPaging: { limit: 10 } } }),
  },
  'bookings-pricing': {
    calculatePrice: async (fx) => ({ booking: { id: (await fx.freshBooking()).id } }),
  },
  availability: {
    queryAvailability: async (fx) => {
      const slot = await fx.freeSlot();
      return { query: { filter: { serviceId: [slot.serviceId], startDate: new Date().toISOString(), endDate: new Date(Date.now() + 7 * 86_400_000).toISOString() } }, timezone: 'UTC', slotsPerDay: 3 };
    },
    getScheduleAvailability: async (fx) => ({ scheduleId: await fx.courseScheduleId() }),
    calculateMultiSlotAvailability: async (fx) => {
      const slot = await fx.freeSlot();
      return { from: new Date().toISOString(), to: new Date(Date.now() + 7 * 86_400_000).toISOString(), slots: [{ serviceId: slot.serviceId }, { serviceId: slot.serviceId }], cursorPaging: { limit: 5 } };
    },
  },
  'time-slots': {
    listAvailabilityTimeSlots: async (fx) => {
      const slot = await fx.freeSlot();
      const from = String(slot.startDate).slice(0, 19);
      return { serviceId: slot.serviceId, fromLocalDate: from, toLocalDate: new Date(Date.parse(String(slot.startDate)) + 86_400_000).toISOString().slice(0, 19), timeZone: 'UTC', cursorPaging: { limit: 5 } };
    },
    getAvailabilityTimeSlot: async (fx) => {
      const slot = await fx.freeSlot();
      return { serviceId: slot.serviceId, localStartDate: String(slot.startDate).slice(0, 19), localEndDate: String(slot.endDate).slice(0, 19), timeZone: 'UTC', location: { locationType: 'BUSINESS' } };
    },
    listAvailabilityTimeSlotEndOptions: async (fx) => {
      const slot = await fx.freeSlot();
      return { serviceId: slot.serviceId, localStartDate: String(slot.startDate).slice(0, 19), timeZone: 'UTC', location: { locationType: 'BUSINESS' } };
    },
  },
  bookings: {
    confirmOrDeclineBooking: async (fx) => ({ bookingId: (await fx.freshBooking()).id, paymentStatus: 'PAID' }),
    bulkConfirmOrDeclineBooking: async (fx) => ({ details: [{ bookingId: (await fx.freshBooking()).id }], returnEntity: true }),
    createBooking: async (fx) => ({ booking: { bookedEntity: { slot: await fx.freeSlot() }, contactDetails: { firstName: 'Contract', email: 'contract@example.com' }, totalParticipants: 1 } }),
    bulkCreateBooking: async (fx) => ({ createBookingsInfo: [{ booking: { bookedEntity: { slot: await fx.freeSlot() }, contactDetails: { firstName: 'Bulk' } } }], returnFullEntity: true }),
    rescheduleBooking: async (fx) => {
      const b = await fx.freshBooking();
      const slot = await fx.freeSlot();
      const to = slot.serviceId === b.slot.serviceId ? slot : b.slot;
      return { bookingId: b.id, revision: b.revision, slot: to, flowControlSettings: { ignoreReschedulePolicy: true, skipAvailabilityValidation: to === b.slot } };
    },
    confirmBooking: async (fx) => {
      const b = await fx.freshBooking();
      return { bookingId: b.id, revision: b.revision };
    },
    declineBooking: async (fx) => {
      const b = await fx.freshBooking();
      return { bookingId: b.id, revision: b.revision };
    },
    cancelBooking: async (fx) => {
      const b = await fx.freshBooking();
      return { bookingId: b.id, revision: b.revision, flowControlSettings: { ignoreCancellationPolicy: true } };
    },
    updateNumberOfParticipants: async (fx) => {
      const { services: list } = await services.queryServices(fx.api, { query: { filter: { type: 'CLASS' }, paging: { limit: 100 } } });
      const now = Date.now();
      for (const s of list) {
        const { availabilityEntries } = await availability.queryAvailability(fx.api, { query: { filter: { serviceId: [s.id], startDate: new Date(now).toISOString(), endDate: new Date(now + 30 * 86_400_000).toISOString(), bookable: true } } });
        const entry = availabilityEntries.find((e) => (e.openSpots ?? 0) >= 2);
        if (!entry) continue;
        const { booking } = await bookings.createBooking(fx.api, { booking: { bookedEntity: { slot: entry.slot as never }, totalParticipants: 1 } });
        return { bookingId: booking.id, revision: booking.revision, totalParticipants: 2 };
      }
      throw new Error('no class session with two open spots');
    },
    updateExtendedFields: async (fx) => ({ id: (await fx.freshBooking()).id, namespace: '@contract/app', namespaceData: { note: 'hello' } }),
    markBookingAsPending: async (fx) => {
      const b = await fx.freshBooking();
      return { bookingId: b.id, revision: b.revision, flowControlSettings: { skipPendingApprovalServiceValidation: true } };
    },
    bulkCancelBooking: async (fx) => {
      const b = await fx.freshBooking();
      return { bookings: { bookingsInfo: [{ bookingId: b.id, revision: b.revision, flowControlSettings: { ignoreCancellationPolicy: true } }] }, returnFullEntity: true };
    },
    bulkCalculateAllowedActions: async (fx) => ({ bookingIds: [(await fx.freshBooking()).id] }),
  },
  attendance: {
    setAttendance: async (fx) => ({ attendance: { bookingId: (await fx.freshBooking()).id, status: 'ATTENDED', numberOfAttendees: 1 } }),
    bulkSetAttendance: async (fx) => ({ attendanceDetails: [{ attendance: { bookingId: (await fx.freshBooking()).id, status: 'NOT_ATTENDED', numberOfAttendees: 0 } }], returnFullEntity: true }),
    getAttendance: async (fx) => ({ attendanceId: (await freshAttendance(fx)).id! }),
    queryAttendance: async () => ({ query: { filter: { status: 'ATTENDED' }, cursorPaging: { limit: 5 } } }),
    countAttendances: async () => ({ filter: { status: { $in: ['ATTENDED', 'NOT_ATTENDED'] } } }),
    deleteAttendance: async (fx) => ({ attendanceId: (await freshAttendance(fx)).id! }),
    bulkDeleteAttendances: async (fx) => ({ attendanceIds: [(await freshAttendance(fx)).id!] }),
  },
  'extended-bookings': {
    queryExtendedBookings: async () => ({ query: { filter: { status: { $in: ['CONFIRMED', 'CREATED'] } }, cursorPaging: { limit: 5 } }, withBookingAllowedActions: true, withBookingAttendanceInfo: true, withBookingPolicySettings: true, withBookingFeeDetails: true }),
    queryExtendedBooking: async (fx) => ({ query: { filter: { id: (await fx.freshBooking()).id } }, withBookingAllowedActions: true }),
    countExtendedBookings: async () => ({ filter: { status: 'CONFIRMED' } }),
  },
  members: {
    updateCurrentMemberSlug: async () => ({ slug: `my-slug-${unique()}` }),
    updateMemberSlug: async (fx) => ({ id: (await fx.freshMember()).id, slug: `member-${unique()}` }),
    joinCommunity: async () => ({}),
    leaveCommunity: async () => ({}),
    getCurrentMember: async () => ({ fieldsets: ['FULL'] }),
    getMember: async (fx) => ({ id: (await fx.freshMember()).id, fieldsets: ['FULL'] }),
    listMembers: async () => ({ paging: { limit: 3 }, fieldsets: ['FULL'], sorting: [{ fieldName: 'createdDate', order: 'DESC' }] }),
    queryMembers: async () => ({ query: { filter: { status: 'PENDING' }, sorting: [{ fieldName: 'profile.nickname', order: 'ASC' }], paging: { limit: 5, offset: 0 } }, fieldsets: ['EXTENDED'] }),
    muteMember: async (fx) => ({ id: (await fx.freshMember()).id }),
    unmuteMember: async (fx) => {
      const m = await fx.freshMember();
      await members.muteMember(fx.api, { id: m.id });
      return { id: m.id };
    },
    approveMember: async (fx) => ({ id: (await fx.freshMember('BLOCKED')).id }),
    blockMember: async (fx) => ({ id: (await fx.freshMember()).id }),
    disconnectMember: async (fx) => ({ id: (await fx.freshMember()).id }),
    deleteMember: async (fx) => ({ id: (await fx.freshMember()).id }),
    deleteMyMember: async (fx) => ({ contentAssigneeId: (await fx.freshMember()).id }),
    bulkDeleteMembers: async (fx) => ({ memberIds: [(await fx.freshMember()).id] }),
    bulkDeleteMembersByFilter: async (fx) => ({ filter: { id: { $in: [(await fx.freshMember()).id] } }, contentAssigneeId: (await fx.freshMember()).id }),
    bulkApproveMembers: async (fx) => ({ filter: { id: { $in: [(await fx.freshMember('BLOCKED')).id] } } }),
    bulkBlockMembers: async (fx) => ({ filter: { id: { $in: [(await fx.freshMember()).id] } } }),
    createMember: async () => ({ member: { loginEmail: `contract-${unique()}@example.com`, contact: { firstName: 'Contract', phones: ['+1 415 555 0100'] }, profile: { nickname: 'Contract' } } }),
    updateMember: async (fx) => ({ member: { id: (await fx.freshMember()).id, contact: { lastName: 'Updated' } } }),
    deleteMemberPhones: async (fx) => ({ id: (await fx.freshMember()).id }),
    deleteMemberEmails: async (fx) => ({ id: (await fx.freshMember()).id }),
    deleteMemberAddresses: async (fx) => ({ id: (await fx.freshMember()).id }),
  },
  'multi-service-bookings': {
    createMultiServiceBooking: async (fx) => {
      const chain = await fx.freeChain();
      return { bookings: chain.map((slot) => ({ bookedEntity: { slot }, contactDetails: { firstName: 'Group' } })), multiServiceBookingType: 'SEQUENTIAL_BOOKINGS', returnFullEntity: true };
    },
    rescheduleMultiServiceBooking: async (fx) => {
      const g = await fx.freshGroup();
      const { multiServiceBooking } = await multiServiceBookings.getMultiServiceBooking(fx.api, { multiServiceBookingId: g.id });
      return {
        multiServiceBookingId: g.id,
        rescheduleBookingsInfo: (multiServiceBooking.bookings ?? []).map((e) => ({ bookingId: e.bookingId!, revision: e.booking!.revision!, slot: wireSlot(e.booking!.bookedEntity!.slot) })),
        flowControlSettings: { ignoreReschedulePolicy: true },
        returnFullEntity: true,
      };
    },
    getMultiServiceBookingAvailability: async (fx) => ({ multiServiceBookingId: (await fx.freshGroup()).id }),
    cancelMultiServiceBooking: async (fx) => ({ multiServiceBookingId: (await fx.freshGroup()).id, flowControlSettings: { ignoreCancellationPolicy: true } }),
    markMultiServiceBookingAsPending: async (fx) => {
      const g = await fx.freshGroup();
      return { multiServiceBookingId: g.id, markAsPendingBookingsInfo: g.bookings.map((b) => ({ bookingId: b.id, revision: b.revision })), flowControlSettings: { skipPendingApprovalServiceValidation: true } };
    },
    confirmMultiServiceBooking: async (fx) => {
      const g = await fx.freshGroup();
      return { multiServiceBookingId: g.id, confirmBookingsInfo: g.bookings.map((b) => ({ bookingId: b.id, revision: b.revision })), returnFullEntity: true };
    },
    declineMultiServiceBooking: async (fx) => {
      const g = await fx.freshGroup();
      return { multiServiceBookingId: g.id, declineBookingsInfo: g.bookings.map((b) => ({ bookingId: b.id, revision: b.revision })) };
    },
    bulkGetMultiServiceBookingAllowedActions: async (fx) => ({ multiServiceBookingIds: [(await fx.freshGroup()).id] }),
    getMultiServiceBooking: async (fx) => ({ multiServiceBookingId: (await fx.freshGroup()).id }),
    addBookingsToMultiServiceBooking: async (fx) => {
      const g = await fx.freshGroup();
      const b = await fx.freshBooking();
      return { multiServiceBookingId: g.id, bookings: [{ bookingId: b.id, revision: b.revision }], returnFullEntity: true };
    },
    removeBookingsFromMultiServiceBooking: async (fx) => {
      const g = await fx.freshGroup();
      return { multiServiceBookingId: g.id, bookings: [{ bookingId: g.bookings[1]!.id, revision: g.bookings[1]!.revision }] };
    },
  },
  plans: {
    listPublicPlans: async () => ({ limit: 5, offset: 0 }),
    queryPublicPlans: async () => ({ query: { filter: { primary: false }, sort: [{ fieldName: 'createdDate', order: 'DESC' }], paging: { limit: 3 } } }),
    getPlan: async (fx) => ({ id: (await fx.freshPlan()).id }),
    listPlans: async (fx) => ({ archived: 'ARCHIVED_AND_ACTIVE', public: 'PUBLIC_AND_HIDDEN', planIds: [(await fx.freshPlan()).id], limit: 10 }),
    getPlanStats: async () => ({}),
    createPlan: async () => ({ plan: { name: `Contract ${unique()}`.slice(0, 50), pricing: { singlePaymentUnlimited: true, price: { value: '10', currency: 'USD' } } } }),
    updatePlan: async (fx) => ({ plan: { id: (await fx.freshPlan()).id, description: 'contract' } }),
    setPlanVisibility: async (fx) => ({ id: (await fx.freshPlan()).id, visible: false }),
    makePlanPrimary: async (fx) => ({ id: (await fx.freshPlan()).id }),
    clearPrimary: async () => ({}),
    archivePlan: async (fx) => ({ id: (await fx.freshPlan()).id }),
  },
  orders: {
    managementGetOrder: async (fx) => ({ id: (await fx.freshOrder()).id, fieldSet: 'FULL' }),
    managementListOrders: async (fx) => ({ planIds: [(await fx.freshPlan()).id], orderStatuses: ['ACTIVE', 'PAUSED'], paymentStatuses: ['UNPAID'], limit: 50, sorting: { fieldName: 'createdDate', order: 'ASC' } }),
    postponeEndDate: async (fx) => {
      const o = await fx.freshOrder();
      return { id: o.id, endDate: new Date(Date.parse(o.endDate) + 30 * 86_400_000).toISOString() };
    },
    cancelOrder: async (fx) => ({ id: (await fx.freshOrder()).id, effectiveAt: 'IMMEDIATELY' }),
    markAsPaid: async (fx) => ({ id: (await fx.freshOrder()).id }),
    pauseOrder: async (fx) => ({ id: (await fx.freshOrder()).id }),
    resumeOrder: async (fx) => {
      const o = await fx.freshOrder();
      await orders.pauseOrder(fx.api, { id: o.id });
      return { id: o.id };
    },
  },
  'member-orders': {
    memberGetOrder: async (fx) => ({ id: (await fx.freshOrder()).id }),
    memberListOrders: async () => ({ orderStatuses: ['ACTIVE'], limit: 10 }),
    requestCancellation: async (fx) => ({ id: (await fx.freshOrder()).id, effectiveAt: 'IMMEDIATELY' }),
  },
  checkout: {
    createOnlineOrder: async (fx) => ({ planId: (await fx.freshPlan()).id, onBehalf: { memberId: (await fx.freshMember()).id, orderMethod: 'MOTO' }, couponCode: 'WELCOME10' }),
    createOfflineOrder: async (fx) => ({ planId: (await fx.freshPlan()).id, memberId: (await fx.freshMember()).id, paid: false }),
    getOnlineOrderPreview: async (fx) => ({ planId: (await fx.freshPlan()).id }),
    getOfflineOrderPreview: async (fx) => ({ planId: (await fx.freshPlan()).id, memberId: (await fx.freshMember()).id, couponCode: 'SAVE5' }),
    getPricePreview: async (fx) => ({ planId: (await fx.freshPlan()).id, couponCode: 'WELCOME10' }),
  },
  redirects: {
    createRedirectSession: async (fx) => ({
      auth: {
        authRequest: {
          clientId: fx.emu.emulator.clientId,
          redirectUri: 'http://127.0.0.1:8123/callback',
          codeChallenge: challengeOf(createVerifier()),
          codeChallengeMethod: 'S256',
          responseMode: 'fragment',
          responseType: 'code',
          scope: 'offline_access',
          state: `state-${unique()}`,
        },
        prompt: 'login',
      },
    }),
  },
  authentication: {
    registerV2: async () => ({ loginId: { email: `contract-${unique()}@example.com` }, password: 'secret-pass', profile: { nickname: 'Contract' } }),
    loginV2: async (fx) => {
      const { email, password } = await newIdentity(fx);
      return { loginId: { email }, password };
    },
    changePassword: async () => ({ newPassword: 'another-secret' }),
    signOn: async () => ({ loginId: { email: `sign-on-${unique()}@example.com` } }),
    logout: async (fx) => ({ clientId: fx.emu.emulator.clientId }),
    loginCallback: async (fx) => ({ sessionToken: (await newIdentity(fx)).sessionToken, state: 'contract' }),
    verify: async (fx) => {
      const { stateToken, code } = await pendingVerification(fx);
      return { factorType: 'EMAIL', stateToken, emailData: { code } };
    },
  },
  recovery: {
    sendRecoveryEmail: async (fx) => ({ email: (await newIdentity(fx)).email }),
    sendActivationEmail: async (fx) => ({ identityId: (await newIdentity(fx)).identityId }),
    recover: async (fx) => {
      const { email } = await newIdentity(fx);
      await fx.emu.request('POST', '/_api/iam/recovery/v1/send-email', { email });
      const mail = await fx.emu.request('GET', `/__emulator/mail?to=${encodeURIComponent(email)}`);
      return { recoveryToken: mail.body.mail.at(-1).recoveryToken, password: 'recovered-pass' };
    },
  },
  verification: {
    start: async (fx) => ({ identityId: (await newIdentity(fx)).identityId, target: 'EMAIL' }),
    verifyDuringAuthentication: async (fx) => pendingVerification(fx),
    resendDuringAuthentication: async (fx) => ({ stateToken: (await pendingVerification(fx)).stateToken }),
  },
};

/** A parsed slot back in wire form (dates are strings already; drop nothing). */
function wireSlot(slot: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(slot)) as Record<string, unknown>;
}

/**
 * Two back-to-back bookable appointment slots of the studio, not used before: the first chain the platform's
 * multi-slot call finds in a stretch of six hours no other example has.
 */
async function multiSlot(api: ApiClient, studio: Studio, serviceId: string): Promise<Array<Record<string, unknown>>> {
  const from = studio.reserve(6);
  const to = new Date(Date.parse(from) + 6 * 3_600_000).toISOString();
  const { slots } = await availability.calculateMultiSlotAvailability(api, { from, to, slots: [{ serviceId }, { serviceId }], bookable: true, cursorPaging: { limit: 100 } });
  const nested = slots[0]?.nestedTimeSlots ?? [];
  if (nested.length !== 2) throw new Error(`the studio has no two back-to-back slots from ${from}`);
  return nested.map((n) => ({ serviceId: n.serviceId, startDate: n.start, endDate: n.end, ...(n.resource ? { resource: { id: n.resource.id } } : {}) }));
}

/** The fixtures over a running test emulator. */
export function fixtures(emu: TestEmulator): Fixtures {
  const api = new ApiClient({ baseUrl: emu.url, credentials: { kind: 'apiKey', apiKey: emu.apiKey, siteId: emu.siteId } });
  // Made on first use, through the CLI: staff who work around the clock and an appointment only they give.
  let made: Promise<{ studio: Studio; service: { name: string; id: string } }> | undefined;
  const studio = () =>
    (made ??= (async () => {
      const s = await makeStudio((args, o) => runInProcess(args, { emulator: emu, ...o }), 'contract');
      return { studio: s, service: await s.appointment() };
    })());
  const fx: Fixtures = {
    api,
    emu,
    async freshService() {
      const { service } = await services.createService(api, { service: { name: `Fixture ${unique()}`, type: 'APPOINTMENT' } });
      return { id: service.id, revision: service.revision ?? '1' };
    },
    async freeSlot() {
      const { studio: s, service } = await studio();
      return wireSlot(await s.slot(service.name));
    },
    async freshBooking() {
      const slot = await fx.freeSlot();
      const { booking } = await bookings.createBooking(api, { booking: { bookedEntity: { slot: slot as never }, contactDetails: { firstName: 'Fixture' } } });
      return { id: booking.id, revision: booking.revision ?? '1', slot };
    },
    async freeChain() {
      const { studio: s, service } = await studio();
      return multiSlot(api, s, service.id);
    },
    async freshGroup() {
      const chain = await fx.freeChain();
      const { multiServiceBooking } = await multiServiceBookings.createMultiServiceBooking(api, {
        bookings: chain.map((slot) => ({ bookedEntity: { slot: slot as never }, contactDetails: { firstName: 'Group' } })),
        multiServiceBookingType: 'SEQUENTIAL_BOOKINGS',
        returnFullEntity: true,
      });
      return { id: multiServiceBooking.id!, bookings: (multiServiceBooking.bookings ?? []).map((e) => ({ id: e.bookingId!, revision: e.booking?.revision ?? '1' })) };
    },
    async freshMember(status = 'APPROVED') {
      const tag = unique();
      const { member } = await members.createMember(api, {
        member: { loginEmail: `fixture-${tag}@example.com`, contact: { firstName: 'Fixture', phones: ['+1 415 555 0199'], addresses: [{ city: 'Oakland' }] } },
      });
      if (status === 'BLOCKED') await members.blockMember(api, { id: member.id });
      return { id: member.id, slug: member.profile?.slug ?? '' };
    },
    async freshPlan() {
      const { plan } = await plans.createPlan(api, {
        plan: { name: `Fixture ${unique()}`.slice(0, 50), pricing: { subscription: { cycleDuration: { count: 1, unit: 'MONTH' }, cycleCount: 12 }, price: { value: '20', currency: 'USD' } } },
      });
      return { id: plan.id };
    },
    async freshOrder() {
      const { order } = await checkout.createOfflineOrder(api, { planId: (await fx.freshPlan()).id, memberId: (await fx.freshMember()).id, paid: false });
      return { id: order.id, endDate: (order.endDate as Date).toISOString() };
    },
    async courseScheduleId() {
      const { services: list } = await services.queryServices(api, { query: { filter: { type: 'COURSE' }, paging: { limit: 1 } } });
      const id = list[0]?.schedule?.id;
      if (!id) throw new Error('no course in the demo data');
      return id;
    },
  };
  return fx;
}
