/**
 * The emulator's family list (src/emulator/families.ts) against what the emulator builds from it: every operation
 * of every family table of the client (src/api/families.ts) is served by exactly one family, with its access;
 * every family declares its collections and a seed step (or why it has none); a started emulator's store counts
 * exactly the collections the list declares, and the demo seed fills each family's that has a step.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES as API_FAMILIES } from '../../../src/api/families.js';
import { operationsOf } from '../../../src/api/family.js';
import { FAMILIES } from '../../../src/emulator/families.js';
import { SERVED } from '../../../src/emulator/index.js';
import { startTestEmulator, type TestEmulator } from '../../helpers/index.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 12, bookings: 30, members: 20 });
});
afterAll(async () => {
  await emu?.close();
});

const key = (op: { family: string; name: string }) => `${op.family}.${op.name}`;

describe('the emulator family list', () => {
  it('serves every operation of every client family once, and nothing else', () => {
    const tables = API_FAMILIES.flatMap((f) => operationsOf(f).map(key)).sort();
    const served = FAMILIES.flatMap((f) => f.served.map((s) => key(s.op))).sort();
    expect(served).toEqual(tables);
    expect(new Set(served).size).toBe(served.length);
    expect(SERVED.map((s) => key(s.op)).sort()).toEqual(served);
  });

  it('names each family once; each declares its collections and a seed step, or why it has none', () => {
    const names = FAMILIES.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    for (const f of FAMILIES) {
      expect(f.served.length, f.name).toBeGreaterThan(0);
      if (typeof f.seed === 'string') expect(f.seed.length, f.name).toBeGreaterThan(20);
      else expect(typeof f.seed).toBe('function');
    }
    // Only the account's sites live outside a collection of a family (the store's own table).
    expect(FAMILIES.filter((f) => f.collections.length === 0).map((f) => f.name)).toEqual(['sites']);
  });

  it('the access of a call is the family\'s declaration: a visitor reads public plans, a member reads itself, the rest is the admin\'s', () => {
    const access = Object.fromEntries(SERVED.map((s) => [key(s.op), s.access]));
    expect(access['plans.queryPublicPlans']).toBe('visitor');
    expect(access['members.getCurrentMember']).toBe('member');
    expect(access['members.approveMember'] ?? access['members.updateMember']).toBe('admin');
    expect(Object.values(access).filter((a) => a !== 'admin').length).toBeGreaterThan(10);
  });

  it("a started emulator's store counts the collections the list declares, and the demo fills each family's with a seed step", async () => {
    const state = (await emu.request('GET', '/__emulator/state')).body as { sites: Array<{ id: string; counts: Record<string, number> }> };
    const counts = state.sites.find((s) => s.id === emu.siteId)!.counts;
    const declared = FAMILIES.flatMap((f) => f.collections.map((c) => c.kind)).sort();
    expect(Object.keys(counts).sort()).toEqual(declared);
    for (const f of FAMILIES) {
      if (typeof f.seed !== 'function') continue;
      const seeded = f.collections.filter((c) => (counts[c.kind] ?? 0) > 0).map((c) => c.kind);
      expect(seeded.length, `${f.name}: ${f.collections.map((c) => c.kind).join(', ')}`).toBeGreaterThan(0);
    }
  });
});
