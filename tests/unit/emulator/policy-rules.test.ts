/**
 * The booking policy rules of the emulator (src/emulator/services/policy-rules.ts; docs/wire.md §14 "Booking
 * policies"): the deep merge of a create and an update, a field mask, the rules a policy keeps, and the strictest
 * version of each rule of several policies.
 */
import { describe, expect, it } from 'vitest';
import { ValidationFailure } from '../../../src/emulator/errors.js';
import { checkPolicyRules, deepMerge, strictestPolicy, updatedPolicy, withPolicyDefaults } from '../../../src/emulator/services/policy-rules.js';

describe('booking policy rules', () => {
  it('merges deeply: objects key by key at every depth, arrays and scalars replaced, nothing changed in place', () => {
    const base = { a: { b: { c: 1, d: 2 }, list: [1, 2] }, keep: true };
    const merged = deepMerge(base, { a: { b: { c: 5 }, list: [3] }, extra: null });
    expect(merged).toEqual({ a: { b: { c: 5, d: 2 }, list: [3] }, keep: true, extra: null });
    expect(base).toEqual({ a: { b: { c: 1, d: 2 }, list: [1, 2] }, keep: true });
  });

  it('a create keeps the defaults of a block given in part; the defaults are not shared between policies', () => {
    const one = withPolicyDefaults({ name: 'One', waitlistPolicy: { enabled: true } });
    expect(one.waitlistPolicy).toEqual({ enabled: true, capacity: 10, reservationTimeInMinutes: 10 });
    (one.participantsPolicy as { maxParticipantsPerBooking: number }).maxParticipantsPerBooking = 9;
    expect(withPolicyDefaults({}).participantsPolicy).toEqual({ maxParticipantsPerBooking: 1 });
  });

  it('an update without a mask merges deeply and never takes the platform-owned fields; with one, only its paths change', () => {
    const current = withPolicyDefaults({ name: 'P', cancellationPolicy: { enabled: true, limitLatestCancellation: true, latestCancellationInMinutes: 60 } });
    const merged = updatedPolicy({ ...current, id: 'x', revision: '3' }, { id: 'y', revision: '9', default: true, cancellationPolicy: { latestCancellationInMinutes: 30 } }, undefined);
    expect(merged).toMatchObject({ id: 'x', revision: '3', cancellationPolicy: { enabled: true, limitLatestCancellation: true, latestCancellationInMinutes: 30 } });
    expect(merged.default).toBeUndefined();
    const masked = updatedPolicy(current, { name: 'ignored', waitlistPolicy: { capacity: 2, enabled: true } }, ['waitlistPolicy.capacity', 'cancellationPolicy']);
    expect(masked.name).toBe('P');
    expect(masked.waitlistPolicy).toEqual({ enabled: false, capacity: 2, reservationTimeInMinutes: 10 });
    // A masked block the request leaves out returns to its default.
    expect(masked.cancellationPolicy).toEqual({ enabled: false, limitLatestCancellation: false, latestCancellationInMinutes: 1440 });
  });

  it('refuses the booking window rules and a given field below its minimum, with the module rule names', () => {
    const refused = (policy: Record<string, unknown>, given: Record<string, unknown> = {}) => {
      try {
        checkPolicyRules(withPolicyDefaults(policy), given);
        return [];
      } catch (e) {
        expect(e).toBeInstanceOf(ValidationFailure);
        return (e as ValidationFailure).fieldViolations.map((v) => v.ruleName ?? v.violatedRule);
      }
    };
    expect(refused({ limitLateBookingPolicy: { enabled: true }, bookAfterStartPolicy: { enabled: true } })).toEqual(['BOTH_LATE_AND_AFTER_START_POLICIES_NOT_ALLOWED']);
    expect(refused({ limitEarlyBookingPolicy: { enabled: true, earliestBookingInMinutes: 60 }, limitLateBookingPolicy: { enabled: true, latestBookingInMinutes: 60 } })).toEqual(['INVALID_BOOKING_WINDOW']);
    expect(refused({ limitEarlyBookingPolicy: { enabled: true, earliestBookingInMinutes: 61 }, limitLateBookingPolicy: { enabled: true, latestBookingInMinutes: 60 } })).toEqual([]);
    expect(refused({}, { waitlistPolicy: { capacity: 0 } })).toEqual(['MIN']);
    // A stored value below the minimum (an older store) is not held against an update that does not give it.
    expect(refused({ waitlistPolicy: { capacity: 0 } }, { name: 'renamed' })).toEqual([]);
  });

  it('the strictest policy takes the narrowest version of each rule and has no id', () => {
    const loose = withPolicyDefaults({
      limitEarlyBookingPolicy: { enabled: true, earliestBookingInMinutes: 40000 },
      bookAfterStartPolicy: { enabled: true },
      cancellationPolicy: { enabled: true, limitLatestCancellation: false },
      reschedulePolicy: { enabled: true, limitLatestReschedule: true, latestRescheduleInMinutes: 60 },
      waitlistPolicy: { enabled: true, capacity: 8 },
      participantsPolicy: { maxParticipantsPerBooking: 6 },
      saveCreditCardPolicy: { enabled: true },
    });
    const strict = withPolicyDefaults({
      limitEarlyBookingPolicy: { enabled: true, earliestBookingInMinutes: 20000 },
      limitLateBookingPolicy: { enabled: true, latestBookingInMinutes: 120 },
      cancellationPolicy: { enabled: true, limitLatestCancellation: true, latestCancellationInMinutes: 2880 },
      reschedulePolicy: { enabled: true, limitLatestReschedule: true, latestRescheduleInMinutes: 240 },
      waitlistPolicy: { enabled: true, capacity: 3 },
      participantsPolicy: { maxParticipantsPerBooking: 2 },
      intakeFormPolicy: { enabled: true, formId: 'f1' },
    });
    expect(strictestPolicy([loose, strict])).toMatchObject({
      id: null,
      limitEarlyBookingPolicy: { enabled: true, earliestBookingInMinutes: 20000 },
      limitLateBookingPolicy: { enabled: true, latestBookingInMinutes: 120 },
      bookAfterStartPolicy: { enabled: false },
      cancellationPolicy: { enabled: true, limitLatestCancellation: true, latestCancellationInMinutes: 2880 },
      reschedulePolicy: { enabled: true, limitLatestReschedule: true, latestRescheduleInMinutes: 240 },
      waitlistPolicy: { enabled: true, capacity: 3, reservationTimeInMinutes: 10 },
      participantsPolicy: { maxParticipantsPerBooking: 2 },
      saveCreditCardPolicy: { enabled: true },
      intakeFormPolicy: { enabled: true, formId: 'f1' },
    });
    expect(strictestPolicy([loose]).bookAfterStartPolicy).toEqual({ enabled: true });
    expect(strictestPolicy([loose, withPolicyDefaults({})]).cancellationPolicy).toMatchObject({ enabled: false });
  });
});
