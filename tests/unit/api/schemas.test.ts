import { describe, expect, it } from 'vitest';
import { safeParse } from 'zod/mini';
import { serviceOps } from '../../../src/api/services.js';
import { AggregationResult, bulkResult, Money } from '../../../src/api/schemas/common.js';
import { pickListItems } from '../../../src/api/schemas/introspect.js';
import {
  BookingPolicy,
  BusinessLocation,
  RateTypeValues,
  Service,
  ServiceType,
  ServiceTypeValues,
  SlugErrorValues,
} from '../../../src/api/schemas/service.js';

const wireService = {
  id: 'svc-1',
  revision: '3',
  type: 'CLASS',
  name: 'Yoga',
  defaultCapacity: 10,
  hidden: false,
  media: {
    mainMedia: { image: { id: 'img-1', url: 'https://static/img-1.jpg', width: 800, height: 600 } },
    items: [{ image: { id: 'img-2' } }],
    coverMedia: { image: { id: 'img-3' } },
  },
  category: { id: 'cat-1', name: 'Fitness', sortOrder: 1 },
  form: { id: 'form-1' },
  payment: {
    rateType: 'FIXED',
    fixed: { price: { value: '50', currency: 'USD', formattedValue: '$50' } },
    options: { online: true, inPerson: false, deposit: false, pricingPlan: false },
    pricingPlanIds: [],
  },
  onlineBooking: { enabled: true, requireManualApproval: false, allowMultipleRequests: false },
  locations: [
    {
      id: 'loc-1',
      type: 'BUSINESS',
      business: { id: 'bl-1', name: 'Main studio', default: true, address: { formatted: '1 Main St', geocode: { latitude: 51.5, longitude: -0.12 } } },
      calculatedAddress: { formatted: '1 Main St', geocode: { latitude: 51.5, longitude: -0.12 } },
    },
  ],
  bookingPolicy: { id: 'pol-1', createdDate: '2025-01-01T00:00:00Z', updatedDate: '2025-02-01T00:00:00Z', unknownRule: { x: 1 } },
  schedule: {
    id: 'sch-1',
    firstSessionStart: '2026-01-30T13:30:00Z',
    lastSessionEnd: '2026-06-30T14:30:00Z',
    availabilityConstraints: { durations: [{ minutes: 60 }], sessionDurations: [60], timeBetweenSessions: 15 },
  },
  staffMemberIds: ['st-1'],
  staffMembers: [{ staffMemberId: 'st-1', name: 'Ana', mainMedia: { image: { id: 'img-4' } } }],
  urls: { servicePage: { relativePath: '/service-page/yoga', url: 'https://site/service-page/yoga' } },
  supportedSlugs: [{ name: 'yoga', custom: false, createdDate: '2025-01-01T00:00:00Z' }],
  mainSlug: { name: 'yoga', custom: false, createdDate: '2025-01-01T00:00:00Z' },
  createdDate: '2025-01-01T00:00:00.000Z',
  updatedDate: '2025-03-01T10:00:00.000Z',
  somethingNewFromThePlatform: { a: 1 },
};

describe('Service schema', () => {
  it('turns every wire date into a Date and keeps unknown fields', () => {
    const s = Service.parse(wireService);
    expect(s.createdDate).toEqual(new Date('2025-01-01T00:00:00.000Z'));
    expect(s.updatedDate).toBeInstanceOf(Date);
    expect(s.schedule?.firstSessionStart).toEqual(new Date('2026-01-30T13:30:00Z'));
    expect(s.schedule?.lastSessionEnd).toBeInstanceOf(Date);
    expect(s.mainSlug?.createdDate).toBeInstanceOf(Date);
    expect(s.supportedSlugs?.[0].createdDate).toBeInstanceOf(Date);
    expect(s.bookingPolicy?.createdDate).toBeInstanceOf(Date);
    expect(s.bookingPolicy?.unknownRule).toEqual({ x: 1 });
    expect(s.locations?.[0].business?.address?.geocode).toEqual({ latitude: 51.5, longitude: -0.12 });
    expect(s.payment?.fixed?.price?.value).toBe('50');
    expect(s.revision).toBe('3');
    expect(s.somethingNewFromThePlatform).toEqual({ a: 1 });
  });

  it('rejects an unparseable date and a numeric revision', () => {
    expect(Service.safeParse({ createdDate: 'yesterday' }).success).toBe(false);
    expect(Service.safeParse({ revision: 3 }).success).toBe(false);
  });

  it('accepts enumeration values a newer platform adds in replies', () => {
    expect(Service.parse({ id: 'a', payment: { rateType: 'SUBSCRIPTION' } }).payment?.rateType).toBe('SUBSCRIPTION');
  });

  it('exports the docs/wire.md §13 value lists', () => {
    expect(ServiceTypeValues).toEqual(['APPOINTMENT', 'CLASS', 'COURSE']);
    expect(RateTypeValues).toEqual(['FIXED', 'CUSTOM', 'VARIED', 'NO_FEE']);
    expect(SlugErrorValues).toEqual(['SLUG_CONTAINS_ILLEGAL_CHARACTERS', 'SLUG_ALREADY_EXISTS']);
    expect(ServiceType.safeParse('WORKSHOP').success).toBe(false);
  });
});

