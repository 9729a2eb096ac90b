/**
 * Search aggregations (docs/wire.md §13, docs/wire.md §6), computed over every
 * document matching the search, before paging.
 *
 * Request items: `{name?, type, fieldPath, value?:{limit, sortType:'COUNT'|'VALUE', sortDirection, missingValues},
 * range?:{buckets:[{from?,to?}]}, scalar?:{type:'COUNT_DISTINCT'|'MIN'|'MAX'}, dateHistogram?:{interval},
 * nested?:{nestedAggregations:[2..10 items of the other four types]}}`.
 * Reply: `{results:[{name, type, fieldPath, values?|ranges?|scalar?|dateHistogram?|nested?}]}`.
 *
 * NESTED (seed A §3 "Aggregation types"; SDK `bookings_services` `NestedAggregation`, `NestedResults`): a chain
 * where each aggregation runs inside every bucket of the one before it; only the last may be a SCALAR. The reply
 * is flat: `nested.results` holds one entry per path through the buckets, `{results: {<name>: {value|range|
 * dateHistogram: {…, count}} | {scalar: {value}}}}`, keyed by each item's name (its fieldPath when unnamed).
 */
import { ValidationFailure } from '../errors.js';
import { asNumber, asTime, compilePath, resolve, sortCompare } from './values.js';

export type AggregationType = 'VALUE' | 'RANGE' | 'SCALAR' | 'DATE_HISTOGRAM' | 'NESTED';
export type ScalarType = 'COUNT_DISTINCT' | 'MIN' | 'MAX';
export type Interval = 'YEAR' | 'MONTH' | 'WEEK' | 'DAY' | 'HOUR' | 'MINUTE' | 'SECOND';

/** One entry of a NESTED result: each level's bucket (or the last level's scalar), by aggregation name. */
export type NestedResultValue =
  | { value: { value: string; count: number } }
  | { range: { from?: number; to?: number; count: number } }
  | { dateHistogram: { value: string; count: number } }
  | { scalar: { value: number | null } };

export interface AggregationResult {
  name: string;
  type: AggregationType;
  fieldPath?: string;
  values?: { results: Array<{ value: unknown; count: number }> };
  ranges?: { results: Array<{ from?: number; to?: number; count: number }> };
  scalar?: { type: ScalarType; value: number | null };
  dateHistogram?: { results: Array<{ value: string; count: number }> };
  nested?: { results: Array<{ results: Record<string, NestedResultValue> }> };
}

const INTERVALS = new Set<Interval>(['YEAR', 'MONTH', 'WEEK', 'DAY', 'HOUR', 'MINUTE', 'SECOND']);
const DEFAULT_VALUE_LIMIT = 10;
/** Sizes of a NESTED chain (SDK `NestedAggregation.nestedAggregations`: minSize 2, maxSize 10). */
const NESTED_MIN = 2;
const NESTED_MAX = 10;

/** One bucket of a bucket aggregation: its reply entry and the documents in it (what a nested level runs on). */
interface Bucket<R> {
  result: R;
  docs: readonly unknown[];
}

/** A compiled aggregation of one field: buckets (VALUE, RANGE, DATE_HISTOGRAM) or one value (SCALAR). */
type Kind =
  | { kind: 'VALUE'; buckets: (docs: readonly unknown[]) => Array<Bucket<{ value: unknown; count: number }>> }
  | { kind: 'RANGE'; buckets: (docs: readonly unknown[]) => Array<Bucket<{ from?: number; to?: number; count: number }>> }
  | { kind: 'DATE_HISTOGRAM'; buckets: (docs: readonly unknown[]) => Array<Bucket<{ value: string; count: number }>> }
  | { kind: 'SCALAR'; scalarType: ScalarType; value: (docs: readonly unknown[]) => number | null };

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
  nested?: { nestedAggregations?: unknown };
}

