/**
 * Staff domain events (docs/wire.md §24 lists staff created, updated, deleted, ...) outside the staff writes
 * (tests/integration/cli/staff.test.ts covers those): a site added to the account has its staff created, recorded
 * as `staff.created`; a reseed is the starting state, so the event log starts empty.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', bookings: 0 });
});
afterAll(async () => {
  await emu?.close();
});

type Event = { seq: number; siteId: string; type: string; entityId: string; entity: Record<string, unknown> };

describe('staff events', () => {
  it('records staff.created for each staff member of a site added to the account, as the staff query shows it', async () => {
    const before = (await emu.request('GET', '/__emulator/state')).body.events.lastSeq;
    const made = await emu.request('POST', '/__emulator/sites', { name: 'Staff Events' });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const site = made.body.site.id;
    // The new site's events: the feed answers the site asked about (site=), not the one the key is sent for.
    const events = (await emu.request('GET', `/__emulator/events?after=${before}&limit=100&site=${site}`)).body.events as Event[];
    const staffEvents = events.filter((e) => e.type.startsWith('staff.'));
    const res = await fetch(`${emu.url}/bookings/v1/staff-members/query`, {
      method: 'POST',
      headers: { authorization: emu.apiKey, 'wix-site-id': site, 'content-type': 'application/json' },
      body: JSON.stringify({ query: { cursorPaging: { limit: 100 } } }),
    });
    const staff = ((await res.json()) as { staffMembers: Array<Record<string, unknown> & { id: string }> }).staffMembers;
    expect(staff.length).toBeGreaterThanOrEqual(8);
    expect(staffEvents.map((e) => [e.type, e.siteId])).toEqual(staff.map(() => ['staff.created', site]));
    expect(staffEvents.map((e) => e.entityId).sort()).toEqual(staff.map((s) => s.id).sort());
    for (const e of staffEvents) {
      expect(e.entity).toEqual(staff.find((s) => s.id === e.entityId));
      expect(e.entity).not.toHaveProperty('workingHours');
    }
    await emu.request('DELETE', `/__emulator/sites/${site}`);
  });

  it('records no staff event for a reseed: the seed is the starting state of an empty event log', async () => {
    expect((await emu.request('POST', '/__emulator/reset', { seed: 'demo', bookings: 0 })).status).toBe(200);
    const events = (await emu.request('GET', '/__emulator/events?after=0&limit=1000')).body.events as Event[];
    expect(events.filter((e) => e.type.startsWith('staff.'))).toEqual([]);
  });
});
