/**
 * Add-on groups through the official client (`@wix/auto_sdk_bookings_services` AddOnGroupsService, and the
 * bookings module's `bookedAddOns`) against a real emulator on port 0 (docs/wire.md "Add-on groups and add-ons"):
 * a group created, given its add-ons, listed, updated and deleted through the module, its errors as the module
 * names them, and a booking that selects add-ons priced with them. The add-ons themselves are made through the
 * Add-ons API (no module among ours: sitectl's own table). Every request the module sends to the platform's host is
 * rewritten to the emulator's loopback origin and recorded.
 */
import * as bookings from '@wix/auto_sdk_bookings_bookings';
import * as services from '@wix/auto_sdk_bookings_services';
import { ApiKeyStrategy, createClient } from '@wix/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOns, bookingsPricing } from '../../../src/api/add-ons.js';
import { ApiClient } from '../../../src/api/client.js';
import { makeStudio, runInProcess, startTestEmulator, type TestEmulator } from '../../helpers/index.js';
import type { Studio } from '../../helpers/studio.js';

let emu: TestEmulator;
let api: ApiClient;
let studio: Studio;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 10, bookings: 0 });
  api = new ApiClient({ baseUrl: emu.url, credentials: { kind: 'apiKey', apiKey: emu.apiKey, siteId: emu.siteId } });
  studio = await makeStudio((args, o) => runInProcess(args, { emulator: emu, ...o }), 'sdk-addons', 1);
});
afterAll(async () => {
  await api?.close();
  await emu?.close();
});

/** What the official client sent: method, path (no query) and parsed JSON body. */
const sent: Array<{ method: string; path: string; body: unknown }> = [];

/** An API-key client of the services and bookings modules whose requests go to the emulator. */
function official() {
  return createClient({
    auth: ApiKeyStrategy({ apiKey: emu.apiKey, siteId: emu.siteId }),
    modules: { services, bookings },
    fetch: (async (input: string | URL | Request, init?: RequestInit) => {
      const url = (typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url).replace(/^https:\/\/(www|edge)\.wixapis\.com/, emu.url);
      const body = typeof init?.body === 'string' && init.body !== '' ? JSON.parse(init.body) : undefined;
      sent.push({ method: init?.method ?? 'GET', path: new URL(url).pathname, body });
      return fetch(url, init);
    }) as typeof fetch,
  });
}

/** An add-on made through the Add-ons API: its id. */
async function addOn(name: string, value: string, kind: { durationInMinutes: number } | { maxQuantity: number }): Promise<string> {
  const { addOn: made } = await addOns.createAddOn(api, { addOn: { name, price: { value, currency: 'USD' }, ...kind } });
  return made.id!;
}

