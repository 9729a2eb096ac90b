/**
 * Secrets the emulator's OAuth server compares (docs/sign-in.md): the admin API key of the authorized_client
 * grant is compared in constant time, and an e-mail verification code (six digits) allows a few wrong tries
 * only, then the sign-in must start again (a code of a million values must not be guessable by trying).
 */
import type * as Crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../../helpers/index.js';

const compared = vi.hoisted(() => [] as Array<[Buffer, Buffer]>);
vi.mock('node:crypto', async (importOriginal) => {
  const crypto = await importOriginal<typeof Crypto>();
  return {
    ...crypto,
    timingSafeEqual: (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
      compared.push([Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b.buffer, b.byteOffset, b.byteLength)]);
      return crypto.timingSafeEqual(a, b);
    },
  };
});

let emu: TestEmulator;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 5, members: 5 });
});
afterAll(async () => {
  await emu?.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(emu.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

describe('authorized_client', () => {
  it('compares the API key in constant time', async () => {
    const members = await emu.request('POST', '/members/v1/members/query', { query: { paging: { limit: 1 } } });
    const memberId = members.body.members[0].id as string;
    // Same length as the key, last character changed: a plain !== would return early without timingSafeEqual.
    const forged = emu.apiKey.slice(0, -1) + (emu.apiKey.endsWith('x') ? 'y' : 'x');
    const visitor = (await post('/oauth2/token', { clientId: emu.emulator.clientId, grantType: 'anonymous' })).body.access_token as string;
    compared.length = 0;
    const r = await post('/oauth2/token', { grant_type: 'authorized_client', scope: 'offline_access', member_id: memberId }, { authorization: `${visitor},${forged}` });
    expect(r.status).toBe(401);
    expect(compared.some(([a, b]) => [a.toString(), b.toString()].includes(emu.apiKey))).toBe(true);
    const ok = await post('/oauth2/token', { grant_type: 'authorized_client', scope: 'offline_access', member_id: memberId }, { authorization: `${visitor},${emu.apiKey}` });
    expect(ok.status).toBe(200);
  });
});

describe('e-mail verification codes', () => {
  it('allow five wrong tries, then the sign-in starts again; the right code after that is refused', async () => {
    const visitor = (await post('/oauth2/token', { clientId: emu.emulator.clientId, grantType: 'anonymous' })).body.access_token as string;
    const email = `tries-${Date.now()}@example.com`;
    const reg = await post('/_api/iam/authentication/v2/register', { loginId: { email }, password: 'secret-pass' }, { authorization: visitor });
    expect(reg.body.state).toBe('SUCCESS');
    await emu.request('PUT', '/__emulator/auth-policy', { requireEmailVerification: true });
    try {
      const login = () => post('/_api/iam/authentication/v2/login', { loginId: { email }, password: 'secret-pass' }, { authorization: visitor });
      const verify = (code: string, stateToken: string) => post('/_api/iam/verification/v1/auth/verify', { code, stateToken }, { authorization: visitor });
      const latest = async () => (await emu.request('GET', `/__emulator/mail?to=${encodeURIComponent(email)}`)).body.mail.at(-1).code as string;

      const first = await login();
      expect(first.body.state).toBe('REQUIRE_EMAIL_VERIFICATION');
      const code = await latest();
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5; i++) expect((await verify(wrong, first.body.stateToken)).body.details.applicationError.code).toBe('VERIFICATION_FAILED');
      const late = await verify(code, first.body.stateToken);
      expect(late.status).toBe(404);
      expect(late.body.details.applicationError.code).toBe('NOT_FOUND');

      // A new sign-in sends a new code, which works (after a few wrong tries too).
      const second = await login();
      const code2 = await latest();
      for (let i = 0; i < 4; i++) await verify(code2 === '000000' ? '111111' : '000000', second.body.stateToken);
      expect((await verify(code2, second.body.stateToken)).body.state).toBe('SUCCESS');
    } finally {
      await emu.request('PUT', '/__emulator/auth-policy', { requireEmailVerification: false });
    }
  });
});
