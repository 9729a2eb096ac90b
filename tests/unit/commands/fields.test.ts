/**
 * The input checks of commands/shared/fields.ts that need no request: the values a filter compares an
 * enumeration field with (every noun's schema, one mechanism), and the field names of an entity given as a
 * `--file`, against the call's input schema and the entity schema.
 */
import { describe, expect, it } from 'vitest';
import { memberInputs } from '../../../src/api/schemas/member.js';
import { serviceInputs } from '../../../src/api/schemas/service.js';
import { BOOKING_VIEW } from '../../../src/commands/bookings/shared/view.js';
import { MEMBER_VIEW } from '../../../src/commands/members/shared/view.js';
import { ORDER_VIEW } from '../../../src/commands/orders/shared/view.js';
import { SERVICE_VIEW } from '../../../src/commands/services/shared/view.js';
import { checkFileFields, checkFilter } from '../../../src/commands/shared/fields.js';
import { UserError } from '../../../src/core/errors.js';

/** The UserError `fn` throws (fails the test when it throws none). */
function refusal(fn: () => void): UserError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UserError);
    return err as UserError;
  }
  throw new Error('expected a refusal');
}

describe('filter values of enumeration fields', () => {
  it('refuses a value the field does not have, listing its values, with a did-you-mean (exit 2)', () => {
    const err = refusal(() => checkFilter(MEMBER_VIEW.schema, { status: 'PENDNG' }));
    expect(err.exitCode).toBe(2);
    expect(err.message).toBe('--filter: "status" has no value "PENDNG"; did you mean "PENDING"? (its values: UNKNOWN, PENDING, APPROVED, BLOCKED, OFFLINE)');
    expect(err.hint).toMatch(/--allow-unknown-fields/);
    expect(refusal(() => checkFilter(MEMBER_VIEW.schema, { privacyStatus: 'PUBLICC' }, '--where')).message).toMatch(/^--where: "privacyStatus" has no value "PUBLICC"; did you mean "PUBLIC"\?/);
    // Far from every value: no guess, still the list.
    expect(refusal(() => checkFilter(MEMBER_VIEW.schema, { status: 'ZZZZZZZZZZ' })).message).toBe('--filter: "status" has no value "ZZZZZZZZZZ" (its values: UNKNOWN, PENDING, APPROVED, BLOCKED, OFFLINE)');
  });

  it('checks every equality operator, at any depth under $and, $or and $not', () => {
    for (const condition of [{ $eq: 'NOPE' }, { $ne: 'NOPE' }, { $in: ['PENDING', 'NOPE'] }, { $nin: ['NOPE'] }, { $hasSome: ['NOPE'] }, { $hasAll: ['NOPE'] }, { $not: { $eq: 'NOPE' } }]) {
      expect(() => checkFilter(MEMBER_VIEW.schema, { status: condition }), JSON.stringify(condition)).toThrow(/"status" has no value "NOPE"/);
    }
    expect(() => checkFilter(MEMBER_VIEW.schema, { $and: [{ loginEmail: 'a@example.com' }, { $or: [{ activityStatus: 'MUTD' }] }] })).toThrow(/"activityStatus" has no value "MUTD"; did you mean "MUTED"/);
  });

  it('is one mechanism for every noun: bookings, orders, services', () => {
    expect(() => checkFilter(BOOKING_VIEW.schema, { status: 'NOPE' }, '--where')).toThrow(/--where: "status" has no value "NOPE"/);
    expect(() => checkFilter(ORDER_VIEW.schema, { status: { $in: ['ACTIVE', 'PAUSD'] } })).toThrow(/did you mean "PAUSED"/);
    expect(() => checkFilter(SERVICE_VIEW.schema, { type: 'CLAS' })).toThrow(/"type" has no value "CLAS"; did you mean "CLASS"/);
    // A field inside a list (locations.type) is checked as well.
    expect(() => checkFilter(SERVICE_VIEW.schema, { 'locations.type': 'BUSINESS' })).not.toThrow();
    expect(() => checkFilter(SERVICE_VIEW.schema, { 'locations.type': 'BUSINES' })).toThrow(/did you mean "BUSINESS"/);
  });

  it('lets known values, other operators and other fields through; --allow-unknown-fields sends any value', () => {
    expect(() => checkFilter(MEMBER_VIEW.schema, { status: { $in: ['PENDING', 'BLOCKED'] }, privacyStatus: { $ne: 'PUBLIC' } })).not.toThrow();
    expect(() => checkFilter(MEMBER_VIEW.schema, { status: { $exists: true } })).not.toThrow();
    expect(() => checkFilter(MEMBER_VIEW.schema, { status: { $startsWith: 'PEN' } })).not.toThrow();
    expect(() => checkFilter(MEMBER_VIEW.schema, { status: null })).not.toThrow();
    expect(() => checkFilter(MEMBER_VIEW.schema, { loginEmail: 'PENDNG' })).not.toThrow();
    expect(() => checkFilter(MEMBER_VIEW.schema, { status: 'SOMETHING_NEW' }, '--filter', true)).not.toThrow();
  });
});