describe('a list reply narrowed to some fields (pickListItems)', () => {
  const reply = serviceOps.queryServices.reply;
  const page = { services: [wireService, { ...wireService, id: 'svc-2', schedule: { firstSessionStart: 'soon' } }], pagingMetadata: { count: 2, offset: 0, total: 2 } };

  it('keeps the asked fields, parsed by their own schemas, and leaves the others out unchecked', () => {
    const narrow = pickListItems(reply, 'services', ['id', 'revision', 'name', 'mainSlug', 'payment'])!;
    // svc-2's schedule holds a bad date: the whole reply refuses it, the narrowed one does not read it.
    expect(safeParse(reply, page).success).toBe(false);
    const parsed = safeParse(narrow, page);
    expect(parsed.success).toBe(true);
    const [first] = (parsed.data as { services: Record<string, unknown>[] }).services;
    expect(Object.keys(first!).sort()).toEqual(['id', 'mainSlug', 'name', 'payment', 'revision']);
    expect((first!.mainSlug as { createdDate: unknown }).createdDate).toEqual(new Date('2025-01-01T00:00:00Z'));
    expect(first!.payment).toEqual(wireService.payment);
    expect((parsed.data as { pagingMetadata: unknown }).pagingMetadata).toEqual(page.pagingMetadata);
    // A bad value in an asked field is still refused.
    expect(safeParse(narrow, { services: [{ ...wireService, mainSlug: { createdDate: 'soon' } }] }).success).toBe(false);
    expect(safeParse(narrow, { services: [{ name: 'no id' }] }).success).toBe(false);
  });

  it('declines fields the items do not declare, forbidden names, and replies of another shape', () => {
    expect(pickListItems(reply, 'services', ['id', 'somethingNewFromThePlatform'])).toBeUndefined();
    expect(pickListItems(reply, 'services', ['id', '__proto__'])).toBeUndefined();
    expect(pickListItems(reply, 'bookings', ['id'])).toBeUndefined();
    expect(pickListItems(Service, 'staffMemberIds', ['id'])).toBeUndefined();
    expect(pickListItems(Money, 'value', ['id'])).toBeUndefined();
  });
});

describe('other schemas', () => {
  it('money needs value and currency', () => {
    expect(Money.safeParse({ value: '10', currency: 'EUR' }).success).toBe(true);
    expect(Money.safeParse({ value: 10, currency: 'EUR' }).success).toBe(false);
  });

  it('bulk envelope parses items with dates', () => {
    const parsed = bulkResult(Service).parse({
      results: [
        { itemMetadata: { id: 'a', originalIndex: 0, success: true }, item: { id: 'a', updatedDate: '2026-01-01T00:00:00Z' } },
        { itemMetadata: { id: 'b', originalIndex: 1, success: false, error: { code: 'CONFLICT', description: 'stale' } } },
      ],
      bulkActionMetadata: { totalSuccesses: 1, totalFailures: 1, undetailedFailures: 0 },
    });
    expect(parsed.results[0].item?.updatedDate).toBeInstanceOf(Date);
    expect(parsed.results[1].itemMetadata.error?.code).toBe('CONFLICT');
  });

  it('policies and business locations convert dates', () => {
    expect(BookingPolicy.parse({ id: 'p', createdDate: '2025-01-01T00:00:00Z' }).createdDate).toBeInstanceOf(Date);
    const loc = BusinessLocation.parse({ id: 'l', address: { geocode: { latitude: 1, longitude: 2 } }, status: 'ACTIVE' });
    expect(loc.address?.geocode?.longitude).toBe(2);
  });

  it('aggregation results', () => {
    const r = AggregationResult.parse({ name: 'byType', type: 'VALUE', fieldPath: 'type', values: { results: [{ value: 'CLASS', count: 3 }] } });
    expect(r.values?.results[0].count).toBe(3);
  });
});