/**
 * Validates the aggregation requests and returns a function computing `aggregationData` for a document set.
 * @throws ValidationFailure (`search.aggregations[i]...`) on an unknown type, a missing fieldPath, bad buckets,
 *   a bad scalar type or interval, a NESTED chain of fewer than 2 or more than 10 items, or one with a NESTED
 *   item or a SCALAR before its last item.
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

function request(raw: unknown, field: string): AggregationRequest {
  if (typeof raw !== 'object' || raw === null) throw ValidationFailure.field(field, 'must be an object');
  return raw as AggregationRequest;
}

function fieldPathOf(a: AggregationRequest, field: string): string {
  if (typeof a.fieldPath !== 'string' || a.fieldPath === '') {
    throw ValidationFailure.field(`${field}.fieldPath`, 'fieldPath is required', 'REQUIRED_FIELD');
  }
  return a.fieldPath;
}

function compileOne(raw: unknown, field: string): Compiled {
  const a = request(raw, field);
  if (a.type === 'NESTED') return compileNested(a, field);
  const fieldPath = fieldPathOf(a, field);
  const name: string = typeof a.name === 'string' ? a.name : fieldPath;
  const k = compileKind(a, fieldPath, field);
  switch (k.kind) {
    case 'VALUE':
      return (docs) => ({ name, type: 'VALUE', fieldPath, values: { results: k.buckets(docs).map((b) => b.result) } });
    case 'RANGE':
      return (docs) => ({ name, type: 'RANGE', fieldPath, ranges: { results: k.buckets(docs).map((b) => b.result) } });
    case 'DATE_HISTOGRAM':
      return (docs) => ({ name, type: 'DATE_HISTOGRAM', fieldPath, dateHistogram: { results: k.buckets(docs).map((b) => b.result) } });
    case 'SCALAR':
      return (docs) => ({ name, type: 'SCALAR', fieldPath, scalar: { type: k.scalarType, value: k.value(docs) } });
  }
}

/** A NESTED aggregation: its chain compiled, the reply one entry per path through the buckets. */
function compileNested(a: AggregationRequest, field: string): Compiled {
  const items = a.nested?.nestedAggregations;
  const at = `${field}.nested.nestedAggregations`;
  if (!Array.isArray(items) || items.length < NESTED_MIN || items.length > NESTED_MAX) {
    throw ValidationFailure.field(at, `a NESTED aggregation holds ${NESTED_MIN} to ${NESTED_MAX} aggregations, each nested within the one before`, 'INVALID');
  }
  const levels = items.map((raw, i) => {
    const item = request(raw, `${at}[${i}]`);
    if (item.type === 'NESTED') throw ValidationFailure.field(`${at}[${i}].type`, 'must be VALUE, RANGE, SCALAR or DATE_HISTOGRAM', 'INVALID_ENUM_VALUE');
    const fieldPath = fieldPathOf(item, `${at}[${i}]`);
    const kind = compileKind(item, fieldPath, `${at}[${i}]`);
    if (kind.kind === 'SCALAR' && i < items.length - 1) {
      throw ValidationFailure.field(`${at}[${i}].type`, 'a SCALAR has no buckets to nest in: it may only be the last aggregation', 'INVALID');
    }
    return { name: typeof item.name === 'string' ? item.name : fieldPath, kind };
  });
  const names = new Set<string>();
  levels.forEach((l, i) => {
    if (names.has(l.name)) throw ValidationFailure.field(`${at}[${i}].name`, `'${l.name}' names two aggregations of the chain: each needs its own name`, 'INVALID');
    names.add(l.name);
  });
  const name: string = typeof a.name === 'string' ? a.name : levels.map((l) => l.name).join('>');
  return (docs) => {
    const out: Array<{ results: Record<string, NestedResultValue> }> = [];
    const walk = (level: number, subset: readonly unknown[], path: Record<string, NestedResultValue>): void => {
      const { name: key, kind } = levels[level]!;
      const last = level === levels.length - 1;
      const next = (entry: NestedResultValue, inside: readonly unknown[]) => {
        const here = { ...path, [key]: entry };
        if (last) out.push({ results: here });
        else walk(level + 1, inside, here);
      };
      switch (kind.kind) {
        case 'SCALAR':
          next({ scalar: { value: kind.value(subset) } }, subset);
          return;
        case 'VALUE':
          // The wire's nested value is a string (SDK `ValueResult.value`).
          for (const b of kind.buckets(subset)) next({ value: { value: typeof b.result.value === 'string' ? b.result.value : JSON.stringify(b.result.value), count: b.result.count } }, b.docs);
          return;
        case 'RANGE':
          for (const b of kind.buckets(subset)) next({ range: b.result }, b.docs);
          return;
        case 'DATE_HISTOGRAM':
          for (const b of kind.buckets(subset)) next({ dateHistogram: b.result }, b.docs);
          return;
      }
    };
    walk(0, docs, {});
    return { name, type: 'NESTED', nested: { results: out } };
  };
}

