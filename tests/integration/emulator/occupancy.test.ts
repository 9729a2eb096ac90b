/**
 * The occupancy index (src/emulator/bookings/sessions.ts) is built once per site and then updated booking by
 * booking: no write rebuilds it from every booking (the cost that made writes on a site of 100,000 bookings 50x
 * slower than on the demo site), and what it holds after any mix of writes, rollbacks included, is what a build
 * from the stored bookings gives. A real SQLite store, seeded and written in-process; times come from the store's
 * clock, so the checks hold at any hour and zone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BookingDoc, type Calendar, calendarOf } from '../../../src/emulator/bookings/model.js';
import { cancelBooking, confirmBooking, createBooking, rescheduleBooking, updateNumberOfParticipants } from '../../../src/emulator/bookings/rules.js';
import { candidates, type Occupancy, occupancyBuildCount, occupancyOf, takenSpots } from '../../../src/emulator/bookings/sessions.js';
import { DAY } from '../../../src/emulator/bookings/time.js';
import { bulkReply } from '../../../src/emulator/bulk.js';
import { ApplicationFailure } from '../../../src/emulator/errors.js';
import { FAMILIES } from '../../../src/emulator/families.js';
import { seedStore } from '../../../src/emulator/seed/index.js';
import { Store } from '../../../src/emulator/store/store.js';

const SITE = 'site-1';
const KEY = { apiKey: 'IST.test', accountId: 'acct', siteId: SITE, sites: [{ id: SITE, name: 'Downtown' }] };
let dir: string;
let store: Store;

const calendar = (s: Store): Calendar => {
  const now = s.clock.nowIso();
  return calendarOf({ db: (def) => s.collection(def).at(SITE), now, principal: { accountId: 'acct' } });
};

/** The occupancy in a comparable form: staff intervals ordered by start then booking id. */
function snapshot(o: Occupancy) {
  const sorted = <V>(m: Map<string, V>) => [...m.entries()].sort((a, b) => a[0].localeCompare(b[0]));
  return {
    session: sorted(o.session),
    waiting: sorted(o.waiting),
    course: sorted(o.course),
    staff: sorted(o.staff).map(([id, list]) => [id, [...list].sort((a, b) => a[0] - b[0] || String(a[2]).localeCompare(String(b[2])))]),
  };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sitectl-occupancy-'));
  store = new Store(dir);
  seedStore(store, KEY, FAMILIES, { seed: 'demo', size: 60, bookings: 800, staff: 12 });
});

afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('occupancy index', () => {
  it('is built once, then kept up to date by every kind of booking write without a rebuild', () => {
    const cal = calendar(store);
    const services = [...cal.catalog.services.all()];
    const appointment = services.find((s) => s.type === 'APPOINTMENT' && (s.staffMemberIds?.length ?? 0) > 1)!;
    const from = cal.nowMs + DAY;
    const to = from + 6 * DAY;

    const builds = occupancyBuildCount();
    const free = candidates(cal, appointment, from, to); // the first read builds the index
    expect(occupancyBuildCount()).toBe(builds + 1);
    expect(free.length).toBeGreaterThan(12);

    const slot = (c: (typeof free)[number]) => ({ serviceId: c.service.id, startDate: new Date(c.start).toISOString(), resource: { id: c.staff!.id } });
    const contact = (i: number) => ({ firstName: 'Occ', lastName: `Test ${i}`, email: `occ.${i}@example.com` });
    const made: BookingDoc[] = [];
    // Every fourth free slot: no two touch, whatever the buffer.
    for (let i = 0; i < 12; i++) {
      const c = free[i * Math.floor(free.length / 12)]!;
      made.push(store.tx(() => createBooking(cal, { bookedEntity: { slot: slot(c) }, contactDetails: contact(i) } as never, { prefix: 'booking' })));
      expect(candidates(cal, appointment, c.start, c.end).some((x) => x.start === c.start && x.staff?.id === c.staff?.id), `slot ${i} is taken`).toBe(false);
    }
    // Confirm, cancel (the place is free again), reschedule (old place free, new one taken).
    store.tx(() => confirmBooking(cal, made[0]!.id, {}));
    const cancelled = made[1]!;
    store.tx(() => cancelBooking(cal, cancelled.id, { ignorePolicy: true }));
    const start1 = Date.parse(cancelled.startDate);
    expect(candidates(cal, appointment, start1, Date.parse(cancelled.endDate)).some((x) => x.start === start1 && x.staff?.id === cancelled.bookedEntity.slot?.resource?.id)).toBe(true);
    const moving = made[2]!;
    store.tx(() => rescheduleBooking(cal, moving.id, { ...slot(free.find((c) => c.start === start1 && c.staff?.id === cancelled.bookedEntity.slot?.resource?.id)!) }, { ignorePolicy: true }));

    // A class session: two bookings, then one more participant on the first.
    const session = services
      .filter((s) => s.type === 'CLASS' && s.name !== 'Vinyasa Flow Yoga')
      .flatMap((s) => candidates(cal, s, from, to))
      .find((c) => c.capacity - takenSpots(cal, c) >= 5)!;
    const taken = takenSpots(cal, session);
    const classSlot = { serviceId: session.service.id, startDate: new Date(session.start).toISOString() };
    const a = store.tx(() => createBooking(cal, { bookedEntity: { slot: classSlot }, contactDetails: contact(100) } as never, { prefix: 'booking' }));
    store.tx(() => createBooking(cal, { bookedEntity: { slot: classSlot }, totalParticipants: 2, contactDetails: contact(101) } as never, { prefix: 'booking' }));
    store.tx(() => updateNumberOfParticipants(cal, a.id, { totalParticipants: 2 }));
    expect(takenSpots(cal, session)).toBe(taken + 4);

    // A bulk call whose second item fails after writing (its savepoint rolls back), and a whole transaction that
    // rolls back after a write: what they wrote leaves the index as it leaves the store.
    const extra = free[free.length - 1]!;
    const reply = store.tx(() =>
      bulkReply(store, [0, 1], false, () => undefined, (i) => {
        const b = createBooking(cal, { bookedEntity: { slot: slot(i === 0 ? free[free.length - 3]! : extra) }, contactDetails: contact(200 + i) } as never, { prefix: 'booking' });
        if (i === 1) throw new ApplicationFailure(409, 'TEST_FAILURE', 'item fails after its write');
        return b;
      }),
    );
    expect(reply.bulkActionMetadata).toMatchObject({ totalSuccesses: 1, totalFailures: 1 });
    expect(() =>
      store.tx(() => {
        cancelBooking(cal, made[3]!.id, { ignorePolicy: true });
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    expect(candidates(cal, appointment, extra.start, extra.end).some((x) => x.start === extra.start && x.staff?.id === extra.staff?.id)).toBe(true);

    // No write rebuilt it: still the one build of the first read.
    expect(occupancyBuildCount()).toBe(builds + 1);

    // And it holds what a build from the stored bookings holds (a second store on the same file builds afresh).
    const fresh = new Store(dir);
    try {
      expect(snapshot(occupancyOf(calendar(fresh)))).toEqual(snapshot(occupancyOf(cal)));
      expect(occupancyBuildCount()).toBe(builds + 2);
    } finally {
      fresh.close();
    }
  });
});
