/**
 * Shapes shared by every API family: wire dates, money, addresses, images, paging metadata, the bulk envelope,
 * sorting and aggregations (platform-wire.md §4-§8, spec 000 §3 "Enumerations").
 *
 * Response objects are `z.looseObject`: the platform adds fields over time and a client that drops or rejects
 * them would break on the next platform release, so unknown keys pass through untouched.
 * `z.input<typeof X>` is the wire form (ISO date strings); `z.output<typeof X>` (= `z.infer`) has `Date` values.
 */
import { z } from 'zod';

/**
 * An ISO-8601 timestamp on the wire, a `Date` after parsing (spec 000 §3: "Dates in responses are turned into
 * date values"). Input type `string` so the wire types stay honest; an unparseable string is a schema issue.
 */
export const isoDate = z.string().transform((value, ctx) => {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) {
    ctx.addIssue({ code: 'custom', message: `Invalid ISO date: ${JSON.stringify(value)}` });
    return z.NEVER;
  }
  return date;
});

/**
 * An enumeration the platform may extend: known values keep their literal types (so `switch` still narrows and
 * editors complete them) while an unknown value from a newer platform still parses as a plain string.
 */
export function openEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.union([z.enum(values), z.string()]) as unknown as z.ZodType<T[number] | (string & {}), string>;
}

export const SortOrderValues = ['ASC', 'DESC'] as const;
export const SortOrder = z.enum(SortOrderValues);
export type SortOrder = z.infer<typeof SortOrder>;

/** `{"fieldName":"name","order":"ASC"}` (wire §6 "Sort"). */
export const Sorting = z.looseObject({ fieldName: z.string(), order: SortOrder.optional() });
export type Sorting = z.infer<typeof Sorting>;

/** Offset paging request: `{"limit":50,"offset":0}` (wire §6). */
export const Paging = z.looseObject({ limit: z.number().int().optional(), offset: z.number().int().optional() });
export type Paging = z.infer<typeof Paging>;

/** Cursor paging request: limit <= 100, cursor <= 16000 chars (wire §6). */
export const CursorPaging = z.looseObject({
  limit: z.number().int().optional(),
  cursor: z.string().nullable().optional(),
});
export type CursorPaging = z.infer<typeof CursorPaging>;

export const Cursors = z.looseObject({
  next: z.string().nullable().optional(),
  prev: z.string().nullable().optional(),
});
export type Cursors = z.infer<typeof Cursors>;

/**
 * `pagingMetadata` of both kinds (wire §6): offset `{count, offset, total, tooManyToCount, cursors}` and
 * cursor `{count, cursors:{next,prev}, hasNext}`. One loose schema because the platform mixes the keys.
 */
export const PagingMetadata = z.looseObject({
  count: z.number().int().optional(),
  offset: z.number().int().optional(),
  total: z.number().int().optional(),
  tooManyToCount: z.boolean().optional(),
  cursors: Cursors.optional(),
  hasNext: z.boolean().optional(),
});
export type PagingMetadata = z.infer<typeof PagingMetadata>;
export const OffsetPagingMetadata = PagingMetadata;
export type OffsetPagingMetadata = PagingMetadata;
export const CursorPagingMetadata = PagingMetadata;
export type CursorPagingMetadata = PagingMetadata;

/** `{value:"50", currency:"USD", formattedValue:"$50"}`; value is a decimal string on the wire. */
export const Money = z.looseObject({
  value: z.string(),
  currency: z.string(),
  formattedValue: z.string().optional(),
});
export type Money = z.infer<typeof Money>;

export const Geocode = z.looseObject({ latitude: z.number(), longitude: z.number() });
export type Geocode = z.infer<typeof Geocode>;

export const StreetAddress = z.looseObject({
  number: z.string().optional(),
  name: z.string().optional(),
  apt: z.string().optional(),
});

/** A postal address; `geocode` holds latitude/longitude (spec 000 §3 "locations"). */
export const Address = z.looseObject({
  formatted: z.string().optional(),
  formattedAddress: z.string().optional(),
  addressLine: z.string().optional(),
  addressLine1: z.string().optional(),
  addressLine2: z.string().optional(),
  streetAddress: StreetAddress.optional(),
  city: z.string().optional(),
  subdivision: z.string().optional(),
  country: z.string().optional(),
  postalCode: z.string().optional(),
  hint: z.string().optional(),
  geocode: Geocode.optional(),
});
export type Address = z.infer<typeof Address>;

/** A media image: `{id, url, height, width, altText, filename}` (sizes in pixels). */
export const Image = z.looseObject({
  id: z.string().optional(),
  url: z.string().optional(),
  height: z.number().optional(),
  width: z.number().optional(),
  altText: z.string().nullable().optional(),
  filename: z.string().nullable().optional(),
});
export type Image = z.infer<typeof Image>;

/** `{image}`: the wrapper the platform uses for media items, mainMedia and coverMedia. */
export const MediaItem = z.looseObject({ image: Image.optional() });
export type MediaItem = z.infer<typeof MediaItem>;

