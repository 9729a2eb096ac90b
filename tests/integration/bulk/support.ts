/**
 * Shared checks of the bulk tests: every service of the emulator, the UPDATED events per service id (the
 * emulator records one domain event per committed change, so "exactly once" is countable).
 */
import type { TestEmulator } from '../../helpers/emulator.js';

export interface WireService {
  id: string;
  revision: string;
  name?: string;
  description?: string;
  [key: string]: unknown;
}

/** Every service, by id (offset pages of 100 sorted by id). Call with faults off. */
export async function allServices(emu: TestEmulator): Promise<Map<string, WireService>> {
  const out = new Map<string, WireService>();
  for (let offset = 0; ; offset += 100) {
    const r = await emu.request('POST', '/_api/bookings/v2/services/query', {
      query: { paging: { limit: 100, offset }, sort: [{ fieldName: 'id', order: 'ASC' }] },
    });
    if (r.status !== 200) throw new Error(`query failed: ${r.status} ${JSON.stringify(r.body)}`);
    for (const s of r.body.services as WireService[]) out.set(s.id, s);
    if (r.body.services.length < 100) return out;
  }
}

/** `service.updated` events per service id since `afterSeq`. */
export async function updatesPerService(emu: TestEmulator, afterSeq: number): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const e of await eventsAfter(emu, afterSeq)) {
    if (e.type === 'service.updated') counts.set(e.entityId, (counts.get(e.entityId) ?? 0) + 1);
  }
  return counts;
}

/** Domain events after `afterSeq`, all pages. */
export interface EmulatorEvent {
  seq: number;
  type: string;
  entityId: string;
}

export async function eventsAfter(emu: TestEmulator, afterSeq: number): Promise<EmulatorEvent[]> {
  const out: EmulatorEvent[] = [];
  let after = afterSeq;
  for (;;) {
    const r = await emu.request('GET', `/__emulator/events?after=${after}&limit=1000`);
    if (r.status !== 200) throw new Error(`events failed: ${r.status} ${JSON.stringify(r.body)}`);
    out.push(...r.body.events);
    if (r.body.events.length < 1000) return out;
    after = r.body.lastSeq;
  }
}

/** The highest event sequence number so far. */
export async function lastEventSeq(emu: TestEmulator): Promise<number> {
  let after = 0;
  for (;;) {
    const r = await emu.request('GET', `/__emulator/events?after=${after}&limit=1000`);
    if (r.body.events.length === 0) return after;
    after = r.body.lastSeq;
  }
}

/** Sets the emulator's faults through the control plane (never faulted itself). */
export async function setFaults(emu: TestEmulator, faults: Record<string, unknown>): Promise<void> {
  const r = await emu.request('PUT', '/__emulator/faults', faults);
  if (r.status !== 200) throw new Error(`faults failed: ${r.status} ${JSON.stringify(r.body)}`);
}
