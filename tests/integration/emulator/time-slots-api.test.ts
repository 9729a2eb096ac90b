/**
 * The Time Slots API on a real emulator (port 0), over HTTP as any client sends it (docs/wire.md "Time slots"):
 * the refusals (a missing service or date, an offset where a local date goes, a range backwards, a cursor that is
 * not one, an unknown zone, a staff filter of another resource type, a location the service is not at), and a
 * cursor that carries its query whatever the follow-up sends beside it. On a studio of the file's own, the
 * emulator's clock frozen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAFF_RESOURCE_TYPE_ID } from '../../../src/api/schemas/time-slot.js';
import { runInProcess, startTestEmulator, type TestEmulator } from '../../helpers/index.js';
import { makeStudio, type Studio } from '../../helpers/studio.js';

let emu: TestEmulator;
let studio: Studio;
let serviceId: string;
const HOUR = 3_600_000;
const PATH = '/_api/service-availability/v2/time-slots';

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 10, bookings: 0 });
  await emu.request('PUT', '/__emulator/clock', { frozen: true });
  studio = await makeStudio((args, o) => runInProcess(args, { emulator: emu, ...o }), 'time-slots-api');
  serviceId = (await studio.appointment({ minutes: 60 })).id;
});
afterAll(async () => {
  await emu?.close();
});

const local = (ms: number) => new Date(ms).toISOString().slice(0, 19);

/** A window of `hours` no other test of the file uses, as the list's request. */
function windowOf(hours: number) {
  const from = Date.parse(studio.reserve(hours));
  return { serviceId, fromLocalDate: local(from), toLocalDate: local(from + hours * HOUR), timeZone: 'UTC' };
}

/** The field violations of a 400 reply. */
async function refused(path: string, body: unknown): Promise<Array<{ field: string; violatedRule?: string }>> {
  const r = await emu.request('POST', path, body);
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  return r.body.details?.validationError?.fieldViolations ?? [];
}

describe('the Time Slots API', () => {
  it('refuses a request it cannot answer, naming the field', async () => {
    const w = windowOf(4);
    expect(await refused(PATH, { ...w, serviceId: undefined })).toMatchObject([{ field: 'serviceId', violatedRule: 'REQUIRED_FIELD' }]);
    expect(await refused(PATH, { ...w, toLocalDate: undefined })).toMatchObject([{ field: 'toLocalDate', violatedRule: 'REQUIRED_FIELD' }]);
    expect((await refused(PATH, { ...w, fromLocalDate: `${w.fromLocalDate}Z` }))[0]!.field).toBe('fromLocalDate');
    expect(await refused(PATH, { ...w, toLocalDate: w.fromLocalDate })).toMatchObject([{ field: 'toLocalDate' }]);
    expect(await refused(PATH, { ...w, timeZone: 'Mars/Olympus' })).toMatchObject([{ field: 'timeZone' }]);
    expect(await refused(PATH, { cursorPaging: { cursor: 'not-a-cursor' } })).toMatchObject([{ field: 'cursorPaging.cursor', violatedRule: 'INVALID_CURSOR' }]);
    expect((await refused(PATH, { ...w, cursorPaging: { limit: 1001 } }))[0]!.field).toBe('cursorPaging.limit');
  });

  it('a resource type other than the staff matches no slot; the staff type lists the staff (up to 10) without being asked per id', async () => {
    const w = windowOf(4);
    const other = await emu.request('POST', PATH, { ...w, resourceTypes: [{ resourceTypeId: '11111111-1111-4111-8111-111111111111' }] });
    expect(other.status).toBe(200);
    expect(other.body.timeSlots).toEqual([]);
    const plain = await emu.request('POST', PATH, w);
    expect(plain.body.timeSlots).toHaveLength(4);
    expect(plain.body.timeSlots[0].availableResources).toEqual([]);
    const named = await emu.request('POST', PATH, { ...w, includeResourceTypeIds: [STAFF_RESOURCE_TYPE_ID] });
    expect(named.body.timeSlots[0].availableResources).toEqual([
      { resourceTypeId: STAFF_RESOURCE_TYPE_ID, resources: expect.arrayContaining(studio.staff.map((id) => expect.objectContaining({ id }))), hasMoreAvailableResources: false },
    ]);
  });

  it('get: the service length and location only; another location or length is SLOT_NOT_FOUND', async () => {
    const w = windowOf(2);
    const start = Date.parse(`${w.fromLocalDate}Z`);
    const body = { serviceId, localStartDate: local(start), localEndDate: local(start + HOUR), timeZone: 'UTC', location: { locationType: 'BUSINESS' } };
    const found = await emu.request('POST', `${PATH}/get`, body);
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(found.body).toMatchObject({ timeZone: 'UTC', timeSlot: { localStartDate: local(start), localEndDate: local(start + HOUR), remainingCapacity: 1 } });
    for (const wrong of [{ localEndDate: local(start + 2 * HOUR) }, { location: { locationType: 'CUSTOMER' } }, { location: { id: '22222222-2222-4222-8222-222222222222' } }]) {
      const r = await emu.request('POST', `${PATH}/get`, { ...body, ...wrong });
      expect(r.status, JSON.stringify(wrong)).toBe(404);
      expect(r.body.details.applicationError.code).toBe('SLOT_NOT_FOUND');
    }
  });

  it("a cursor carries its query: the follow-up's other fields do not change the page", async () => {
    const w = windowOf(6);
    const first = await emu.request('POST', PATH, { ...w, cursorPaging: { limit: 2 } });
    expect(first.body.timeSlots.map((s: { localStartDate: string }) => s.localStartDate)).toEqual([w.fromLocalDate, local(Date.parse(`${w.fromLocalDate}Z`) + HOUR)]);
    const next = await emu.request('POST', PATH, { serviceId: '00000000-0000-4000-8000-000000000000', timeZone: 'Asia/Tokyo', cursorPaging: { cursor: first.body.cursorPagingMetadata.cursors.next, limit: 2 } });
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect(next.body.timeZone).toBe('UTC');
    expect(next.body.timeSlots.map((s: { localStartDate: string }) => s.localStartDate)).toEqual([2, 3].map((h) => local(Date.parse(`${w.fromLocalDate}Z`) + h * HOUR)));
    expect(next.body.cursorPagingMetadata.cursors.prev).toEqual(expect.any(String));
  });
});
