/**
 * Search aggregations (docs/wire.md §13, docs/wire.md §6), computed over every
 * document matching the search, before paging.
 *
 * Request items: `{name?, type, fieldPath, value?:{limit, sortType:'COUNT'|'VALUE', sortDirection, missingValues},
 * range?:{buckets:[{from?,to?}]}, scalar?:{type:'COUNT_DISTINCT'|'MIN'|'MAX'}, dateHistogram?:{interval}}`.
 * Reply: `{results:[{name, type, fieldPath, values?|ranges?|scalar?|dateHistogram?}]}`.
 */
import { ValidationFailure } from '../errors.js';
import { asNumber, asTime, compilePath, resolve, sortCompare } from './values.js';

export type AggregationType = 'VALUE' | 'RANGE' | 'SCALAR' | 'DATE_HISTOGRAM';
export type ScalarType = 'COUNT_DISTINCT' | 'MIN' | 'MAX';
export type Interval = 'YEAR' | 'MONTH' | 'WEEK' | 'DAY' | 'HOUR' | 'MINUTE' | 'SECOND';

export interface AggregationResult {
  name: string;
  type: AggregationType;
  fieldPath: string;
  values?: { results: Array<{ value: unknown; count: number }> };
  ranges?: { results: Array<{ from?: number; to?: number; count: number }> };
  scalar?: { type: ScalarType; value: number | null };
  dateHistogram?: { results: Array<{ value: string; count: number }> };
}

const INTERVALS = new Set<Interval>(['YEAR', 'MONTH', 'WEEK', 'DAY', 'HOUR', 'MINUTE', 'SECOND']);
const DEFAULT_VALUE_LIMIT = 10;

type Compiled = (docs: readonly unknown[]) => AggregationResult;

/** One requested aggregation as it arrives (checked field by field below). */
interface AggregationRequest {
  name?: unknown;
  type?: unknown;
  fieldPath?: unknown;
  value?: Record<string, unknown>;
  range?: { buckets?: unknown };
  scalar?: { type?: unknown };
  dateHistogram?: { interval?: unknown };
}

/**
 * Validates the aggregation requests and returns a function computing `aggregationData` for a document set.
 * @throws ValidationFailure (`search.aggregations[i]...`) on an unknown type, a missing fieldPath, bad buckets,
 *   a bad scalar type or interval.
 */
export function compileAggregations(
  aggregations: unknown,
  field = 'search.aggregations',
): (docs: readonly unknown[]) => { results: AggregationResult[] } {
  if (aggregations === undefined || aggregations === null) return () => ({ results: [] });
  if (!Array.isArray(aggregations)) throw ValidationFailure.field(field, 'must be an array');
  const compiled = aggregations.map((a, i) => compileOne(a, `${field}[${i}]`));
  return (docs) => ({ results: compiled.map((c) => c(docs)) });
}

