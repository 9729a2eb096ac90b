/**
 * The family tables against the official SDK (docs/contracts.md "The official SDK as the reference"). For every
 * operation of every table: the SDK operation of the same name (or the one `SDK_NAMES` gives) in the family's
 * module sends the same method, to the same URL on the platform's host (`www.wixapis.com`), from the same proto
 * path, and every top-level field our request and reply schemas name is a field of the SDK's wire typings of that
 * request and reply. Every SDK operation of these modules that no table has, and every table operation without an
 * SDK counterpart, carries a reason in `sdk-fixture.ts`; so does each accepted difference. A new difference fails
 * here, and so does a reason that no longer applies (a fixed difference, an operation added).
 */
import { describe, expect, it } from 'vitest';
import { FAMILIES } from '../../../src/api/families.js';
import { operationsOf, type Operation } from '../../../src/api/family.js';
import { TokenEndpoint } from '../../../src/api/auth/tokens.js';
import { sdkOperations, shapeOf, SDK_HOST, type SdkOperation } from '../../helpers/sdk-meta.js';
import { DIFFERENCES, FAMILY_MODULES, OURS_ONLY, SDK_NAMES, SDK_ONLY } from './sdk-fixture.js';

const sdk = sdkOperations();
const key = (family: string, op: string) => `${family}.${op}`;

/** Top-level keys of a zod/mini object schema (none for anything else). */
function keysOf(schema: unknown): string[] {
  const def = (schema as { _zod?: { def?: { type?: string; shape?: Record<string, unknown>; innerType?: unknown } } })?._zod?.def;
  if (!def) return [];
  if (def.shape) return Object.keys(def.shape);
  if (def.innerType) return keysOf(def.innerType);
  return [];
}

/** The SDK counterpart of one table operation, or undefined. */
function counterpart(family: string, op: Operation): SdkOperation | undefined {
  const module = FAMILY_MODULES[family];
  const name = SDK_NAMES[key(family, op.name)] ?? op.name;
  return sdk.find((s) => s.module === module && s.name === name);
}

/** What differs between a table operation and its SDK counterpart, one line per difference, by aspect. */
function differences(op: Operation, s: SdkOperation): Record<string, string> {
  const out: Record<string, string> = {};
  if (op.method !== s.method) out.method = `${op.method} vs the SDK's ${s.method}`;
  if (shapeOf(op.url) !== shapeOf(s.url)) out.url = `${op.url} vs the SDK's ${s.url}`;
  if (shapeOf(op.path) !== shapeOf(s.path)) out.path = `proto ${op.path} vs the SDK's ${s.path}`;
  const req = keysOf(op.request).filter((k) => !s.requestFields.includes(k));
  if (req.length) out.request = `request fields ${req.join(', ')} are not in the SDK's (${s.requestFields.join(', ')})`;
  const rep = keysOf(op.reply).filter((k) => !s.replyFields.includes(k));
  if (rep.length) out.reply = `reply fields ${rep.join(', ')} are not in the SDK's (${s.replyFields.join(', ')})`;
  return out;
}

describe('the family tables against the official SDK modules', () => {
  it(`reads the SDK's operations with their URLs on ${SDK_HOST} and their request fields`, () => {
    const get = sdk.find((s) => s.module === 'bookings_services' && s.name === 'getService');
    expect(get).toMatchObject({ method: 'GET', path: '/v2/services/{serviceId}', url: '/_api/bookings/v2/services/{serviceId}' });
    expect(get!.requestFields).toContain('serviceId');
  });

  for (const family of FAMILIES) {
    it(`${family.name}: every operation matches the SDK's method, URL, proto path and fields, or its difference is listed`, () => {
      expect(Object.hasOwn(FAMILY_MODULES, family.name), `no SDK module listed for the family ${family.name} in sdk-fixture.ts FAMILY_MODULES`).toBe(true);
      const found: string[] = [];
      const listed: string[] = [];
      for (const op of operationsOf(family)) {
        const k = key(family.name, op.name);
        const s = counterpart(family.name, op);
        if (OURS_ONLY[k]) {
          expect(s, `${k} is listed in OURS_ONLY but the SDK has ${s?.module}.${s?.name}: remove the entry`).toBeUndefined();
          continue;
        }
        expect(s, `${k} (${op.method} ${op.url}) has no SDK counterpart in ${FAMILY_MODULES[family.name]}: list it in OURS_ONLY with a reason, or name its SDK method in SDK_NAMES`).toBeDefined();
        for (const [aspect, what] of Object.entries(differences(op, s!))) found.push(`${k} ${aspect}: ${what}`);
        for (const aspect of Object.keys(DIFFERENCES[k] ?? {})) listed.push(`${k} ${aspect}`);
      }
      const unlisted = found.filter((f) => !listed.some((l) => f.startsWith(`${l}:`)));
      expect(unlisted, 'differences from the SDK not listed in sdk-fixture.ts DIFFERENCES').toEqual([]);
      const stale = listed.filter((l) => !found.some((f) => f.startsWith(`${l}:`)));
      expect(stale, 'DIFFERENCES entries that no longer differ: remove them').toEqual([]);
    });
  }

  it('every SDK operation of these modules is in a table or listed in SDK_ONLY with a reason', () => {
    const ours = new Set<SdkOperation>();
    for (const family of FAMILIES) for (const op of operationsOf(family)) {
      const s = counterpart(family.name, op);
      if (s) ours.add(s);
    }
    const lacking = sdk.filter((s) => !ours.has(s) && !SDK_ONLY[`${s.module}.${s.name}`]).map((s) => `${s.module}.${s.name} (${s.method} ${s.url})`);
    expect(lacking, 'SDK operations no table has and SDK_ONLY does not explain').toEqual([]);
    const stale = Object.keys(SDK_ONLY).filter((k) => {
      const s = sdk.find((x) => `${x.module}.${x.name}` === k);
      return !s || ours.has(s);
    });
    expect(stale, 'SDK_ONLY entries for operations a table now has, or the SDK no longer has').toEqual([]);
  });

  it("the token endpoint (not a family table) calls the SDK's token and token-info URLs", async () => {
    const sent: string[] = [];
    const fetchStub = (async (url: string | URL) => {
      sent.push(new URL(url).pathname);
      return new Response('{"access_token":"a","expires_in":1,"active":false}', { status: 200 });
    }) as typeof fetch;
    const endpoint = new TokenEndpoint({ baseUrl: `https://${SDK_HOST}`, fetch: fetchStub });
    await endpoint.token({ grantType: 'anonymous', clientId: 'c' });
    await endpoint.tokenInfo('t');
    const url = (name: string) => sdk.find((s) => s.module === 'identity_oauth' && s.name === name)!.url;
    expect(sent).toEqual([url('token'), url('tokenInfo')]);
  });
});
