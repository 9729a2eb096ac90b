/**
 * Secrets the emulator's OAuth server compares (docs/sign-in.md): the admin API key of the authorized_client
 * grant is compared in constant time.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../../helpers/index.js';

const compared = vi.hoisted(() => [] as Array<[Buffer, Buffer]>);
vi.mock('node:crypto', async (importOriginal) => {
  const crypto = await importOriginal<typeof import('node:crypto')>();
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
    compared.length = 0;
    const r = await post('/oauth2/token', { grantType: 'authorized_client', scope: 'offline_access', member_id: memberId }, { authorization: forged, 'wix-site-id': emu.siteId });
    expect(r.status).toBe(401);
    expect(compared.some(([a, b]) => [a.toString(), b.toString()].includes(emu.apiKey))).toBe(true);
    const ok = await post('/oauth2/token', { grantType: 'authorized_client', scope: 'offline_access', member_id: memberId }, { authorization: emu.apiKey, 'wix-site-id': emu.siteId });
    expect(ok.status).toBe(200);
  });
});
