/**
 * A studio of the test's own (a test makes what it needs; docs/contracts.md "Tests and time"): staff members who
 * work every day around the clock on the emulator's site, and services that only they give, so a slot, a chain
 * or an open class exists at any hour of any day, in any zone and across a daylight-saving change, and nothing
 * of the demo data takes it. Made through the CLI under test (`staff create`, `staff hours set`, `services
 * create --file -`), on whatever runner the test file uses.
 *
 * Slots are handed out from two days ahead (outside the default policy's 24-hour cancellation window, inside its
 * 30-day booking window) and never overlap one another, whatever service or staff member they are for, so the
 * bookings of one file never collide, whether they name a staff member or let the emulator choose one.
 */
import { expect } from 'vitest';
import type { CliResult } from './cli.js';

/** Runs `sitectl ...args` (with `input` on stdin) the way the test file does: in process or as a child. */
export type Runner = (args: string[], opts?: { input?: string }) => Promise<CliResult>;

/** A slot as `sitectl availability SERVICE --json` prints it. */
export interface StudioSlot {
  startDate: string;
  endDate: string;
  resource?: { id: string; name?: string };
}

export interface Studio {
  /** The staff members' ids (each works every day, 00:00-24:00 on the site's clock). */
  staff: string[];
  /**
   * A new appointment service given by the studio's staff (all of them unless `staff` names some by index).
   * @returns its name (unique, the studio's tag is in it, unless `name` gives one) and id
   */
  appointment(opts?: { name?: string; minutes?: number; bufferMinutes?: number; staff?: number[]; requireManualApproval?: boolean }): Promise<{ name: string; id: string }>;
  /** A new class taught by the first staff member: one session a week, the first one at `first` (default: a slot's time). */
  klass(opts?: { capacity?: number; minutes?: number; first?: Date }): Promise<{ name: string; id: string; firstSession: string }>;
  /**
   * The next slot of `service` (a name or id of the studio's) that no earlier call handed out: at least two days
   * ahead, or with `soon` between two and twenty hours ahead (bookable under the default policy, but inside its
   * 24-hour cancellation window).
   */
  slot(service: string, opts?: { staff?: string; soon?: boolean }): Promise<StudioSlot>;
  /**
   * A stretch of `hours` (default 24) that no slot is handed out in, for a test that looks for its own times
   * there (`availability multislot --from`): its start, ISO.
   */
  reserve(hours?: number): string;
  /** A booking of a new slot of `service` for `email` (CREATED unless `confirmed`): its id and slot. */
  book(service: string, opts?: { email?: string; firstName?: string; lastName?: string; confirmed?: boolean; participants?: number; soon?: boolean }): Promise<{ id: string; slot: StudioSlot }>;
}

const HOUR = 3_600_000;
let studios = 0;

/**
 * Makes the studio: `staffCount` staff members (default 2) working every day around the clock.
 * @param run the file's CLI runner
 * @param tag a word naming the test file, in every name the studio makes (`Studio one-item 1 Cut 3`)
 */
export async function makeStudio(run: Runner, tag: string, staffCount = 2): Promise<Studio> {
  const prefix = `Studio ${tag} ${++studios}`;
  const ok = async (args: string[], input?: string): Promise<string> => {
    const r = await run(args, input === undefined ? undefined : { input });
    expect(r.code, `sitectl ${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r.stdout.trim();
  };
  const staff: string[] = [];
  for (let i = 0; i < staffCount; i++) {
    const id = await ok(['staff', 'create', '--name', `${prefix} Staff ${String.fromCharCode(65 + i)}`]);
    await ok(['staff', 'hours', 'set', id, '--day', 'mon,tue,wed,thu,fri,sat,sun', '--from', '00:00', '--to', '24:00']);
    staff.push(id);
  }
  let services = 0;
  // Every slot handed out starts at or after this instant: two days from now, then past the last one's end.
  let cursor = Date.now() + 48 * HOUR;
  // Slots handed out with `soon` start here, and end twenty hours from when the studio was made.
  let soonCursor = Date.now() + 2 * HOUR;
  const soonEnd = Date.now() + 20 * HOUR;

  const create = async (service: Record<string, unknown>): Promise<string> => ok(['services', 'create', '--file', '-'], JSON.stringify(service));
  const studio: Studio = {
    staff,
    async appointment(opts = {}) {
      const name = opts.name ?? `${prefix} Appointment ${++services}`;
      const id = await create({
        name,
        type: 'APPOINTMENT',
        staffMemberIds: (opts.staff ?? staff.map((_, i) => i)).map((i) => staff[i]!),
        payment: { rateType: 'FIXED', fixed: { price: { value: '40', currency: 'USD' } }, options: { online: false, inPerson: true } },
        onlineBooking: { enabled: true, requireManualApproval: opts.requireManualApproval ?? false },
        schedule: { availabilityConstraints: { sessionDurations: [opts.minutes ?? 60], timeBetweenSessions: opts.bufferMinutes ?? 0 } },
      });
      return { name, id };
    },
    async klass(opts = {}) {
      const name = `${prefix} Class ${++services}`;
      const first = opts.first ?? new Date(Math.ceil(cursor / HOUR) * HOUR);
      cursor = Math.max(cursor, first.getTime() + (opts.minutes ?? 60) * 60_000);
      const id = await create({
        name,
        type: 'CLASS',
        defaultCapacity: opts.capacity ?? 10,
        staffMemberIds: [staff[0]!],
        payment: { rateType: 'FIXED', fixed: { price: { value: '20', currency: 'USD' } }, options: { online: false, inPerson: true } },
        onlineBooking: { enabled: true },
        schedule: { firstSessionStart: first.toISOString(), availabilityConstraints: { sessionDurations: [opts.minutes ?? 60] } },
      });
      return { name, id, firstSession: first.toISOString() };
    },
    async slot(service, opts = {}) {
      const from = opts.soon ? soonCursor : cursor;
      const args = ['availability', service, '--from', new Date(from).toISOString(), '--days', opts.soon ? '1' : '8', '--bookable', '--json'];
      if (opts.staff) args.push('--staff', opts.staff);
      const entries = JSON.parse(await ok(args)) as Array<{ slot: StudioSlot }>;
      const next = entries.map((e) => e.slot).find((s) => Date.parse(s.startDate) >= from && (!opts.soon || Date.parse(s.endDate) <= soonEnd));
      if (!next) throw new Error(`the studio has no slot of ${service} after ${new Date(from).toISOString()}${opts.soon ? ' within twenty hours' : ''}`);
      // An hour past its end: room for a buffer and for a reschedule by a few minutes.
      if (opts.soon) soonCursor = Date.parse(next.endDate) + HOUR;
      else cursor = Date.parse(next.endDate) + HOUR;
      return next;
    },
    reserve(hours = 24) {
      const from = Math.ceil(cursor / HOUR) * HOUR;
      cursor = from + hours * HOUR;
      return new Date(from).toISOString();
    },
    async book(service, opts = {}) {
      const slot = await studio.slot(service, { soon: opts.soon });
      const args = ['bookings', 'create', '--service', service, '--start', slot.startDate, '--email', opts.email ?? 'studio@example.com'];
      if (opts.firstName) args.push('--first-name', opts.firstName);
      if (opts.lastName) args.push('--last-name', opts.lastName);
      if (opts.confirmed) args.push('--confirmed');
      if (opts.participants) args.push('--participants', String(opts.participants));
      return { id: await ok(args), slot };
    },
  };
  return studio;
}
