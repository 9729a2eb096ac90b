/**
 * Bookable slots of the emulator's demo data for tests that book them: each pick is a slot no earlier pick of
 * the same picker took, so the tests of one file (sharing one emulator) never collide on a slot.
 */
import { expect } from 'vitest';
import type { CliResult } from './cli.js';

/** A slot as `sitectl availability SERVICE --json` prints it. */
export interface PickedSlot {
  startDate: string;
  resource?: { id: string };
}

/**
 * A picker over `run` (the file's CLI runner).
 * @returns `freeSlot(service)`, the first bookable slot of `service` in the next 14 days not taken yet (throws
 *   when none is left), and `taken`, the `resourceId|startDate` keys picked (or added by the test itself)
 */
export function slotPicker(run: (args: string[]) => Promise<CliResult>): { freeSlot(service: string): Promise<PickedSlot>; taken: Set<string> } {
  const taken = new Set<string>();
  async function freeSlot(service: string): Promise<PickedSlot> {
    const r = await run(['availability', service, '--days', '14', '--bookable', '--json']);
    expect(r.code, r.stderr).toBe(0);
    for (const e of JSON.parse(r.stdout) as Array<{ slot: PickedSlot }>) {
      const key = `${e.slot.resource?.id}|${e.slot.startDate}`;
      if (!taken.has(key)) {
        taken.add(key);
        return e.slot;
      }
    }
    throw new Error(`no free slot of ${service}`);
  }
  return { freeSlot, taken };
}
