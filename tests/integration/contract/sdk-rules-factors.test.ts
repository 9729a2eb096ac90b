/**
 * The sign-in factors and the services' creation errors (docs/wire.md §22 "Sign-in factors", §14 "Clone and
 * resource-creation errors") through the official modules against a real emulator on port 0, as
 * sdk-rules.test.ts does: each request the module sends to the platform's host goes to the emulator's loopback
 * origin, and is recorded (setup: sdk-client.ts).
 *
 * - Identity: `loginV2` (identity_authentication) of a member whose SMS factor is on answers MFA_CHALLENGE with
 *   a state token; the code the emulator's outbox holds for the phone completes it through the verification
 *   module's `verifyDuringAuthentication` (the authentication module exports no `verify` of its own); a wrong
 *   code fails with the module's typed application error VERIFICATION_FAILED.
 * - Services: `cloneService` reads `errors` (the module's CloneErrors): FORM when the source's booking form is not
 *   the default, both values when the faults inject them; `createService` of a service whose `serviceResources`
 *   names an unknown resource type fails with UNKNOWN_CREATE_RESOURCE_TYPE_ERROR, and with the injected
 *   FAILED_TO_CREATE_RESOURCES.
 */
import * as authentication from '@wix/auto_sdk_identity_authentication';
import * as verification from '@wix/auto_sdk_identity_verification';
import * as services from '@wix/auto_sdk_bookings_services';
import { afterEach, describe, expect, it } from 'vitest';
import { apiKeyClient, useOfficialClient } from './sdk-client.js';

const ctx = useOfficialClient('sdk-rules-factors', { size: 10, bookings: 0 });
afterEach(async () => {
  await ctx.emu.request('PUT', '/__emulator/faults', { cloneErrors: [], resourceError: null });
});

/** The application error code an official module's rejection carries. */
function codeOf(err: unknown): string | undefined {
  return (err as { details?: { applicationError?: { code?: string } } }).details?.applicationError?.code;
}

let n = 0;
/** A registered member with a phone on its contact, its SMS factor enabled (codes to that phone). */
async function memberWithSms(): Promise<{ email: string; phone: string }> {
  const email = `sdk-sms-${process.pid}-${n++}@example.com`;
  const phone = `+1 555 010 ${String(1000 + n).slice(-4)}`;
  const reg = await ctx.emu.request('POST', '/_api/iam/authentication/v2/register', { loginId: { email }, password: 'pass-word-1' });
  expect(reg.status, JSON.stringify(reg.body)).toBe(200);
  const found = await ctx.emu.request('POST', '/members/v1/members/query', { query: { filter: { loginEmail: email } } });
  expect(found.body.members, JSON.stringify(found.body)).toHaveLength(1);
  const memberId = found.body.members[0].id as string;
  const upd = await ctx.emu.request('PATCH', `/members/v1/members/${memberId}`, { member: { id: memberId, contact: { phones: [phone] } } });
  expect(upd.status, JSON.stringify(upd.body)).toBe(200);
  const on = await ctx.emu.request('PUT', '/__emulator/identity-factor', { email, factorType: 'SMS' });
  expect(on.body.secondFactor, JSON.stringify(on.body)).toEqual({ factorType: 'SMS', phone });
  return { email, phone };
}

describe('the SMS sign-in factor through the official identity modules', () => {
  it('loginV2 answers MFA_CHALLENGE; verifyDuringAuthentication with the SMS code signs in; a wrong code is VERIFICATION_FAILED', async () => {
    const { email, phone } = await memberWithSms();
    const client = apiKeyClient(ctx, { authentication, verification });
    const login = await client.authentication.loginV2({ email }, { password: 'pass-word-1' });
    expect(ctx.sent.at(-1)).toMatchObject({ method: 'POST', path: '/_api/iam/authentication/v2/login' });
    expect(login.state).toBe('MFA_CHALLENGE');
    expect(login.identity!.factors).toEqual([{ factorId: expect.any(String), type: 'SMS', status: 'ACTIVE' }]);
    expect(login.sessionToken ?? null).toBeNull();
    const stateToken = login.stateToken!;
    expect(stateToken).toBeTruthy();
    // MfaChallengeData (the module's internal typings): the factor and the phone's hint.
    expect((login as { mfaChallengeData?: unknown }).mfaChallengeData).toMatchObject({ factorType: 'SMS', reason: 'USER_SETTINGS', verificationChallengeData: { hint: expect.stringMatching(/\d{4}$/) } });

    const mail = (await ctx.emu.request('GET', `/__emulator/mail?to=${encodeURIComponent(phone)}`)).body.mail;
    expect(mail.at(-1)).toMatchObject({ channel: 'SMS', to: phone, code: expect.stringMatching(/^\d{6}$/) });
    const code = mail.at(-1).code as string;

    const wrong = await client.verification.verifyDuringAuthentication(code === '000000' ? '111111' : '000000', { stateToken }).catch((e: unknown) => e);
    expect(codeOf(wrong)).toBe('VERIFICATION_FAILED');
    const done = await client.verification.verifyDuringAuthentication(code, { stateToken });
    expect(ctx.sent.at(-1)).toMatchObject({ method: 'POST', path: '/_api/iam/verification/v1/auth/verify', body: { code, stateToken } });
    expect(done.state).toBe('SUCCESS');
    expect(done.sessionToken).toBeTruthy();
    // Spent: the same state token is not known any more.
    expect(codeOf(await client.verification.verifyDuringAuthentication(code, { stateToken }).catch((e: unknown) => e))).toBe('NOT_FOUND');
  });
});

