/**
 * A preview that tells the truth (docs/architecture.md "The confirmation rule"): `--dry-run --json` prints the
 * plan as an array of `{id, outcome, reason?, lift?, before?, after?}`, checks the platform's own answers
 * (extended bookings' `allowedActions`: a booking inside its cancellation window is `refused`, lifted by
 * `--ignore-policy`), and exits 0 whatever it lists.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess, startTestEmulator, type TestEmulator } from '../../helpers/index.js';
import { makeStudio, type Studio } from '../../helpers/studio.js';
import { lastEventSeq } from '../bulk/support.js';
import { okJson } from '../../helpers/cli.js';

let emu: TestEmulator;
/** The file's own staff and an appointment of theirs: the bookings previewed here are made here, at any hour. */
let studio: Studio;
let appointment: string;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 8, bookings: 200, members: 10 });
  studio = await makeStudio((args, o) => cli(args, o), 'dry-run');
  appointment = (await studio.appointment()).name;
});
afterAll(async () => {
  await emu?.close();
});

const cli = (args: string[], opts: { input?: string } = {}) => runInProcess(args, { emulator: emu, ...opts });
const json = okJson;

/**
 * The id of a new booking of the studio's appointment, inside its policy's 24-hour cancellation window (`inside`)
 * or outside it, as the platform's own allowed actions say.
 */
async function booking(inside: boolean): Promise<string> {
  const { id } = await studio.book(appointment, { soon: inside, email: 'dry-run@example.com' });
  expect(json(await cli(['bookings', 'actions', id, '--json']))[0]).toMatchObject({ cancel: !inside });
  return id;
}

describe('--dry-run --json', () => {
  it('lists a booking inside its cancellation window as refused, lifted by --ignore-policy; exit 0, nothing sent', async () => {
    const inside = await booking(true);
    const seq = await lastEventSeq(emu);
    const plan = json(await cli(['bookings', 'cancel', inside, '--dry-run', '--json']));
    expect(plan).toEqual([{ id: inside, outcome: 'refused', reason: expect.stringMatching(/booking policy/), lift: '--ignore-policy' }]);
    const lifted = json(await cli(['bookings', 'cancel', inside, '--ignore-policy', '--dry-run', '--json']));
    expect(lifted).toEqual([{ id: inside, outcome: 'change' }]);
    expect(await lastEventSeq(emu)).toBe(seq);
  });

  it('the bulk form lists every item with its outcome', async () => {
    const [inside, free] = [await booking(true), await booking(false)];
    const plan: Array<{ id: string; outcome: string; lift?: string }> = json(await cli(['bookings', 'cancel', '--ids', `${inside},${free}`, '--dry-run', '--json']));
    expect(plan).toHaveLength(2);
    expect(plan.find((p) => p.id === inside)).toMatchObject({ outcome: 'refused', lift: '--ignore-policy' });
    expect(plan.find((p) => p.id === free)).toEqual({ id: free, outcome: 'change' });
  });

  it('an update lists before and after; one already as asked is unchanged', async () => {
    const [service] = json(await cli(['services', 'list', '--json', 'id,description', '--limit', '1']));
    const plan = json(await cli(['services', 'update', '--ids', service.id, '--set', 'description=dry', '--dry-run', '--json']));
    expect(plan).toEqual([{ id: service.id, outcome: 'change', before: { description: service.description }, after: { description: 'dry' } }]);
    const same = json(await cli(['services', 'update', '--ids', service.id, '--set', `description=${service.description}`, '--dry-run', '--json']));
    expect(same).toEqual([{ id: service.id, outcome: 'unchanged' }]);
  });
});