export const ApplicationErrorDetail = z.looseObject({
  code: z.string(),
  description: z.string().optional(),
  data: z.unknown().optional(),
});
export type ApplicationErrorDetail = z.infer<typeof ApplicationErrorDetail>;

/** Per-item outcome of a bulk call (wire §7). `originalIndex` is the item's index in the request. */
export const ItemMetadata = z.looseObject({
  id: z.string().nullable().optional(),
  originalIndex: z.number().int(),
  success: z.boolean(),
  error: ApplicationErrorDetail.nullable().optional(),
});
export type ItemMetadata = z.infer<typeof ItemMetadata>;

export const BulkActionMetadata = z.looseObject({
  totalSuccesses: z.number().int(),
  totalFailures: z.number().int(),
  undetailedFailures: z.number().int(),
});
export type BulkActionMetadata = z.infer<typeof BulkActionMetadata>;

/**
 * The bulk envelope `{results:[{itemMetadata, item?}], bulkActionMetadata}` (wire §7); `item` is present when
 * the request set `returnEntity`.
 */
export function bulkResult<T extends z.ZodType>(item: T) {
  return z.looseObject({
    results: z.array(z.looseObject({ itemMetadata: ItemMetadata, item: item.optional() })),
    bulkActionMetadata: BulkActionMetadata,
  });
}
export interface BulkResult<T> {
  results: { itemMetadata: ItemMetadata; item?: T }[];
  bulkActionMetadata: BulkActionMetadata;
}

/** `{jobId}`: returned by the by-filter bulk calls, which run as asynchronous jobs on the platform. */
export const JobResponse = z.looseObject({ jobId: z.string() });
export type JobResponse = z.infer<typeof JobResponse>;

export const AggregationTypeValues = ['VALUE', 'RANGE', 'SCALAR', 'DATE_HISTOGRAM', 'NESTED'] as const;
export const AggregationType = z.enum(AggregationTypeValues);
export type AggregationType = z.infer<typeof AggregationType>;

export const ScalarTypeValues = ['COUNT_DISTINCT', 'MIN', 'MAX'] as const;
export const ScalarType = z.enum(ScalarTypeValues);
export type ScalarType = z.infer<typeof ScalarType>;

export const DateHistogramIntervalValues = ['YEAR', 'MONTH', 'WEEK', 'DAY', 'HOUR', 'MINUTE', 'SECOND'] as const;
export const DateHistogramInterval = z.enum(DateHistogramIntervalValues);
export type DateHistogramInterval = z.infer<typeof DateHistogramInterval>;

/**
 * An aggregation request of a search: `{name, type, fieldPath, value?, range?, scalar?, dateHistogram?}`.
 * VALUE counts distinct values (`value.limit` buckets), RANGE counts per `range.buckets` `[from, to)`, SCALAR
 * computes `scalar.type`, DATE_HISTOGRAM groups dates by `dateHistogram.interval`.
 */
export const Aggregation = z.looseObject({
  name: z.string().optional(),
  type: AggregationType,
  fieldPath: z.string(),
  value: z
    .looseObject({
      sortType: z.enum(['COUNT', 'VALUE']).optional(),
      sortDirection: z.enum(['DESC', 'ASC']).optional(),
      limit: z.number().int().optional(),
      missingValues: z.enum(['EXCLUDE', 'INCLUDE']).optional(),
    })
    .optional(),
  range: z
    .looseObject({
      buckets: z.array(z.looseObject({ from: z.number().optional(), to: z.number().optional() })),
    })
    .optional(),
  scalar: z.looseObject({ type: ScalarType }).optional(),
  dateHistogram: z.looseObject({ interval: DateHistogramInterval }).optional(),
});
export type Aggregation = z.infer<typeof Aggregation>;

const ValueCount = z.looseObject({ value: z.string(), count: z.number().int() });

/** One aggregation result of a search reply; which of values/ranges/scalar/dateHistogram is set follows `type`. */
export const AggregationResult = z.looseObject({
  name: z.string().optional(),
  type: openEnum(AggregationTypeValues),
  fieldPath: z.string(),
  values: z.looseObject({ results: z.array(ValueCount) }).optional(),
  ranges: z
    .looseObject({
      results: z.array(
        z.looseObject({ from: z.number().optional(), to: z.number().optional(), count: z.number().int() }),
      ),
    })
    .optional(),
  scalar: z.looseObject({ type: openEnum(ScalarTypeValues), value: z.number() }).optional(),
  dateHistogram: z.looseObject({ results: z.array(ValueCount) }).optional(),
});
export type AggregationResult = z.infer<typeof AggregationResult>;

export const AggregationData = z.looseObject({ results: z.array(AggregationResult) });
export type AggregationData = z.infer<typeof AggregationData>;

/** A query filter: Mongo-style operators on dotted field paths (wire §6). Validated by the server, not here. */
export type Filter = Record<string, unknown>;
