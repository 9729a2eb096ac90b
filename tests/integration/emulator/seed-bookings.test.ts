/**
 * The seed of bookings (src/emulator/seed/bookings.ts) is consistent by construction: a real SQLite store seeded
 * in-process with thousands of bookings, then checked the way the booking rules would check a new booking.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVE_STATUSES, BOOKINGS, MULTI_SERVICE_BOOKINGS, type BookingDoc } from '../../../src/emulator/bookings/model.js';
import { BOOKING_STEP, bufferOf, candidates, capacityOf, openSpotsOf } from '../../../src/emulator/bookings/sessions.js';
import { calendarOf } from '../../../src/emulator/bookings/model.js';
import { KEPT_FREE, KEPT_PLACES } from '../../../src/emulator/seed/catalog.js';
import { FAMILIES } from '../../../src/emulator/families.js';
import { seedStore } from '../../../src/emulator/seed/index.js';
import { SERVICES } from '../../../src/emulator/services/model.js';
import { Store } from '../../../src/emulator/store/store.js';

const SITE = 'site-1';
const KEY = { apiKey: 'IST.test', accountId: 'acct', siteId: SITE, sites: [{ id: SITE, name: 'Downtown' }] };
const DAY = 86_400_000;
let dir: string;
let store: Store;

/** A new store in its own directory, seeded with `opts`; the lines the seed told. */
function seeded(opts: Parameters<typeof seedStore>[3]): { store: Store; lines: string[]; base: number; done: () => void } {
  const d = mkdtempSync(join(tmpdir(), 'sitectl-seed-bookings-'));
  const s = new Store(d);
  const lines: string[] = [];
  seedStore(s, KEY, FAMILIES, opts, (line) => lines.push(line));
  return {
    store: s,
    lines,
    base: Date.parse(s.getMeta('seededAt')!),
    done: () => {
      s.close();
      rmSync(d, { recursive: true, force: true });
    },
  };
}

/** Active appointments per staff member as [start, end + buffer, id], sorted by start. */
function appointmentsByStaff(s: Store): Map<string, Array<[number, number, string]>> {
  const services = s.collection(SERVICES).at(SITE);
  const byStaff = new Map<string, Array<[number, number, string]>>();
  for (const b of [...s.collection(BOOKINGS).at(SITE).all()] as BookingDoc[]) {
    const slot = b.bookedEntity?.slot;
    if (!ACTIVE_STATUSES.has(b.status) || !slot?.resource?.id || !b.bookedEntity?.tags?.includes('INDIVIDUAL')) continue;
    const service = services.get(slot.serviceId!)!;
    const list = byStaff.get(slot.resource.id) ?? [];
    list.push([Date.parse(b.startDate), Date.parse(b.endDate) + bufferOf(service) * 60_000, b.id]);
    byStaff.set(slot.resource.id, list);
  }
  for (const list of byStaff.values()) list.sort((a, b) => a[0] - b[0]);
  return byStaff;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sitectl-seed-bookings-'));
  store = new Store(dir);
  seedStore(store, KEY, FAMILIES, { seed: 'demo', size: 60, bookings: 6000, staff: 12 });
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
    const byStaff = appointmentsByStaff(store);
    expect(byStaff.size).toBeGreaterThan(8);
    for (const list of byStaff.values()) {
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

describe('where the seed puts bookings', () => {
  it('within --window days either side of the seed hour', () => {
    const { store: s, base, done } = seeded({ seed: 'demo', bookings: 1500, window: 7 });
    try {
      const slots = ([...s.collection(BOOKINGS).at(SITE).all()] as BookingDoc[]).filter((b) => b.bookedEntity?.slot);
      expect(slots.length).toBeGreaterThan(1000);
      // Each takes place in the window (a session at its edge may start before it and end inside; the second part
      // of a multi-service booking starts when the first ends, which may be after it).
      for (const b of slots) {
        expect(Date.parse(b.endDate), b.id).toBeGreaterThan(base - 7 * DAY);
        if (!b.multiServiceBookingInfo) expect(Date.parse(b.startDate), b.id).toBeLessThan(base + 7 * DAY);
      }
      expect(s.getMeta('seedWindow')).toBe('7');
    } finally {
      done();
    }
  });

  it("a busy week: 90 % of the staff's appointment time in the next 7 days booked, every class session full", () => {
    const { store: s, base, lines, done } = seeded({ seed: 'demo', bookings: 300, staff: 24, busyWeek: true });
    try {
      const end = base + 7 * DAY;
      const cal = calendarOf({ db: (def) => s.collection(def).at(SITE), now: new Date(base).toISOString() });
      const services = [...cal.catalog.services.all()];
      // Consistent: no staff member is booked twice at once.
      const byStaff = appointmentsByStaff(s);
      for (const list of byStaff.values()) for (let i = 1; i < list.length; i++) expect(list[i]![0], list[i]![2]).toBeGreaterThanOrEqual(list[i - 1]![1]);
      // Fill: of the 15-minute steps where an appointment of theirs could start (hours, teaching, time off),
      // the share inside a booking (buffer included).
      let open = 0;
      let booked = 0;
      const points = new Map<string, Set<number>>();
      for (const service of services.filter((x) => x.type === 'APPOINTMENT')) {
        for (const c of candidates(cal, service, base, end, { step: BOOKING_STEP, ignoreBookings: true })) {
          if (c.start < base || c.end > end) continue;
          const set = points.get(c.staff!.id) ?? new Set<number>();
          set.add(c.start);
          points.set(c.staff!.id, set);
        }
      }
      for (const [staffId, set] of points) {
        const list = byStaff.get(staffId) ?? [];
        for (const p of set) {
          open++;
          if (list.some(([a, b]) => a <= p && p < b)) booked++;
        }
      }
      expect(booked / open).toBeGreaterThan(0.85);
      expect(booked / open).toBeLessThan(0.95);
      // Every class session of the week is full (a kept-free class keeps its places open).
      const kept = new Set(KEPT_FREE.map((k) => k.service));
      let sessions = 0;
      for (const service of services.filter((x) => x.type === 'CLASS')) {
        for (const c of candidates(cal, service, base, end)) {
          if (c.start < base) continue;
          sessions++;
          expect(openSpotsOf(cal, c), `${service.name} ${new Date(c.start).toISOString()}`).toBe(kept.has(service.name) ? Math.min(KEPT_PLACES, capacityOf(service)) : 0);
        }
      }
      expect(sessions).toBeGreaterThan(5);
      expect(lines.some((l) => /^busy week: [\d,]+ appointments placed/.test(l))).toBe(true);
      expect(s.getMeta('seedBusyWeek')).toBe('1');
    } finally {
      done();
    }
  });
});