function compileOne(raw: unknown, field: string): Compiled {
  if (typeof raw !== 'object' || raw === null) throw ValidationFailure.field(field, 'must be an object');
  const a = raw as AggregationRequest;
  if (typeof a.fieldPath !== 'string' || a.fieldPath === '') {
    throw ValidationFailure.field(`${field}.fieldPath`, 'fieldPath is required', 'REQUIRED_FIELD');
  }
  const fieldPath: string = a.fieldPath;
  const path = compilePath(fieldPath);
  const type = a.type as AggregationType;
  const name: string = typeof a.name === 'string' ? a.name : fieldPath;
  const valuesOf = (doc: unknown) => resolve(doc, path).values.filter((v) => v !== null && v !== undefined);
  switch (type) {
    case 'VALUE': {
      const opts = (a.value ?? {}) as Record<string, unknown>;
      const limit = opts.limit === undefined ? DEFAULT_VALUE_LIMIT : Number(opts.limit);
      if (!Number.isInteger(limit) || limit < 1) throw ValidationFailure.field(`${field}.value.limit`, 'must be a positive integer');
      const sortType = opts.sortType ?? 'COUNT';
      const sortDirection = opts.sortDirection ?? (sortType === 'COUNT' ? 'DESC' : 'ASC');
      if (sortType !== 'COUNT' && sortType !== 'VALUE') throw ValidationFailure.field(`${field}.value.sortType`, 'must be COUNT or VALUE', 'INVALID_ENUM_VALUE');
      if (sortDirection !== 'ASC' && sortDirection !== 'DESC') throw ValidationFailure.field(`${field}.value.sortDirection`, 'must be ASC or DESC', 'INVALID_ENUM_VALUE');
      const includeMissing = opts.missingValues === 'INCLUDE';
      return (docs) => {
        const counts = new Map<string, { value: unknown; count: number }>();
        for (const d of docs) {
          // A document counts once per distinct value even if an array holds it twice.
          const seen = new Set<string>();
          const vs = valuesOf(d);
          if (vs.length === 0 && includeMissing) vs.push('N/A');
          for (const v of vs) {
            const key = typeof v === 'object' ? JSON.stringify(v) : `${typeof v}:${String(v)}`;
            if (seen.has(key)) continue;
            seen.add(key);
            const e = counts.get(key);
            if (e) e.count++;
            else counts.set(key, { value: v, count: 1 });
          }
        }
        const sign = sortDirection === 'DESC' ? -1 : 1;
        const results = [...counts.values()].sort((x, y) =>
          sortType === 'COUNT'
            ? (x.count - y.count) * sign || sortCompare(x.value, y.value)
            : sortCompare(x.value, y.value) * sign,
        );
        return { name, type, fieldPath, values: { results: results.slice(0, limit) } };
      };
    }
    case 'RANGE': {
      const buckets = a.range?.buckets;
      if (!Array.isArray(buckets) || buckets.length === 0) {
        throw ValidationFailure.field(`${field}.range.buckets`, 'at least one bucket {from?, to?} is required', 'REQUIRED_FIELD');
      }
      const parsed = buckets.map((b: { from?: unknown; to?: unknown } | null, i: number) => {
        const from = b?.from === undefined ? undefined : asNumber(b.from);
        const to = b?.to === undefined ? undefined : asNumber(b.to);
        if ((b?.from !== undefined && from === undefined) || (b?.to !== undefined && to === undefined) || (from === undefined && to === undefined)) {
          throw ValidationFailure.field(`${field}.range.buckets[${i}]`, 'a bucket needs a numeric from and/or to');
        }
        return { from, to };
      });
      return (docs) => {
        const results = parsed.map((b) => ({ ...b, count: 0 }));
        for (const d of docs) {
          const nums = valuesOf(d).map(asNumber).filter((n): n is number => n !== undefined);
          for (const r of results) {
            // Buckets are [from, to): from inclusive, to exclusive.
            if (nums.some((n) => (r.from === undefined || n >= r.from) && (r.to === undefined || n < r.to))) r.count++;
          }
        }
        return {
          name,
          type,
          fieldPath,
          ranges: {
            results: results.map((r) => ({
              ...(r.from !== undefined ? { from: r.from } : {}),
              ...(r.to !== undefined ? { to: r.to } : {}),
              count: r.count,
            })),
          },
        };
      };
    }
    case 'SCALAR': {
      const scalarType = a.scalar?.type as ScalarType;
      if (scalarType !== 'COUNT_DISTINCT' && scalarType !== 'MIN' && scalarType !== 'MAX') {
        throw ValidationFailure.field(`${field}.scalar.type`, 'must be COUNT_DISTINCT, MIN or MAX', 'INVALID_ENUM_VALUE');
      }
      return (docs) => {
        const all = docs.flatMap(valuesOf);
        if (scalarType === 'COUNT_DISTINCT') {
          const distinct = new Set(all.map((v) => (typeof v === 'object' ? JSON.stringify(v) : `${typeof v}:${String(v)}`)));
          return { name, type, fieldPath, scalar: { type: scalarType, value: distinct.size } };
        }
        let best: unknown = undefined;
        for (const v of all) {
          if (best === undefined) best = v;
          else {
            const c = sortCompare(v, best);
            if (scalarType === 'MIN' ? c < 0 : c > 0) best = v;
          }
        }
        // The wire's scalar value is a number: money strings become numbers, dates epoch milliseconds.
        const value = best === undefined ? null : (asNumber(best) ?? asTime(best) ?? null);
        return { name, type, fieldPath, scalar: { type: scalarType, value } };
      };
    }
    case 'DATE_HISTOGRAM': {
      const interval = a.dateHistogram?.interval as Interval;
      if (!INTERVALS.has(interval)) {
        throw ValidationFailure.field(`${field}.dateHistogram.interval`, 'must be YEAR, MONTH, WEEK, DAY, HOUR, MINUTE or SECOND', 'INVALID_ENUM_VALUE');
      }
      return (docs) => {
        const counts = new Map<number, number>();
        for (const d of docs) {
          const seen = new Set<number>();
          for (const v of valuesOf(d)) {
            const t = asTime(v);
            if (t === undefined) continue;
            const bucket = truncate(t, interval);
            if (seen.has(bucket)) continue;
            seen.add(bucket);
            counts.set(bucket, (counts.get(bucket) ?? 0) + 1);
          }
        }
        const results = [...counts.entries()]
          .sort((x, y) => x[0] - y[0])
          .map(([t, count]) => ({ value: new Date(t).toISOString(), count }));
        return { name, type, fieldPath, dateHistogram: { results } };
      };
    }
    default:
      throw ValidationFailure.field(`${field}.type`, 'must be VALUE, RANGE, SCALAR or DATE_HISTOGRAM', 'INVALID_ENUM_VALUE');
  }
}

/** Start (epoch ms, UTC) of the interval holding t; weeks start on Monday. */
export function truncate(t: number, interval: Interval): number {
  const d = new Date(t);
  switch (interval) {
    case 'YEAR':
      return Date.UTC(d.getUTCFullYear(), 0, 1);
    case 'MONTH':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    case 'WEEK': {
      const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
      const sinceMonday = (d.getUTCDay() + 6) % 7;
      return day - sinceMonday * 86_400_000;
    }
    case 'DAY':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
    case 'HOUR':
      return t - (t % 3_600_000);
    case 'MINUTE':
      return t - (t % 60_000);
    case 'SECOND':
      return t - (t % 1000);
  }
}
