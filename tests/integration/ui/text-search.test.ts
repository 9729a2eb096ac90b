/**
 * What free text after `/` sends to the platform, per noun (EntityView.textSearch), against a real emulator
 * (port 0) through the real ApiClient: bookings search only a whole contact e-mail (the platform's filter has no
 * text operator on a contact, docs/wire.md §17), orders find their buyers through the members' search
 * (docs/wire.md §20). The rows are the file's own (a surname no demo record has).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { listPages, items } from '../../../src/api/paging.js';
import { listParamsOf, wireFilter, type EntityView } from '../../../src/commands/shared/entity-view.js';
import { BOOKING_VIEW, CONTACT_EMAIL } from '../../../src/commands/bookings/shared/view.js';
import { ORDER_VIEW } from '../../../src/commands/orders/shared/view.js';
import { createCliSandbox, makeStudio, runInProcess, startTestEmulator, type CliSandbox, type TestEmulator } from '../../helpers/index.js';

let emu: TestEmulator;
let sandbox: CliSandbox;
let api: ApiClient;
const SURNAME = 'Textsearchowska';
const EMAIL = 'text-search-own@example.com';
let booking = '';
const buyers: string[] = [];
const orders: string[] = [];

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo' });
  sandbox = createCliSandbox();
  api = new ApiClient({ baseUrl: emu.url, credentials: { kind: 'apiKey', apiKey: emu.apiKey, siteId: emu.siteId } });
  const run = (args: string[]) => runInProcess(args, { emulator: emu, sandbox });
  const studio = await makeStudio((args, o) => runInProcess(args, { emulator: emu, sandbox, ...o }), 'textsearch');
  const service = await studio.appointment();
  booking = (await studio.book(service.name, { firstName: 'Ola', lastName: SURNAME, email: EMAIL })).id;
  for (const first of ['Ala', 'Ela']) {
    const made = await run(['members', 'create', '--email', `${first.toLowerCase()}-${SURNAME.toLowerCase()}@example.com`, '--first-name', first, '--last-name', SURNAME]);
    expect(made.code, made.stderr).toBe(0);
    buyers.push(made.stdout.trim());
    const order = await run(['checkout', 'offline', 'Silver 12 Months', '--member', made.stdout.trim()]);
    expect(order.code, order.stderr).toBe(0);
    orders.push(order.stdout.trim());
  }
}, 120_000);
afterAll(async () => {
  await emu?.close();
  sandbox?.cleanup();
});

/** Every entity of `view`'s query for a text, as the interactive list reads it (filter ANDed, parameters sent). */
async function searched(view: EntityView<unknown>, text: string): Promise<string[]> {
  const ctl = new AbortController();
  const found = await view.textSearch!.query(text, api, ctl.signal);
  const filter = found.filter;
  const selected = listParamsOf(view, filter);
  if (selected === null) return [];
  const params = { ...view.params, ...found.params, ...(selected ?? {}) };
  const out: string[] = [];
  for await (const item of items(listPages(api, view.query, { filter: wireFilter(view, filter), params, signal: ctl.signal }))) {
    const e = (view.fromItem ? view.fromItem(item) : item) as { id: string };
    out.push(e.id);
  }
  return out;
}

describe('free text searched on the server (/ in browse and the dashboard)', () => {
  it('bookings: a whole contact e-mail is searched (as --contact), over every booking; a name is not sent', async () => {
    expect(CONTACT_EMAIL.test(EMAIL)).toBe(true);
    expect(CONTACT_EMAIL.test(SURNAME)).toBe(false);
    expect(CONTACT_EMAIL.test('text-search-own@example')).toBe(false);
    expect(BOOKING_VIEW.textSearch!.when).toBe(CONTACT_EMAIL);
    expect(await searched(BOOKING_VIEW as EntityView<unknown>, EMAIL)).toEqual([booking]);
    // The platform matches the address whole: a part of it finds nothing.
    expect(await searched(BOOKING_VIEW as EntityView<unknown>, 'own@example.com')).toEqual([]);
  });

  it("orders: the buyers the members' search finds, their orders only; nobody found lists nothing; too many is refused", async () => {
    expect((await searched(ORDER_VIEW as EntityView<unknown>, SURNAME)).sort()).toEqual([...orders].sort());
    expect(await searched(ORDER_VIEW as EntityView<unknown>, 'ala-textsearchowska@example.com')).toEqual([orders[0]]);
    expect(await searched(ORDER_VIEW as EntityView<unknown>, 'Nobody Like This Textsearch')).toEqual([]);
    await expect(ORDER_VIEW.textSearch!.query('a', api, new AbortController().signal)).rejects.toThrow(/more than 100 members match "a"/);
  });
});
