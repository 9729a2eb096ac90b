/**
 * A booking policy's rule blocks as the platform keeps them (docs/wire.md §14 "Booking policies"): the defaults
 * a new policy takes for every rule field it leaves out, the deep merge of a create or an update over them, the
 * rules a policy must keep, and the strictest policy of several (`getStrictestBookingPolicy`).
 *
 * Source of every default: the doc comments of `BookingPolicy` and its rule types in the official module's typings
 * (`@wix/auto_sdk_bookings_booking-policies` build/cjs/index.typings.d.ts, "Default: ..."). The module also
 * types a `ResourcesPolicy` and its query names `resourcesPolicy.*`, but its `BookingPolicy` has no such field:
 * the emulator does not answer one.
 */
import { ValidationFailure, type FieldViolation } from '../errors.js';

type Json = Record<string, unknown>;

/** Every rule block of a new booking policy, at the SDK's documented defaults. */
export const POLICY_DEFAULTS: Readonly<Json> = Object.freeze({
  customPolicyDescription: { enabled: false, description: '' },
  limitEarlyBookingPolicy: { enabled: false, earliestBookingInMinutes: 10_080 },
  limitLateBookingPolicy: { enabled: false, latestBookingInMinutes: 1_440 },
  bookAfterStartPolicy: { enabled: false },
  cancellationPolicy: { enabled: false, limitLatestCancellation: false, latestCancellationInMinutes: 1_440 },
  reschedulePolicy: { enabled: false, limitLatestReschedule: false, latestRescheduleInMinutes: 1_440 },
  waitlistPolicy: { enabled: false, capacity: 10, reservationTimeInMinutes: 10 },
  participantsPolicy: { maxParticipantsPerBooking: 1 },
  cancellationFeePolicy: { enabled: false, cancellationWindows: [], autoCollectFeeEnabled: true },
  saveCreditCardPolicy: { enabled: false },
  staffSortingPolicy: { sortingMethodType: 'RANDOM' },
  intakeFormPolicy: { enabled: false },
});

/** The rule blocks of a policy (every top-level key of {@link POLICY_DEFAULTS}). */
export const POLICY_RULES: readonly string[] = Object.keys(POLICY_DEFAULTS);

/** Fields of a policy the platform owns: a create or update that sends them is not followed on them. */
const OWNED = new Set(['id', 'revision', 'default', 'createdDate', 'updatedDate', 'createdByAppId']);

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `patch` merged into `base`, deeply: objects merge key by key at every depth, arrays and scalars (null too)
 * replace. Neither argument is changed.
 */
export function deepMerge(base: Json, patch: Json): Json {
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) continue;
    const b = out[k];
    out[k] = isObject(v) && isObject(b) ? deepMerge(b, v) : structuredClone(v);
  }
  return out;
}

/** The fields of a create or update request a client may set (without what the platform owns). */
export function givenRules(policy: Json): Json {
  return Object.fromEntries(Object.entries(policy).filter(([k]) => !OWNED.has(k)));
}

/** A new policy's rules: the given fields merged deeply over {@link POLICY_DEFAULTS}. */
export function withPolicyDefaults(given: Json): Json {
  return deepMerge(structuredClone(POLICY_DEFAULTS) as Json, given);
}

function getPath(doc: Json, path: string): unknown {
  let at: unknown = doc;
  for (const key of path.split('.')) at = isObject(at) ? at[key] : undefined;
  return at;
}

/** `doc` with `path` set to `value` (or removed for undefined), copying the objects on the path. */
function setPath(doc: Json, path: string, value: unknown): Json {
  const [key, ...rest] = path.split('.');
  const out = { ...doc };
  if (rest.length === 0) {
    if (value === undefined) delete out[key!];
    else out[key!] = structuredClone(value);
    return out;
  }
  out[key!] = setPath(isObject(out[key!]) ? (out[key!] as Json) : {}, rest.join('.'), value);
  return out;
}

/**
 * An update applied to the stored policy: with a field mask (`mask`, the paths the module's serializer sends),
 * only the masked paths change, each to the given value (a masked block given whole merges deeply; a masked path
 * the request leaves out returns to its default); without one, the given fields merge deeply (a rule block
 * given in part keeps its other fields). Fields the platform owns are never taken from the request.
 */
export function updatedPolicy(current: Json, given: Json, mask: readonly string[] | undefined): Json {
  const rules = givenRules(given);
  if (!mask) return deepMerge(current, rules);
  let next = current;
  for (const path of mask) {
    if (OWNED.has(path.split('.')[0]!)) continue;
    const value = getPath(rules, path);
    const fallback = getPath(POLICY_DEFAULTS as Json, path);
    const before = getPath(current, path);
    next = setPath(next, path, isObject(value) && isObject(before) ? deepMerge(before, value) : (value ?? structuredClone(fallback)));
  }
  return next;
}

/**
 * The rules a policy must keep, as the module's validation errors name them (`CreateBookingPolicyValidationErrors`,
 * `UpdateBookingPolicyValidationErrors`): late booking and booking after the start not both on
 * (`BOTH_LATE_AND_AFTER_START_POLICIES_NOT_ALLOWED`); with both booking limits on, the earliest above the latest
 * (`INVALID_BOOKING_WINDOW`), both read on the policy as it would be; and the typings' minimums (`@min 1`) of the
 * minute and count fields the request gives (`given`).
 * @throws ValidationFailure (400) with each violation under `bookingPolicy.`
 */
