/**
 * The contract of every family table (docs/architecture.md "One table per API family"): every operation of every
 * table answers on a real emulator through each of its routes (the proto path, the SDK URL and every gateway
 * alias), with HTTP 200, a JSON body, and a reply its table's schema parses (the official SDK rejects 201, 204 and
 * empty bodies). An operation added to a table without being served, or without an example, fails here.
 */
import { safeParse } from 'zod/mini';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from '../../../src/api/families.js';
import { fillPath, operationsOf } from '../../../src/api/family.js';
import { toURLSearchParams } from '../../../src/api/query.js';
import { SERVED } from '../../../src/emulator/index.js';
import { startTestEmulator, type TestEmulator } from '../../helpers/index.js';
import { EXAMPLES, fixtures, REFUSALS, type Fixtures } from './examples.js';

let emu: TestEmulator;
let fx: Fixtures;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 20 });
  fx = fixtures(emu);
});
afterAll(async () => {
  await fx?.api.close();
  await emu?.close();
});

async function send(method: string, path: string, request: Record<string, unknown>) {
  const asQuery = method === 'GET' || method === 'DELETE';
  const search = asQuery ? toURLSearchParams(request, true).toString() : '';
  const res = await fetch(emu.url + path + (search ? `?${search}` : ''), {
    method,
    headers: {
      authorization: emu.apiKey,
      'wix-site-id': emu.siteId,
      ...(asQuery ? {} : { 'content-type': 'application/json' }),
    },
    body: asQuery ? undefined : JSON.stringify(request),
  });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

describe('every operation of every family table', () => {
  const served = new Set(SERVED.map((s) => s.op));
  for (const family of FAMILIES) {
    for (const op of operationsOf(family)) {
      const expected = REFUSALS[family.name]?.[op.name];
      const outcome = expected ? `refuses an API key with ${expected.status} ${expected.code}` : 'answers 200 with a parsable JSON reply';
      it(`${family.name}.${op.name} is served, and ${outcome} on each of its ${op.routes.length} routes`, async () => {
        expect(served.has(op), `${family.name}.${op.name} is not served by the emulator`).toBe(true);
        const example = EXAMPLES[family.name]?.[op.name];
        expect(example, `no example request for ${family.name}.${op.name} in tests/integration/contract/examples.ts`).toBeTypeOf('function');
        const refusal = REFUSALS[family.name]?.[op.name];
        for (const route of op.routes) {
          const request = await example!(fx);
          const reply = await send(op.method, fillPath(route, request), request);
          if (refusal) {
            expect(reply.status, `${op.method} ${route}: ${reply.text.slice(0, 300)}`).toBe(refusal.status);
            expect(JSON.parse(reply.text).details?.applicationError?.code).toBe(refusal.code);
            continue;
          }
          expect(reply.status, `${op.method} ${route}: ${reply.text.slice(0, 300)}`).toBe(200);
          expect(reply.type).toMatch(/^application\/json/);
          expect(reply.text.trim()).not.toBe('');
          const parsed = safeParse(op.reply, JSON.parse(reply.text));
          expect(parsed.success, `${op.method} ${route}: ${parsed.success ? '' : JSON.stringify(parsed.error.issues.slice(0, 3))}`).toBe(true);
        }
      });
    }
  }

  it('serves nothing that is not in a table', () => {
    const declared = new Set(FAMILIES.flatMap((f) => operationsOf(f)));
    expect(SERVED.filter((s) => !declared.has(s.op)).map((s) => `${s.op.family}.${s.op.name}`)).toEqual([]);
  });
});