describe("cloneService's errors and the resource-creation errors through the official services module", () => {
  /** The site's booking forms, the default first. */
  async function forms(): Promise<string[]> {
    const r = await ctx.emu.request('POST', '/_api/bookings/v2/services/booking-forms/query', { query: {} });
    const all = r.body.bookingForms as Array<{ form?: { id: string }; id?: string; default?: boolean }>;
    return all.map((f) => f.form?.id ?? f.id!);
  }

  async function serviceWithForm(formId: string): Promise<string> {
    const r = await ctx.emu.request('POST', '/_api/bookings/v2/services', {
      service: { name: `Sdk clone ${process.pid}-${n++}`, type: 'APPOINTMENT', form: { id: formId }, payment: { rateType: 'FIXED', fixed: { price: { value: '10', currency: 'USD' } }, options: { inPerson: true } }, schedule: { availabilityConstraints: { durations: [{ minutes: 30 }] } } },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.service.id;
  }

  it('a source with the default form clones without errors; with another form the copy lacks it (FORM) and has the default', async () => {
    const client = apiKeyClient(ctx, { services });
    const [first, second] = await forms();
    const service = await client.services.getService(await serviceWithForm(first!));
    const defaultForm = service.form!._id!;
    const other = [first, second].find((f) => f !== defaultForm)!;
    const plain = await client.services.cloneService(service._id!);
    expect(ctx.sent.at(-1)).toMatchObject({ method: 'POST', path: '/_api/bookings/v2/services/clone', body: { sourceServiceId: service._id } });
    expect(plain.errors).toEqual([]);
    const custom = await client.services.cloneService(await serviceWithForm(other));
    expect(custom.errors).toEqual(['FORM']);
    expect(custom.service!.form!._id).toBe(defaultForm);
  });

  it('the faults make every clone answer the errors they name, in the CloneErrors order, the copy made', async () => {
    const client = apiKeyClient(ctx, { services });
    const [first] = await forms();
    const source = await serviceWithForm(first!);
    await ctx.emu.request('PUT', '/__emulator/faults', { cloneErrors: ['FORM', 'OPTIONS_AND_VARIANTS'] });
    const reply = await client.services.cloneService(source);
    expect(reply.errors).toEqual(['OPTIONS_AND_VARIANTS', 'FORM']);
    expect((await ctx.emu.request('GET', `/_api/bookings/v2/services/${reply.service!._id}`)).status).toBe(200);
    // The GraphQL endpoint runs the same handler under the same faults.
    const gql = await ctx.emu.request('POST', '/graphql/alpha', { query: `mutation { bookingsServicesV2CloneService(input: {sourceServiceId: "${source}"}) { errors } }` });
    expect(gql.body.data, JSON.stringify(gql.body)).toEqual({ bookingsServicesV2CloneService: { errors: ['OPTIONS_AND_VARIANTS', 'FORM'] } });
  });

  it('createService naming an unknown resource type is UNKNOWN_CREATE_RESOURCE_TYPE_ERROR; the fault gives FAILED_TO_CREATE_RESOURCES', async () => {
    const client = apiKeyClient(ctx, { services });
    const base = { name: `Sdk resources ${process.pid}-${n++}`, type: 'APPOINTMENT' as const, payment: { rateType: 'FIXED' as const, fixed: { price: { value: '10', currency: 'USD' } }, options: { inPerson: true } }, schedule: { availabilityConstraints: { durations: [{ minutes: 30 }] } } };
    const unknown = await client.services
      .createService({ ...base, serviceResources: [{ resourceType: { _id: '00000000-0000-4000-8000-000000000001' } }] } as never)
      .catch((e: unknown) => e);
    expect(codeOf(unknown)).toBe('UNKNOWN_CREATE_RESOURCE_TYPE_ERROR');
    expect(((await ctx.emu.request('POST', '/_api/bookings/v2/services/query', { query: { filter: { name: base.name } } })).body.services as unknown[]).length).toBe(0);
    await ctx.emu.request('PUT', '/__emulator/faults', { resourceError: 'FAILED_TO_CREATE_RESOURCES' });
    expect(codeOf(await client.services.createService(base as never).catch((e: unknown) => e))).toBe('FAILED_TO_CREATE_RESOURCES');
  });
});