describe('field names of a --file entity', () => {
  const members = [memberInputs().MemberPatch, MEMBER_VIEW.schema];

  it('refuses a name neither the input schema nor the entity schema knows, naming its path, with a did-you-mean', () => {
    const err = refusal(() => checkFileFields(members, { profile: { titel: 'x' } }, '--file m.json'));
    expect(err.exitCode).toBe(2);
    expect(err.message).toBe('--file m.json: unknown field "profile.titel"; did you mean "profile.title"?');
    expect(err.hint).toMatch(/^fields of profile: .*title.*\(or pass --allow-unknown-fields\)$/);
    expect(refusal(() => checkFileFields(members, { privacyStatuss: 'PUBLIC' }, '--file -')).message).toBe('--file -: unknown field "privacyStatuss"; did you mean "privacyStatus"?');
    expect(refusal(() => checkFileFields(members, { contact: { addresses: [{ city: 'Oslo' }, { citty: 'Bergen' }] } }, '--file m.json')).message).toMatch(/unknown field "contact.addresses.citty"; did you mean "contact.addresses.city"/);
    expect(refusal(() => checkFileFields(members, JSON.parse('{"__proto__":{"x":1}}'), '--file m.json')).message).toMatch(/"__proto__" is not a field name/);
    // A key with a dot is one name: refused whole where an object has no such field, taken by a record.
    expect(refusal(() => checkFileFields(members, { 'profile.title': 'x' }, '--file m.json')).message).toMatch(/unknown field "profile.title"/);
    expect(refusal(() => checkFileFields(members, { contact: { customFields: { 'custom.size': { nmae: 'x' } } } }, '--file m.json')).message).toMatch(/unknown field "contact.customFields.custom.size.nmae"; did you mean "contact.customFields.custom.size.name"/);
    const services = [serviceInputs().ServiceCreate, SERVICE_VIEW.schema];
    expect(refusal(() => checkFileFields(services, { name: 'Yoga', type: 'CLASS', defaultCapacty: 3 }, '--file s.json')).message).toMatch(/unknown field "defaultCapacty"; did you mean "defaultCapacity"/);
  });

  it('passes what `get --json` prints (fields the platform owns included), free-form fields, and anything with --allow-unknown-fields', () => {
    const member = {
      id: 'm1', loginEmail: 'a@example.com', status: 'APPROVED', createdDate: '2025-01-01T00:00:00Z', lastLoginDate: null,
      contact: { contactId: 'c1', firstName: 'Ada', phones: ['+1'], customFields: { 'custom.shoe-size': { name: 'Shoe size', value: { number: 42 } } } },
      profile: { nickname: 'Ada', slug: 'ada', title: 'Countess', photo: { url: 'https://x/y.png', offsetX: 1 } },
    };
    expect(() => checkFileFields(members, member, '--file m.json')).not.toThrow();
    expect(() => checkFileFields(members, { profile: { titel: 'x' } }, '--file m.json', true)).not.toThrow();
    // A value of the wrong type is the request schema's to report, not a name to refuse.
    expect(() => checkFileFields(members, { loginEmail: { odd: true } }, '--file m.json')).not.toThrow();
    const service = { name: 'Yoga', type: 'CLASS', schedule: { anything: 1 }, extendedFields: { namespaces: { mine: { deep: { x: 1 } } } } };
    expect(() => checkFileFields([serviceInputs().ServiceCreate, SERVICE_VIEW.schema], service, '--file s.json')).not.toThrow();
  });
});
