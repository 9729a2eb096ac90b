// zod/mini, not classic zod: its functions tree-shake, so the bundle holds ~40 KB of zod instead of ~750 KB (start-up).
/**
 * Shapes shared by every API family: wire dates, money, addresses, images, paging metadata, the bulk envelope,
 * sorting and aggregations (docs/wire.md §4-§8, docs/wire.md §13).
 *
 * Response objects are `z.looseObject`: the platform adds fields over time and a client that drops or rejects
 * them would break on the next platform release, so unknown keys pass through untouched.
 * `z.input<typeof X>` is the wire form (ISO date strings); `z.output<typeof X>` (= `z.infer`) has `Date` values.
 */
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

// zod/mini ships no messages (every issue reads "Invalid input"); English is what classic zod showed and what the
// "unexpected reply" errors of client.ts quote.
z.config(en());

/** Memoises a builder of schemas, so they are built on first use and once. */
export function once<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

/**
 * A schema built on first use: a stand-in that builds the real schema (through `build`, typically a module's
 * memoised builder) the first time anything of it is read, then forwards every read to it. The schema modules
 * export their schemas this way, so loading a family costs no schema building: `services list --json` parses
 * only its paging metadata and builds nothing else (docs/runtime.md "Start-up"). A schema built this way parses,
 * nests (`z.array(Service)`) and is introspected like the schema itself; only its identity differs (keep using
 * the exported stand-in as a WeakMap key, not the schema inside).
 */