export function checkPolicyRules(policy: Json, given: Json): void {
  const v: FieldViolation[] = [];
  const early = policy.limitEarlyBookingPolicy as { enabled?: boolean; earliestBookingInMinutes?: number } | undefined;
  const late = policy.limitLateBookingPolicy as { enabled?: boolean; latestBookingInMinutes?: number } | undefined;
  const after = policy.bookAfterStartPolicy as { enabled?: boolean } | undefined;
  if (late?.enabled && after?.enabled) {
    v.push({ field: 'bookingPolicy.limitLateBookingPolicy.enabled', description: 'a late booking limit and booking after the start cannot both be enabled', violatedRule: 'OTHER', ruleName: 'BOTH_LATE_AND_AFTER_START_POLICIES_NOT_ALLOWED' });
  }
  if (early?.enabled && late?.enabled && (early.earliestBookingInMinutes ?? 0) <= (late.latestBookingInMinutes ?? 0)) {
    v.push({ field: 'bookingPolicy.limitEarlyBookingPolicy.earliestBookingInMinutes', description: 'must be greater than limitLateBookingPolicy.latestBookingInMinutes', violatedRule: 'OTHER', ruleName: 'INVALID_BOOKING_WINDOW' });
  }
  for (const path of MIN_ONE) {
    const value = getPath(given, path);
    if (value === undefined || value === null) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) v.push({ field: `bookingPolicy.${path}`, description: 'must be a whole number of at least 1', violatedRule: 'MIN' });
  }
  if (v.length) throw new ValidationFailure(v);
}

/** Fields the typings mark `@min 1`. */
const MIN_ONE = [
  'limitEarlyBookingPolicy.earliestBookingInMinutes',
  'limitLateBookingPolicy.latestBookingInMinutes',
  'cancellationPolicy.latestCancellationInMinutes',
  'reschedulePolicy.latestRescheduleInMinutes',
  'waitlistPolicy.capacity',
  'waitlistPolicy.reservationTimeInMinutes',
  'participantsPolicy.maxParticipantsPerBooking',
];

type Block = Record<string, unknown> & { enabled?: boolean };

const blocks = (policies: readonly Json[], rule: string): Block[] => policies.map((p) => ({ ...(POLICY_DEFAULTS[rule] as Block), ...((p[rule] as Block | undefined) ?? {}) }));
const numbers = (list: readonly Block[], field: string): number[] => list.map((b) => b[field]).filter((n): n is number => typeof n === 'number');
const on = (list: readonly Block[]) => list.filter((b) => b.enabled === true);

/** A window rule (cancellation, reschedule): allowed only if every policy allows it; the longest limit of those that limit. */
function windowRule(list: readonly Block[], limit: string, minutes: string, fallback: number): Block {
  const enabled = list.every((b) => b.enabled === true);
  const limiting = list.filter((b) => b[limit] === true);
  return { enabled, [limit]: limiting.length > 0, [minutes]: limiting.length ? Math.max(...numbers(limiting, minutes)) : fallback };
}

/**
 * The strictest version of each rule of `policies` (`getStrictestBookingPolicy`; the module's docs say only
 * "the strictest version of each rule", so the emulator reads each rule the way that narrows what a customer may
 * do, docs/wire.md §14): a booking limit is on if any policy has it on, at its narrowest window (the smallest
 * earliest, the largest latest); booking after the start, cancelling, rescheduling and the waitlist are allowed
 * only if every policy allows them, with the longest cancellation and reschedule limit and the smallest waitlist;
 * the smallest participants limit; a cancellation fee, a saved card or an intake form required if
 * any policy requires it (the first such policy's fee windows and form). Description and staff sorting are not
 * rules a customer meets: they keep the defaults. The answer has no id, name or revision: it is not stored.
 */
export function strictestPolicy(policies: readonly Json[]): Json {
  const b = (rule: string) => blocks(policies, rule);
  const early = on(b('limitEarlyBookingPolicy'));
  const late = on(b('limitLateBookingPolicy'));
  const waitlist = b('waitlistPolicy');
  const fee = on(b('cancellationFeePolicy'));
  const intake = on(b('intakeFormPolicy'));
  return {
    ...(structuredClone(POLICY_DEFAULTS) as Json),
    id: null,
    limitEarlyBookingPolicy: early.length ? { enabled: true, earliestBookingInMinutes: Math.min(...numbers(early, 'earliestBookingInMinutes')) } : structuredClone(POLICY_DEFAULTS.limitEarlyBookingPolicy),
    limitLateBookingPolicy: late.length ? { enabled: true, latestBookingInMinutes: Math.max(...numbers(late, 'latestBookingInMinutes')) } : structuredClone(POLICY_DEFAULTS.limitLateBookingPolicy),
    bookAfterStartPolicy: { enabled: b('bookAfterStartPolicy').every((x) => x.enabled === true) && late.length === 0 },
    cancellationPolicy: windowRule(b('cancellationPolicy'), 'limitLatestCancellation', 'latestCancellationInMinutes', 1_440),
    reschedulePolicy: windowRule(b('reschedulePolicy'), 'limitLatestReschedule', 'latestRescheduleInMinutes', 1_440),
    waitlistPolicy: {
      enabled: waitlist.every((x) => x.enabled === true),
      capacity: Math.min(...numbers(waitlist, 'capacity')),
      reservationTimeInMinutes: Math.min(...numbers(waitlist, 'reservationTimeInMinutes')),
    },
    participantsPolicy: { maxParticipantsPerBooking: Math.min(...numbers(b('participantsPolicy'), 'maxParticipantsPerBooking')) },
    cancellationFeePolicy: fee.length ? { ...structuredClone(fee[0]!), enabled: true } : structuredClone(POLICY_DEFAULTS.cancellationFeePolicy),
    saveCreditCardPolicy: { enabled: b('saveCreditCardPolicy').some((x) => x.enabled === true) },
    intakeFormPolicy: intake.length ? { ...structuredClone(intake[0]!), enabled: true } : structuredClone(POLICY_DEFAULTS.intakeFormPolicy),
  };
}
