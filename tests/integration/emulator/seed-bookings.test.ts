/**
 * The seed of bookings (src/emulator/seed/bookings.ts) is consistent by construction: a real SQLite store seeded
 * in-process with thousands of bookings, then checked the way the booking rules would check a new booking.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVE_STATUSES, BOOKINGS, MULTI_SERVICE_BOOKINGS, type BookingDoc } from '../../../src/emulator/bookings/model.js';
import { bufferOf, capacityOf } from '../../../src/emulator/bookings/sessions.js';
import { FAMILIES } from '../../../src/emulator/families.js';
import { seedStore } from '../../../src/emulator/seed/index.js';
import { SERVICES } from '../../../src/emulator/services/model.js';
import { Store } from '../../../src/emulator/store/store.js';

const SITE = 'site-1';
let dir: string;
let store: Store;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sitectl-seed-bookings-'));
  store = new Store(dir);
  const key = { apiKey: 'IST.test', accountId: 'acct', siteId: SITE, sites: [{ id: SITE, name: 'Downtown' }] };
  seedStore(store, key, FAMILIES, { seed: 'demo', size: 60, bookings: 6000, staff: 12 });
});

afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('seed of bookings', () => {
  it('makes the count asked for, in every status', () => {
    const all = [...store.collection(BOOKINGS).at(SITE).all()] as BookingDoc[];
    expect(all).toHaveLength(6000);
    const statuses = new Set(all.map((b) => b.status));
    for (const s of ['CONFIRMED', 'CANCELED', 'CREATED', 'DECLINED', 'WAITING_LIST']) expect(statuses).toContain(s);
  });

  it('never gives a staff member two active appointments at once (buffer included)', () => {
    const services = store.collection(SERVICES).at(SITE);
    const byStaff = new Map<string, Array<[number, number, string]>>();
    for (const b of [...store.collection(BOOKINGS).at(SITE).all()] as BookingDoc[]) {
      const slot = b.bookedEntity?.slot;
      if (!ACTIVE_STATUSES.has(b.status) || !slot?.resource?.id || !b.bookedEntity?.tags?.includes('INDIVIDUAL')) continue;
      const service = services.get(slot.serviceId!)!;
      const list = byStaff.get(slot.resource.id) ?? [];
      list.push([Date.parse(b.startDate), Date.parse(b.endDate) + bufferOf(service) * 60_000, b.id]);
      byStaff.set(slot.resource.id, list);
    }
    expect(byStaff.size).toBeGreaterThan(8);
    for (const list of byStaff.values()) {
      list.sort((a, b) => a[0] - b[0]);
      for (let i = 1; i < list.length; i++) expect(list[i]![0], `${list[i - 1]![2]} and ${list[i]![2]}`).toBeGreaterThanOrEqual(list[i - 1]![1]);
    }
  });

  it('never fills a class session or a course past its capacity', () => {
    const services = store.collection(SERVICES).at(SITE);
    const used = new Map<string, { n: number; capacity: number }>();
    for (const b of [...store.collection(BOOKINGS).at(SITE).all()] as BookingDoc[]) {
      if (!ACTIVE_STATUSES.has(b.status)) continue;
      const key = b.bookedEntity?.schedule?.scheduleId ?? (b.bookedEntity?.tags?.includes('GROUP') ? b.bookedEntity.slot?.eventId : undefined);
      if (!key) continue;
      const serviceId = b.bookedEntity?.schedule?.serviceId ?? b.bookedEntity?.slot?.serviceId;
      const u = used.get(key) ?? { n: 0, capacity: capacityOf(services.get(serviceId!)!) };
      u.n += b.totalParticipants ?? 1;
      used.set(key, u);
    }
    expect(used.size).toBeGreaterThan(50);
    for (const [key, u] of used) expect(u.n, key).toBeLessThanOrEqual(u.capacity);
  });

  it('chains the bookings of each multi-service booking back to back, on one contact', () => {
    const bookings = store.collection(BOOKINGS).at(SITE);
    const groups = [...store.collection(MULTI_SERVICE_BOOKINGS).at(SITE).all()];
    expect(groups.length).toBeGreaterThan(10);
    for (const g of groups) {
      const [a, b] = g.bookingIds.map((id) => bookings.get(id) as BookingDoc);
      expect(b!.startDate).toBe(a!.endDate);
      expect(b!.contactDetails?.email).toBe(a!.contactDetails?.email);
      expect(a!.multiServiceBookingInfo?.id).toBe(g.id);
    }
  });
});
