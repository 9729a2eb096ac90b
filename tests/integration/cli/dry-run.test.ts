/**
 * A preview that tells the truth (issue 18 section 3): `--dry-run --json` prints the plan as an array of `{id,
 * outcome, reason?, lift?, before?, after?}`, checks the platform's own answers (extended bookings'
 * `allowedActions`: a booking inside its cancellation window is `refused`, lifted by `--ignore-policy`), and exits
 * 0 whatever it lists.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess, startTestEmulator, type CliResult, type TestEmulator } from '../../helpers/index.js';
import { lastEventSeq } from '../bulk/support.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 8, bookings: 200, members: 10 });
});
afterAll(async () => {
  await emu?.close();
});

const cli = (args: string[]) => runInProcess(args, { emulator: emu });
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const json = (r: CliResult): any => {
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

type Row = { id: string; status: string; allowedActions?: { cancel?: boolean }; multiServiceBookingInfo?: { id?: string } };

async function bookings(): Promise<Row[]> {
  const rows: Row[] = json(await cli(['bookings', 'list', '--all', '--with', 'actions', '--json', 'id,status,allowedActions,multiServiceBookingInfo']));
  return rows.filter((b) => !b.multiServiceBookingInfo?.id && ['CREATED', 'PENDING', 'CONFIRMED'].includes(b.status));
}

describe('--dry-run --json', () => {
  it('lists a booking inside its cancellation window as refused, lifted by --ignore-policy; exit 0, nothing sent', async () => {
    const inside = (await bookings()).find((b) => b.allowedActions?.cancel === false);
    expect(inside, 'the demo data has a booking inside its cancellation window').toBeTruthy();
    const seq = await lastEventSeq(emu);
    const plan = json(await cli(['bookings', 'cancel', inside!.id, '--dry-run', '--json']));
    expect(plan).toEqual([{ id: inside!.id, outcome: 'refused', reason: expect.stringMatching(/booking policy/), lift: '--ignore-policy' }]);
    const lifted = json(await cli(['bookings', 'cancel', inside!.id, '--ignore-policy', '--dry-run', '--json']));
    expect(lifted).toEqual([{ id: inside!.id, outcome: 'change' }]);
    expect(await lastEventSeq(emu)).toBe(seq);
  });

  it('the bulk form lists every item with its outcome', async () => {
    const all = await bookings();
    const inside = all.find((b) => b.allowedActions?.cancel === false)!;
    const free = all.find((b) => b.allowedActions?.cancel === true)!;
    const plan: Array<{ id: string; outcome: string; lift?: string }> = json(await cli(['bookings', 'cancel', '--ids', `${inside.id},${free.id}`, '--dry-run', '--json']));
    expect(plan).toHaveLength(2);
    expect(plan.find((p) => p.id === inside.id)).toMatchObject({ outcome: 'refused', lift: '--ignore-policy' });
    expect(plan.find((p) => p.id === free.id)).toEqual({ id: free.id, outcome: 'change' });
  });

  it('an update lists before and after; one already as asked is unchanged', async () => {
    const [service] = json(await cli(['services', 'list', '--json', 'id,description', '--limit', '1']));
    const plan = json(await cli(['services', 'update', '--ids', service.id, '--set', 'description=dry', '--dry-run', '--json']));
    expect(plan).toEqual([{ id: service.id, outcome: 'change', before: { description: service.description }, after: { description: 'dry' } }]);
    const same = json(await cli(['services', 'update', '--ids', service.id, '--set', `description=${service.description}`, '--dry-run', '--json']));
    expect(same).toEqual([{ id: service.id, outcome: 'unchanged' }]);
  });
});