/** Compiles one aggregation of a field (every type but NESTED). @throws ValidationFailure as {@link compileAggregations} */
function compileKind(a: AggregationRequest, fieldPath: string, field: string): Kind {
  const path = compilePath(fieldPath);
  const valuesOf = (doc: unknown) => resolve(doc, path).values.filter((v) => v !== null && v !== undefined);
  switch (a.type) {
    case 'VALUE': {
      const opts = (a.value ?? {}) as Record<string, unknown>;
      const limit = opts.limit === undefined ? DEFAULT_VALUE_LIMIT : Number(opts.limit);
      if (!Number.isInteger(limit) || limit < 1) throw ValidationFailure.field(`${field}.value.limit`, 'must be a positive integer');
      const sortType = opts.sortType ?? 'COUNT';
      const sortDirection = opts.sortDirection ?? (sortType === 'COUNT' ? 'DESC' : 'ASC');
      if (sortType !== 'COUNT' && sortType !== 'VALUE') throw ValidationFailure.field(`${field}.value.sortType`, 'must be COUNT or VALUE', 'INVALID_ENUM_VALUE');
      if (sortDirection !== 'ASC' && sortDirection !== 'DESC') throw ValidationFailure.field(`${field}.value.sortDirection`, 'must be ASC or DESC', 'INVALID_ENUM_VALUE');
      const includeMissing = opts.missingValues === 'INCLUDE';
      return {
        kind: 'VALUE',
        buckets: (docs) => {
          const groups = new Map<string, { value: unknown; docs: unknown[] }>();
          for (const d of docs) {
            // A document counts once per distinct value even if an array holds it twice.
            const seen = new Set<string>();
            const vs = valuesOf(d);
            if (vs.length === 0 && includeMissing) vs.push('N/A');
            for (const v of vs) {
              const key = typeof v === 'object' ? JSON.stringify(v) : `${typeof v}:${String(v)}`;
              if (seen.has(key)) continue;
              seen.add(key);
              const e = groups.get(key);
              if (e) e.docs.push(d);
              else groups.set(key, { value: v, docs: [d] });
            }
          }
          const sign = sortDirection === 'DESC' ? -1 : 1;
          const sorted = [...groups.values()].sort((x, y) =>
            sortType === 'COUNT' ? (x.docs.length - y.docs.length) * sign || sortCompare(x.value, y.value) : sortCompare(x.value, y.value) * sign,
          );
          return sorted.slice(0, limit).map((g) => ({ result: { value: g.value, count: g.docs.length }, docs: g.docs }));
        },
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
      return {
        kind: 'RANGE',
        buckets: (docs) =>
          parsed.map((r) => {
            // Buckets are [from, to): from inclusive, to exclusive.
            const inside = docs.filter((d) =>
              valuesOf(d)
                .map(asNumber)
                .some((n) => n !== undefined && (r.from === undefined || n >= r.from) && (r.to === undefined || n < r.to)),
            );
            return { result: { ...(r.from !== undefined ? { from: r.from } : {}), ...(r.to !== undefined ? { to: r.to } : {}), count: inside.length }, docs: inside };
          }),
      };
    }
    case 'SCALAR': {
      const scalarType = a.scalar?.type as ScalarType;
      if (scalarType !== 'COUNT_DISTINCT' && scalarType !== 'MIN' && scalarType !== 'MAX') {
        throw ValidationFailure.field(`${field}.scalar.type`, 'must be COUNT_DISTINCT, MIN or MAX', 'INVALID_ENUM_VALUE');
      }
      return {
        kind: 'SCALAR',
        scalarType,
        value: (docs) => {
          const all = docs.flatMap(valuesOf);
          if (scalarType === 'COUNT_DISTINCT') return new Set(all.map((v) => (typeof v === 'object' ? JSON.stringify(v) : `${typeof v}:${String(v)}`))).size;
          let best: unknown = undefined;
          for (const v of all) {
            if (best === undefined) best = v;
            else {
              const c = sortCompare(v, best);
              if (scalarType === 'MIN' ? c < 0 : c > 0) best = v;
            }
          }
          // The wire's scalar value is a number: money strings become numbers, dates epoch milliseconds.
          return best === undefined ? null : (asNumber(best) ?? asTime(best) ?? null);
        },
      };
    }
    case 'DATE_HISTOGRAM': {
      const interval = a.dateHistogram?.interval as Interval;
      if (!INTERVALS.has(interval)) {
        throw ValidationFailure.field(`${field}.dateHistogram.interval`, 'must be YEAR, MONTH, WEEK, DAY, HOUR, MINUTE or SECOND', 'INVALID_ENUM_VALUE');
      }
      return {
        kind: 'DATE_HISTOGRAM',
        buckets: (docs) => {
          const groups = new Map<number, unknown[]>();
          for (const d of docs) {
            const seen = new Set<number>();
            for (const v of valuesOf(d)) {
              const t = asTime(v);
              if (t === undefined) continue;
              const bucket = truncate(t, interval);
              if (seen.has(bucket)) continue;
              seen.add(bucket);
              const g = groups.get(bucket);
              if (g) g.push(d);
              else groups.set(bucket, [d]);
            }
          }
          return [...groups.entries()].sort((x, y) => x[0] - y[0]).map(([t, inside]) => ({ result: { value: new Date(t).toISOString(), count: inside.length }, docs: inside }));
        },
      };
    }
    default:
      throw ValidationFailure.field(`${field}.type`, 'must be VALUE, RANGE, SCALAR, DATE_HISTOGRAM or NESTED', 'INVALID_ENUM_VALUE');
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

/**
 * The field paths a list of aggregations reads (each item's `fieldPath`, a NESTED chain's every level), once
 * each. Call it on a list {@link compileAggregations} accepted. @returns [] when none are asked
 */
export function aggregationPaths(aggregations: unknown): string[] {
  if (!Array.isArray(aggregations)) return [];
  const out = new Set<string>();
  for (const raw of aggregations as AggregationRequest[]) {
    const items = raw.type === 'NESTED' ? (raw.nested?.nestedAggregations as AggregationRequest[]) : [raw];
    for (const a of items) out.add(a.fieldPath as string);
  }
  return [...out];
}