export function lazySchema<T extends object>(build: () => T): T {
  let built: T | undefined;
  const real = (): T => (built ??= build());
  return new Proxy({} as T, {
    get: (_target, key) => Reflect.get(real(), key),
    set: (_target, key, value) => Reflect.set(real(), key, value),
    has: (_target, key) => Reflect.has(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_target, key) => {
      const d = Reflect.getOwnPropertyDescriptor(real(), key);
      // The stand-in's own (empty) target holds no such property: a proxy may only report it as configurable.
      return d && { ...d, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
}

/**
 * An ISO-8601 timestamp on the wire, a `Date` after parsing (docs/wire.md §13: "Dates in responses are turned into
 * date values"). Input type `string` so the wire types stay honest; an unparseable string is a schema issue.
 */
export const isoDate = lazySchema(() =>
  z.pipe(
    z.string(),
    z.transform((value: string, ctx) => {
      const date = new Date(value);
      if (Number.isNaN(date.getTime())) {
        ctx.issues.push({ code: 'custom', message: `Invalid ISO date: ${JSON.stringify(value)}`, input: value });
        return z.NEVER;
      }
      return date;
    }),
  ),
);

/**
 * An enumeration the platform may extend: known values keep their literal types (so `switch` still narrows and
 * editors complete them) while an unknown value from a newer platform still parses as a plain string.
 */
export function openEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.union([z.enum(values), z.string()]) as unknown as z.ZodMiniType<T[number] | (string & {}), string>;
}

export const SortOrderValues = ['ASC', 'DESC'] as const;
export const SortOrder = lazySchema(() => z.enum(SortOrderValues));
export type SortOrder = z.infer<typeof SortOrder>;

/** `{"fieldName":"name","order":"ASC"}` (docs/wire.md §6 "Sort"). */
export const Sorting = lazySchema(() => z.looseObject({ fieldName: z.string(), order: z.optional(SortOrder) }));
export type Sorting = z.infer<typeof Sorting>;

/** Offset paging request: `{"limit":50,"offset":0}` (docs/wire.md §6). */
export const Paging = lazySchema(() => z.looseObject({ limit: z.optional(z.int()), offset: z.optional(z.int()) }));
export type Paging = z.infer<typeof Paging>;

/** Cursor paging request: limit <= 100, cursor <= 16000 chars (docs/wire.md §6). */
export const CursorPaging = lazySchema(() =>
  z.looseObject({
    limit: z.optional(z.int()),
    cursor: z.optional(z.nullable(z.string())),
  }),
);
export type CursorPaging = z.infer<typeof CursorPaging>;

export const Cursors = lazySchema(() =>
  z.looseObject({
    next: z.optional(z.nullable(z.string())),
    prev: z.optional(z.nullable(z.string())),
  }),
);
export type Cursors = z.infer<typeof Cursors>;

/**
 * `pagingMetadata` of both kinds (docs/wire.md §6): offset `{count, offset, total, tooManyToCount, cursors}` and
 * cursor `{count, cursors:{next,prev}, hasNext}`. One loose schema because the platform mixes the keys.
 */
export const PagingMetadata = lazySchema(() =>
  z.looseObject({
    count: z.optional(z.int()),
    offset: z.optional(z.int()),
    total: z.optional(z.int()),
    tooManyToCount: z.optional(z.boolean()),
    cursors: z.optional(Cursors),
    hasNext: z.optional(z.boolean()),
  }),
);
export type PagingMetadata = z.infer<typeof PagingMetadata>;
export const OffsetPagingMetadata = PagingMetadata;
export type OffsetPagingMetadata = PagingMetadata;
export const CursorPagingMetadata = PagingMetadata;
export type CursorPagingMetadata = PagingMetadata;

/** `{value:"50", currency:"USD", formattedValue:"$50"}`; value is a decimal string on the wire. */
export const Money = lazySchema(() =>
  z.looseObject({
    value: z.string(),
    currency: z.string(),
    formattedValue: z.optional(z.string()),
  }),
);
export type Money = z.infer<typeof Money>;

export const Geocode = lazySchema(() => z.looseObject({ latitude: z.number(), longitude: z.number() }));
export type Geocode = z.infer<typeof Geocode>;

export const StreetAddress = lazySchema(() =>
  z.looseObject({
    number: z.optional(z.string()),
    name: z.optional(z.string()),
    apt: z.optional(z.string()),
  }),
);

/** A postal address; `geocode` holds latitude/longitude (docs/wire.md §8). */
export const Address = lazySchema(() =>
  z.looseObject({
    formatted: z.optional(z.string()),
    formattedAddress: z.optional(z.string()),
    addressLine: z.optional(z.string()),
    addressLine1: z.optional(z.string()),
    addressLine2: z.optional(z.string()),
    streetAddress: z.optional(StreetAddress),
    city: z.optional(z.string()),
    subdivision: z.optional(z.string()),
    country: z.optional(z.string()),
    postalCode: z.optional(z.string()),
    hint: z.optional(z.string()),
    geocode: z.optional(Geocode),
  }),
);
export type Address = z.infer<typeof Address>;

/** A media image: `{id, url, height, width, altText, filename}` (sizes in pixels). */
export const Image = lazySchema(() =>
  z.looseObject({
    id: z.optional(z.string()),
    url: z.optional(z.string()),
    height: z.optional(z.number()),
    width: z.optional(z.number()),
    altText: z.optional(z.nullable(z.string())),
    filename: z.optional(z.nullable(z.string())),
  }),
);
export type Image = z.infer<typeof Image>;

/** `{image}`: the wrapper the platform uses for media items, mainMedia and coverMedia. */
export const MediaItem = lazySchema(() => z.looseObject({ image: z.optional(Image) }));
export type MediaItem = z.infer<typeof MediaItem>;

export const ApplicationErrorDetail = lazySchema(() =>
  z.looseObject({
    code: z.string(),
    description: z.optional(z.string()),
    data: z.optional(z.unknown()),
  }),
);
export type ApplicationErrorDetail = z.infer<typeof ApplicationErrorDetail>;

/** Per-item outcome of a bulk call (docs/wire.md §7). `originalIndex` is the item's index in the request. */
export const ItemMetadata = lazySchema(() =>
  z.looseObject({
    id: z.optional(z.nullable(z.string())),
    originalIndex: z.int(),
    success: z.boolean(),
    error: z.optional(z.nullable(ApplicationErrorDetail)),
  }),
);
export type ItemMetadata = z.infer<typeof ItemMetadata>;

export const BulkActionMetadata = lazySchema(() =>
  z.looseObject({
    totalSuccesses: z.int(),
    totalFailures: z.int(),
    undetailedFailures: z.int(),
  }),
);
export type BulkActionMetadata = z.infer<typeof BulkActionMetadata>;

/**
 * The bulk envelope `{results:[{itemMetadata, item?}], bulkActionMetadata}` (docs/wire.md §7); `item` is present when
 * the request set `returnEntity`.
 */
export function bulkResult<T extends z.ZodMiniType>(item: T) {
  return z.looseObject({
    results: z.array(z.looseObject({ itemMetadata: ItemMetadata, item: z.optional(item) })),
    bulkActionMetadata: BulkActionMetadata,
  });
}
export interface BulkResult<T> {
  results: { itemMetadata: ItemMetadata; item?: T }[];
  bulkActionMetadata: BulkActionMetadata;
}

/** `{jobId}`: returned by the by-filter bulk calls, which run as asynchronous jobs on the platform. */
export const JobResponse = lazySchema(() => z.looseObject({ jobId: z.string() }));
export type JobResponse = z.infer<typeof JobResponse>;

export const AggregationTypeValues = ['VALUE', 'RANGE', 'SCALAR', 'DATE_HISTOGRAM', 'NESTED'] as const;
export const AggregationType = lazySchema(() => z.enum(AggregationTypeValues));
export type AggregationType = z.infer<typeof AggregationType>;

export const ScalarTypeValues = ['COUNT_DISTINCT', 'MIN', 'MAX'] as const;
export const ScalarType = lazySchema(() => z.enum(ScalarTypeValues));
export type ScalarType = z.infer<typeof ScalarType>;

export const DateHistogramIntervalValues = ['YEAR', 'MONTH', 'WEEK', 'DAY', 'HOUR', 'MINUTE', 'SECOND'] as const;
export const DateHistogramInterval = lazySchema(() => z.enum(DateHistogramIntervalValues));
export type DateHistogramInterval = z.infer<typeof DateHistogramInterval>;

const AggregationKinds = () => ({
  value: z.optional(
    z.looseObject({
      sortType: z.optional(z.enum(['COUNT', 'VALUE'])),
      sortDirection: z.optional(z.enum(['DESC', 'ASC'])),
      limit: z.optional(z.int()),
      missingValues: z.optional(z.enum(['EXCLUDE', 'INCLUDE'])),
    }),
  ),
  range: z.optional(
    z.looseObject({
      buckets: z.array(z.looseObject({ from: z.optional(z.number()), to: z.optional(z.number()) })),
    }),
  ),
  scalar: z.optional(z.looseObject({ type: ScalarType })),
  dateHistogram: z.optional(z.looseObject({ interval: DateHistogramInterval })),
});

/** One aggregation of a NESTED chain: any type but NESTED, on a field. */
export const NestedAggregationItem = lazySchema(() =>
  z.looseObject({ name: z.optional(z.string()), type: z.enum(['VALUE', 'RANGE', 'SCALAR', 'DATE_HISTOGRAM']), fieldPath: z.string(), ...AggregationKinds() }),
);
export type NestedAggregationItem = z.infer<typeof NestedAggregationItem>;

/**
 * An aggregation request of a search: `{name, type, fieldPath, value?, range?, scalar?, dateHistogram?, nested?}`.
 * VALUE counts distinct values (`value.limit` buckets), RANGE counts per `range.buckets` `[from, to)`, SCALAR
 * computes `scalar.type`, DATE_HISTOGRAM groups dates by `dateHistogram.interval`, NESTED runs
 * `nested.nestedAggregations` (2 to 10) each within every bucket of the one before (SDK `bookings_services`
 * `NestedAggregation`; a NESTED aggregation has no fieldPath of its own).
 */
export const Aggregation = lazySchema(() =>
  z.looseObject({
    name: z.optional(z.string()),
    type: AggregationType,
    fieldPath: z.optional(z.string()),
    ...AggregationKinds(),
    nested: z.optional(z.looseObject({ nestedAggregations: z.array(NestedAggregationItem).check(z.minLength(2), z.maxLength(10)) })),
  }),
);
export type Aggregation = z.infer<typeof Aggregation>;

const ValueCount = lazySchema(() => z.looseObject({ value: z.string(), count: z.int() }));
const RangeCount = lazySchema(() => z.looseObject({ from: z.optional(z.number()), to: z.optional(z.number()), count: z.int() }));

/** One level of a NESTED result entry: a bucket (`value`, `range`, `dateHistogram`) or the last level's `scalar`. */
export const NestedResultValue = lazySchema(() =>
  z.looseObject({
    value: z.optional(ValueCount),
    range: z.optional(RangeCount),
    dateHistogram: z.optional(ValueCount),
    scalar: z.optional(z.looseObject({ value: z.nullable(z.number()) })),
  }),
);
export type NestedResultValue = z.infer<typeof NestedResultValue>;

/** One aggregation result of a search reply; which of values/ranges/scalar/dateHistogram/nested is set follows `type`. */
export const AggregationResult = lazySchema(() =>
  z.looseObject({
    name: z.optional(z.string()),
    type: openEnum(AggregationTypeValues),
    fieldPath: z.optional(z.string()),
    values: z.optional(z.looseObject({ results: z.array(ValueCount) })),
    ranges: z.optional(z.looseObject({ results: z.array(RangeCount) })),
    scalar: z.optional(z.looseObject({ type: openEnum(ScalarTypeValues), value: z.number() })),
    dateHistogram: z.optional(z.looseObject({ results: z.array(ValueCount) })),
    /** NESTED: one entry per path through the chain's buckets, each level's result by aggregation name. */
    nested: z.optional(z.looseObject({ results: z.array(z.looseObject({ results: z.record(z.string(), NestedResultValue) })) })),
  }),
);
export type AggregationResult = z.infer<typeof AggregationResult>;

export const AggregationData = lazySchema(() => z.looseObject({ results: z.array(AggregationResult) }));
export type AggregationData = z.infer<typeof AggregationData>;

/** A query filter: Mongo-style operators on dotted field paths (docs/wire.md §6). Its operators are checked by the server. */
export type Filter = Record<string, unknown>;

// ---- Request shapes. What a schema can say about a request (required fields, types, enumerations, lengths,
// item counts) is said here once: the emulator validates requests with these schemas and reports each failed
// rule as a field violation, and the CLI can check its own input against them before sending. They are built
// on first use: the client itself never validates requests, so a command does not pay for building them.

/** A string of at most `max` characters (sane bounds on names, slugs, addresses; docs/architecture.md "Safety rules"). */
export function bounded(max: number) {
  return z.string().check(z.maxLength(max));
}


function buildRequestShapes() {
  const Id = z.string().check(z.minLength(1), z.maxLength(100));
  return {
    /** An entity id as a request field: a non-empty string of at most 100 characters. */
    Id,
    /** A revision on the wire: a decimal string (the SDK's form), or a whole number. */
    RevisionInput: z.union([z.string().check(z.regex(/^\d+$/, 'must be a decimal string such as "3"')), z.int().check(z.nonnegative())]),
    /**
     * A field mask: one string of comma-joined paths, the form seed B §9 and the SDK's request builders give
     * (`transformSDKFieldMaskToRESTFieldMask`); the `{paths: [...]}` object is refused (docs/wire.md §5).
     */
    FieldMaskInput: z.custom<string>((v) => typeof v === 'string' && v.length <= 2000, 'must be one string of comma-joined paths (such as "name,description"), at most 2000 characters'),
    /** A filter in a request: a JSON object; its operators are checked by the query engine that runs it. */
    FilterInput: z.record(z.string(), z.unknown()),
    /** Sort keys of a query: at most 50 (docs/wire.md §6). */
    SortInput: z.array(z.looseObject({ fieldName: bounded(200), order: z.optional(SortOrder) })).check(z.maxLength(50)),
    /** Offset paging of a request: `limit` 0..100, `offset` >= 0. */
    PagingInput: z.looseObject({
      limit: z.optional(z.int().check(z.gte(0), z.lte(100))),
      offset: z.optional(z.int().check(z.gte(0))),
    }),
    /** Cursor paging of a request: `limit` 1..100, `cursor` at most 16000 characters (docs/wire.md §6). */
    CursorPagingInput: z.looseObject({
      limit: z.optional(z.int().check(z.gte(1), z.lte(100))),
      cursor: z.optional(z.nullable(bounded(16_000))),
    }),
    /** A postal address in a request, each part bounded (a 100 KB custom address is refused). */
    AddressInput: z.looseObject({
      formatted: z.optional(bounded(1000)),
      formattedAddress: z.optional(bounded(1000)),
      addressLine: z.optional(bounded(500)),
      addressLine1: z.optional(bounded(500)),
      addressLine2: z.optional(bounded(500)),
      streetAddress: z.optional(z.looseObject({ number: z.optional(bounded(50)), name: z.optional(bounded(300)), apt: z.optional(bounded(50)) })),
      city: z.optional(bounded(200)),
      subdivision: z.optional(bounded(200)),
      country: z.optional(bounded(100)),
      postalCode: z.optional(bounded(50)),
      hint: z.optional(bounded(500)),
      geocode: z.optional(Geocode),
    }),
    /** Money in a request: a non-negative decimal string with at most 2 decimals and an ISO 4217 currency. */
    MoneyInput: z.looseObject({
      value: z.string().check(z.regex(/^\d{1,12}(\.\d{1,2})?$/, 'must be a non-negative amount such as "45" or "45.50"')),
      currency: z.string().check(z.regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as USD')),
      formattedValue: z.optional(bounded(50)),
    }),
    /** Who hears about a change to booked sessions, and with what text. */
    ParticipantNotificationInput: z.looseObject({
      notifyParticipants: z.optional(z.nullable(z.boolean())),
      message: z.optional(z.nullable(bounded(2000))),
      /** The delivery channels (the SDK's ParticipantNotification.metadata): `{channels: "EMAIL, SMS"}`. */
      metadata: z.optional(z.record(z.string(), bounded(200))),
    }),
  };
}

/** The request shapes shared by every family (built on first use). */
export const requestShapes = once(buildRequestShapes);

/** `{}`: the reply of a call with nothing to return (the SDK rejects an empty body, docs/wire.md §10). */
export const EmptyReply = lazySchema(() => z.looseObject({}));

/** `{count}` of the count calls. */
export const CountReply = lazySchema(() => z.looseObject({ count: z.int() }));