describe('add-on groups through the official client', () => {
  it('creates a group, sets its add-ons, lists, updates it, books with add-ons (priced), and deletes it', async () => {
    const c = official();
    const service = await studio.appointment();
    const towel = await addOn('Towel', '5', { maxQuantity: 3 });
    const oil = await addOn('Aroma oil', '7.50', { maxQuantity: 1 });
    const extra = await addOn('Extra 15 minutes', '20', { durationInMinutes: 15 });

    const created = await c.services.createAddOnGroup({ name: 'Extras', maxNumberOfAddOns: 2, prompt: 'Pick up to two' }, { serviceId: service.id });
    expect(sent.at(-1)).toMatchObject({ method: 'POST', path: '/_api/bookings/v2/services/add-on-groups/create', body: { serviceId: service.id, addOnGroup: { name: 'Extras' } } });
    const groupId = created.addOnGroup!._id!;
    expect(groupId).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.addOnGroup).toMatchObject({ name: 'Extras', maxNumberOfAddOns: 2, prompt: 'Pick up to two', addOnIds: [] });

    const set = await c.services.setAddOnsForGroup(service.id, { groupId, addOnIds: [oil, towel, extra] });
    expect(set.addOnGroup!.addOnIds).toEqual([oil, towel, extra]);

    const listed = await c.services.listAddOnGroupsByServiceId(service.id);
    expect(listed.addOnGroupsDetails!).toHaveLength(1);
    const detail = listed.addOnGroupsDetails![0]!;
    expect(detail).toMatchObject({ groupId, groupName: 'Extras', maxNumberOfAddOns: 2, prompt: 'Pick up to two' });
    // In display order, each with its name, price and either its duration or its largest quantity.
    expect(detail.addOns!.map((a) => a.addOnId)).toEqual([oil, towel, extra]);
    expect(detail.addOns![1]).toMatchObject({ name: 'Towel', price: { value: '5', currency: 'USD' }, maxQuantity: 3 });
    expect(detail.addOns![2]).toMatchObject({ name: 'Extra 15 minutes', durationInMinutes: 15 });

    const updated = await c.services.updateAddOnGroup({ _id: groupId, name: 'Spa extras' }, { serviceId: service.id });
    expect(updated.addOnGroup).toMatchObject({ _id: groupId, name: 'Spa extras', maxNumberOfAddOns: 2, addOnIds: [oil, towel, extra] });
    const got = await c.services.getService(service.id);
    expect(got.addOnGroups).toEqual([expect.objectContaining({ _id: groupId, name: 'Spa extras' })]);
    expect(got.addOnDetails).toEqual([{ addOnId: oil }, { addOnId: towel }, { addOnId: extra, durationInMinutes: 15 }]);

    // A booking of the service with two towels and the extra time: 40 (the service) + 2 x 5 + 20 = 70.
    const slot = await studio.slot(service.name);
    const booked = await c.bookings.createBooking({
      bookedEntity: { slot: slot as never },
      contactDetails: { firstName: 'Addons', email: 'addons@example.com' },
      totalParticipants: 1,
      bookedAddOns: [
        { _id: towel, groupId, quantity: 2 },
        { _id: extra, groupId },
      ],
    });
    expect(booked.booking!.bookedAddOns).toEqual([
      expect.objectContaining({ _id: towel, groupId, quantity: 2, name: 'Towel' }),
      expect.objectContaining({ _id: extra, groupId, durationInMinutes: 15, name: 'Extra 15 minutes' }),
    ]);
    const { priceInfo } = await bookingsPricing.calculatePrice(api, { booking: { id: booked.booking!._id! } });
    expect(priceInfo).toMatchObject({ calculatedPrice: 70, currency: 'USD', bookingLineItems: [{ serviceId: service.id, numberOfParticipants: 1, pricePerParticipant: 40 }] });
    expect(priceInfo.addOns).toEqual([expect.objectContaining({ addOnId: towel, quantity: 2, price: 10 }), expect.objectContaining({ addOnId: extra, quantity: 1, price: 20 })]);

    // The group allows two different add-ons: a third is refused, and so is a towel quantity past its largest.
    const slot2 = await studio.slot(service.name);
    const bookWith = (bookedAddOns: Array<{ _id: string; groupId: string; quantity?: number }>) =>
      c.bookings.createBooking({
        bookedEntity: { slot: slot2 as never },
        contactDetails: { firstName: 'Addons' },
        totalParticipants: 1,
        bookedAddOns,
      });
    await expect(bookWith([{ _id: towel, groupId }, { _id: oil, groupId }, { _id: extra, groupId }])).rejects.toMatchObject({
      details: { validationError: { fieldViolations: [expect.objectContaining({ field: 'booking.bookedAddOns[2]', violatedRule: 'MAX_SIZE' })] } },
    });
    await expect(bookWith([{ _id: towel, groupId, quantity: 4 }])).rejects.toMatchObject({
      details: { validationError: { fieldViolations: [expect.objectContaining({ field: 'booking.bookedAddOns[0].quantity' })] } },
    });

    await c.services.deleteAddOnGroup(groupId, { serviceId: service.id });
    expect(sent.at(-1)).toMatchObject({ method: 'POST', path: '/_api/bookings/v2/services/add-on-groups/delete', body: { addOnGroupId: groupId, serviceId: service.id } });
    expect((await c.services.listAddOnGroupsByServiceId(service.id)).addOnGroupsDetails).toEqual([]);
    const after = await c.services.getService(service.id);
    expect(after.addOnGroups).toEqual([]);
    // The add-ons stay: deleting a group does not delete them.
    expect((await addOns.getAddOn(api, { addOnId: towel })).addOn).toMatchObject({ name: 'Towel' });
  });

  it('a duration add-on lengthens the booking (its end, a reschedule, the staff member busy) and payment.addOnOption is kept', async () => {
    const c = official();
    const service = await studio.appointment({ minutes: 60 });
    const extra = await addOn('Extra 45 minutes', '15', { durationInMinutes: 45 });
    const groupId = (await c.services.createAddOnGroup({ name: 'Time', addOnIds: [extra] }, { serviceId: service.id })).addOnGroup!._id!;
    const staff = studio.staff[0]!;
    const slot = await studio.slot(service.name);
    const start = Date.parse(slot.startDate);
    const booked = await c.bookings.createBooking({
      bookedEntity: { slot: { ...slot, serviceId: service.id, resource: { _id: staff } } as never },
      contactDetails: { firstName: 'Longer', email: 'longer@example.com' },
      bookedAddOns: [{ _id: extra, groupId }],
    });
    // The module's BookedAddOn.durationInMinutes, and the booking 60 + 45 minutes long.
    expect(booked.booking!.bookedAddOns).toEqual([expect.objectContaining({ _id: extra, durationInMinutes: 45 })]);
    expect(new Date(booked.booking!.endDate!).getTime() - start).toBe(105 * 60_000);
    // The staff member is taken until then: a booking of another service of theirs at start + 60 is refused.
    const other = await studio.appointment({ minutes: 30 });
    await expect(
      c.bookings.createBooking({
        bookedEntity: { slot: { serviceId: other.id, startDate: new Date(start + 60 * 60_000).toISOString(), resource: { _id: staff } } as never },
        contactDetails: { firstName: 'Overlap' },
      }),
    ).rejects.toMatchObject({ details: { applicationError: { code: 'SLOT_NOT_AVAILABLE' } } });
    // A reschedule keeps the add-on's minutes.
    const moved = await studio.slot(service.name);
    const rescheduled = await c.bookings.rescheduleBooking(booked.booking!._id!, { serviceId: service.id, startDate: moved.startDate, resource: { _id: staff } } as never, { revision: booked.booking!.revision! });
    expect(new Date(rescheduled.booking!.endDate!).getTime() - Date.parse(moved.startDate)).toBe(105 * 60_000);

    // payment.addOnOption (AddOnPaymentOptions): stored and answered as given; a value outside the enum is refused.
    const made = await c.services.createService({
      name: `Add-on option ${Date.now()}`,
      type: 'APPOINTMENT',
      payment: { rateType: 'FIXED', fixed: { price: { value: '30', currency: 'USD' } }, addOnOption: 'IN_PERSON' },
    } as never);
    expect(made.payment?.addOnOption).toBe('IN_PERSON');
    expect((await c.services.getService(made._id!)).payment?.addOnOption).toBe('IN_PERSON');
    const bad = await emu.request('POST', '/bookings/v2/services', { service: { name: `Bad option ${Date.now()}`, type: 'APPOINTMENT', payment: { rateType: 'FIXED', fixed: { price: { value: '30', currency: 'USD' } }, addOnOption: 'CASH' } } });
    expect(bad.status).toBe(400);
  });

  it('answers the errors the module names: GROUP_NOT_ON_SERVICE, ADD_ON_GROUP_NOT_FOUND, an unknown add-on, a fourth group', async () => {
    const c = official();
    const a = await studio.appointment();
    const b = await studio.appointment();
    const towel = await addOn('Towel', '5', { maxQuantity: 2 });
    const onB = (await c.services.createAddOnGroup({ name: 'On B', addOnIds: [towel] }, { serviceId: b.id })).addOnGroup!._id!;
    await expect(c.services.updateAddOnGroup({ _id: onB, name: 'x' }, { serviceId: a.id })).rejects.toMatchObject({ details: { applicationError: { code: 'GROUP_NOT_ON_SERVICE' } } });
    await expect(c.services.deleteAddOnGroup(onB, { serviceId: a.id })).rejects.toMatchObject({ details: { applicationError: { code: 'GROUP_NOT_ON_SERVICE' } } });
    await expect(c.services.setAddOnsForGroup(a.id, { groupId: onB, addOnIds: [towel] })).rejects.toMatchObject({ details: { applicationError: { code: 'ADD_ON_GROUP_NOT_FOUND' } } });
    await expect(c.services.setAddOnsForGroup(b.id, { groupId: onB, addOnIds: ['00000000-0000-4000-8000-000000000000'] })).rejects.toMatchObject({ details: { applicationError: { code: 'ADD_ON_NOT_FOUND' } } });
    for (const name of ['Two', 'Three']) await c.services.createAddOnGroup({ name }, { serviceId: b.id });
    await expect(c.services.createAddOnGroup({ name: 'Four' }, { serviceId: b.id })).rejects.toMatchObject({
      details: { validationError: { fieldViolations: [expect.objectContaining({ violatedRule: 'MAX_SIZE' })] } },
    });
    // A failed call changed nothing: B still has its three groups, the first still holding the towel.
    const listed = await c.services.listAddOnGroupsByServiceId(b.id);
    expect(listed.addOnGroupsDetails!.map((g) => g.groupName)).toEqual(['On B', 'Two', 'Three']);
    expect(listed.addOnGroupsDetails![0]!.addOns!.map((x) => x.addOnId)).toEqual([towel]);
  });
});
