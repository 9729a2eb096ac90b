import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import {
  fieldsChecker,
  csvCell,
  flatten,
  pickFields,
  printRecord,
  printRecords,
  resolveFormat,
  ndjsonWhenPiped,
  type Column,
} from '../../../src/core/output.js';
import { fakeIO } from './fake-io.js';

interface Row {
  id: string;
  name: string;
  price: number;
  hidden: boolean;
  createdDate: Date;
  payment?: { rateType: string };
}

const rows: Row[] = [
  { id: 'a1', name: 'Yoga, "hot"', price: 20, hidden: false, createdDate: new Date('2025-01-06T09:00:00Z'), payment: { rateType: 'FIXED' } },
  { id: 'b2', name: 'Pilates\tcore', price: 105, hidden: true, createdDate: new Date('2025-03-01T10:30:00Z') },
];
const columns: Column<Row>[] = [
  { key: 'id', noTruncate: true },
  { key: 'name' },
  { key: 'price', align: 'right' },
  { key: 'hidden' },
  { key: 'createdDate', header: 'CREATED' },
];
const now = new Date('2025-03-02T10:30:00Z');

async function* slowly<T>(items: T[]): AsyncGenerator<T> {
  for (const item of items) {
    await new Promise((r) => setImmediate(r));
    yield item;
  }
}

describe('resolveFormat', () => {
  it('maps the flags to one format', () => {
    expect(resolveFormat({})).toEqual({ kind: 'table' });
    expect(resolveFormat({ json: true })).toEqual({ kind: 'json' });
    expect(resolveFormat({ json: 'id, name,payment.rateType' })).toEqual({ kind: 'json', fields: ['id', 'name', 'payment.rateType'] });
    expect(resolveFormat({ ndjson: true })).toEqual({ kind: 'ndjson' });
    expect(resolveFormat({ csv: true })).toEqual({ kind: 'csv' });
    expect(resolveFormat({ csv: 'id,payment.rateType' })).toEqual({ kind: 'csv', fields: ['id', 'payment.rateType'] });
  });

  it('checks --csv fields as --json fields, and takes the keys of the columns too', () => {
    const check = fieldsChecker(['id', 'name']);
    expect(() => resolveFormat({ csv: 'id,nmae' }, check)).toThrow('unknown field "nmae" for --csv');
    expect(() => resolveFormat({ csv: 'id,x' }, check, { columns: ['price'] })).toThrow(expect.objectContaining({ hint: 'valid fields: price, id, name' }));
    expect(resolveFormat({ csv: 'price,name' }, check, { columns: ['price'] })).toEqual({ kind: 'csv', fields: ['price', 'name'] });
    // A column key is not a --json field: JSON prints the records' own fields.
    expect(() => resolveFormat({ json: 'price' }, check, { columns: ['price'] })).toThrow('unknown field "price" for --json');
    expect(() => resolveFormat({ csv: 'a;b' })).toThrow(/--csv takes comma-separated field names/);
    expect(() => resolveFormat({ csv: true, ndjson: true })).toThrow('choose one of --json, --ndjson and --csv');
  });
  it('rejects two formats and a field list that is not one', () => {
    expect(() => resolveFormat({ json: true, csv: true })).toThrow(UserError);
    expect(() => resolveFormat({ json: '0b91b326-a777-4bdc' })).toThrow(/comma-separated field names/);
  });
});

describe('printRecords off a TTY', () => {
  it('prints TSV without a header, ISO dates, tabs flattened', async () => {
    const f = fakeIO({ tty: false });
    await printRecords(f.io, { kind: 'table' }, rows, columns, { now });
    expect(f.out()).toBe(
      'a1\tYoga, "hot"\t20\tfalse\t2025-01-06T09:00:00.000Z\n' + 'b2\tPilates core\t105\ttrue\t2025-03-01T10:30:00.000Z\n',
    );
  });

  it('prints CSV with a header and RFC 4180 quoting', async () => {
    const f = fakeIO({ tty: false });
    await printRecords(f.io, { kind: 'csv' }, rows, columns);
    const lines = f.out().split('\n');
    expect(lines[0]).toBe('id,name,price,hidden,createdDate');
    expect(lines[1]).toBe('a1,"Yoga, ""hot""",20,false,2025-01-06T09:00:00.000Z');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(' edge')).toBe('" edge"');
    expect(csvCell('plain')).toBe('plain');
  });

  it('prints the --csv fields asked for: a column by its key (its cell), any other field by its path', async () => {
    const f = fakeIO({ tty: false });
    const shouting: Column<Row>[] = [{ key: 'name', get: (r) => r.name.toUpperCase() }];
    await printRecords(f.io, { kind: 'csv', fields: ['name', 'payment.rateType', 'createdDate'] }, rows, shouting);
    expect(f.out().split('\n')).toEqual(['name,payment.rateType,createdDate', '"YOGA, ""HOT""",FIXED,2025-01-06T09:00:00.000Z', 'PILATES\tCORE,,2025-03-01T10:30:00.000Z', '']);
  });

  it('wraps --json rows in an envelope: a field list applies to the rows unless it names the envelope keys', async () => {
    const envelope = { key: 'rows', extra: { total: 2, meta: { a: 1 } } };
    const print = async (fields?: string[]) => {
      const f = fakeIO({ tty: false });
      await printRecords(f.io, { kind: 'json', fields }, rows, columns, { envelope });
      return JSON.parse(f.out());
    };
    expect(Object.keys(await print())).toEqual(['rows', 'total', 'meta']);
    expect(await print(['id'])).toEqual({ rows: [{ id: 'a1' }, { id: 'b2' }], total: 2, meta: { a: 1 } });
    expect(await print(['total'])).toEqual({ total: 2 });
    expect(await print(['id', 'meta.a'])).toEqual({ rows: [{ id: 'a1' }, { id: 'b2' }], meta: { a: 1 } });
    expect((await print(['rows'])).rows).toHaveLength(2);
  });

  it('keeps NDJSON for a feed piped without a format flag, and any format asked for', () => {
    expect(ndjsonWhenPiped(fakeIO({ tty: false }).io, { kind: 'table' })).toEqual({ kind: 'ndjson' });
    expect(ndjsonWhenPiped(fakeIO({ tty: true }).io, { kind: 'table' })).toEqual({ kind: 'table' });
    expect(ndjsonWhenPiped(fakeIO({ tty: false }).io, { kind: 'csv' })).toEqual({ kind: 'csv' });
  });

  it('prints all fields as JSON, or only the listed ones', async () => {
    const all = fakeIO({ tty: false });
    await printRecords(all.io, { kind: 'json' }, rows, columns);
    const parsed = JSON.parse(all.out());
    expect(parsed).toHaveLength(2);
    expect(parsed[0]).toEqual({ ...rows[0], createdDate: '2025-01-06T09:00:00.000Z' });

    const some = fakeIO({ tty: false });
    await printRecords(some.io, { kind: 'json', fields: ['id', 'payment.rateType'] }, rows, columns);
    expect(JSON.parse(some.out())).toEqual([{ id: 'a1', payment: { rateType: 'FIXED' } }, { id: 'b2' }]);
  });

  it('refuses an unknown --json field before anything is printed, naming the valid ones', () => {
    const check = fieldsChecker(['id', 'name', 'payment']);
    expect(() => resolveFormat({ json: 'id,nmae' }, check)).toThrow('unknown field "nmae" for --json');
    expect(() => resolveFormat({ json: 'id,nmae' }, check)).toThrow(expect.objectContaining({ hint: 'valid fields: id, name, payment' }));
    expect(resolveFormat({ json: 'id,payment.rateType' }, check)).toEqual({ kind: 'json', fields: ['id', 'payment.rateType'] });
  });

  it('streams NDJSON record by record from an async iterable', async () => {
    const f = fakeIO({ tty: false });
    const seen: number[] = [];
    async function* watched(): AsyncGenerator<Row> {
      for await (const r of slowly(rows)) {
        seen.push(f.out().split('\n').length - 1);
        yield r;
      }
    }
    await printRecords(f.io, { kind: 'ndjson' }, watched(), columns);
    // The first record was written before the second one was produced.
    expect(seen).toEqual([0, 1]);
    const lines = f.out().trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.id)).toEqual(['a1', 'b2']);
  });
});

describe('printRecords on a TTY', () => {
  it('prints an aligned table with a header and human dates, no colour under NO_COLOR', async () => {
    const f = fakeIO({ tty: true, columns: 120, env: { NO_COLOR: '1' } });
    await printRecords(f.io, { kind: 'table' }, rows, columns, { now, zone: 'UTC' });
    const lines = f.out().trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME\s+PRICE\s+HIDDEN\s+CREATED$/);
    // Times by the one time rule, in the zone given: past ones (and any past the next 7 days) as date and time.
    expect(lines[1]).toMatch(/^a1\s+Yoga, "hot"\s+20\s+false\s+2025-01-06 09:00$/);
    expect(lines[2]).toMatch(/2025-03-01 10:30$/);
    // Right-aligned numbers end in the same column.
    expect(lines[1]!.indexOf('20') + 2).toBe(lines[2]!.indexOf('105') + 3);
    expect(f.out()).not.toContain('\u001b[');
    // The clock is named once, under the table, on stderr.
    expect(f.err()).toBe('times in UTC\n');
  });

  it('shows an age column as an age up to a day', async () => {
    const f = fakeIO({ tty: true, columns: 120, env: { NO_COLOR: '1' } });
    const recent = [{ id: 'c3', createdDate: new Date(now.getTime() - 3 * 60_000) }, { id: 'd4', createdDate: new Date('2025-02-20T08:00:00Z') }];
    await printRecords(f.io, { kind: 'table' }, recent, [{ key: 'id' }, { key: 'createdDate', header: 'WHEN', age: true }], { now, zone: 'UTC' });
    expect(f.out().trimEnd().split('\n').slice(1)).toEqual(['c3  3m ago', 'd4  2025-02-20 08:00']);
  });

  it('streams a table row by row for a feed: fixed widths, escaped cells, the header before the first row', async () => {
    const f = fakeIO({ tty: true, columns: 60, env: { NO_COLOR: '1' } });
    const seen: string[] = [];
    const feed: Column<Row>[] = [{ key: 'id', width: 4 }, { key: 'name', width: 12 }, { key: 'price', align: 'right', width: 5 }];
    async function* watched(): AsyncGenerator<Row> {
      for await (const r of slowly([{ ...rows[0]!, name: 'evil\u001b[2Jname that is long' }, rows[1]!])) {
        seen.push(f.out());
        yield r;
      }
    }
    await printRecords(f.io, { kind: 'table' }, watched(), feed, { now, stream: true });
    // The first row was on the terminal before the second was read.
    expect(seen[1]).toBe('ID    NAME          PRICE\na1    evil\\x1b[2J…     20\n');
    expect(f.out().split('\n')[2]).toBe('b2    Pilates core    105');
  });

  it('streams a long table sized on its first rows: at most the sample is held before the first line is out', async () => {
    const f = fakeIO({ tty: true, columns: 80, env: { NO_COLOR: '1' } });
    const cols: Column<{ id: string; name: string }>[] = [{ key: 'id' }, { key: 'name' }];
    let read = 0;
    let readWhenFirstOut: number | undefined;
    async function* many(): AsyncGenerator<{ id: string; name: string }> {
      for (let i = 0; i < 1000; i++) {
        if (readWhenFirstOut === undefined && f.out() !== '') readWhenFirstOut = read;
        read++;
        // Names grow after the sample: the columns keep the sample's widths (a longer cell is cut to fit).
        yield { id: `r${i}`, name: i < 3 ? `name ${i}` : `a much longer name ${i}` };
      }
    }
    await printRecords(f.io, { kind: 'table' }, many(), cols, { now, stream: true, widthSample: 3 });
    expect(readWhenFirstOut).toBe(4);
    const lines = f.out().trimEnd().split('\n');
    expect(lines).toHaveLength(1001);
    expect(lines.slice(0, 3)).toEqual(['ID  NAME', 'r0  name 0', 'r1  name 1']);
    expect(lines[4]).toMatch(/^r3 {2}a mu.{0,2}…$/);
  });

  it('names the clock of a streamed table only when a cell shows a time: above it, under it, or not at all', async () => {
    const plainCols: Column<Row>[] = [{ key: 'id' }, { key: 'name' }];
    const timed: Column<Row>[] = [{ key: 'id' }, { key: 'createdDate', header: 'CREATED' }];
    // No column shows a time (as `services list --all` on a terminal): no clock line.
    const f1 = fakeIO({ tty: true, columns: 80, env: { NO_COLOR: '1' } });
    await printRecords(f1.io, { kind: 'table' }, slowly(rows), plainCols, { now, zone: 'Europe/Berlin', stream: true, widthSample: 200 });
    expect(f1.out().trimEnd().split('\n')).toHaveLength(3);
    expect(f1.err()).toBe('');
    // A time in the first rows: named before the header.
    const f2 = fakeIO({ tty: true, columns: 80, env: { NO_COLOR: '1' } });
    const seen: string[] = [];
    async function* watched(): AsyncGenerator<Row> {
      for await (const r of slowly([...rows, rows[0]!])) {
        seen.push(f2.err());
        yield r;
      }
    }
    await printRecords(f2.io, { kind: 'table' }, watched(), timed, { now, zone: 'UTC', stream: true, widthSample: 1 });
    // Read before the third row: the sample (one row) and the header are out, the clock above them.
    expect(seen[2]).toBe('times in UTC\n');
    expect(f2.out().split('\n')[0]).toMatch(/^ID\s+CREATED$/);
    expect(f2.err()).toBe('times in UTC\n');
    // A time first shown past the sample: named once, after the last row.
    const f3 = fakeIO({ tty: true, columns: 80, env: { NO_COLOR: '1' } });
    const untimed = { ...rows[0]!, createdDate: undefined as unknown as Date };
    const late = [untimed, untimed, rows[1]!];
    let errBeforeLast: string | undefined;
    async function* lateTime(): AsyncGenerator<Row> {
      for await (const r of slowly(late)) {
        errBeforeLast = f3.err();
        yield r;
      }
    }
    await printRecords(f3.io, { kind: 'table' }, lateTime(), timed, { now, zone: 'UTC', stream: true, widthSample: 1 });
    expect(errBeforeLast).toBe('');
    expect(f3.err()).toBe('times in UTC\n');
    expect(f3.out().trimEnd().split('\n')[3]).toMatch(/^b2 {2}2025-0/);
  });

  it('prints nothing for no records (no lone header)', async () => {
    const f = fakeIO({ tty: true, env: { NO_COLOR: '1' } });
    await printRecords(f.io, { kind: 'table' }, [], columns, { now });
    expect(f.out()).toBe('');
  });

  it('makes the header bold when colour is on', async () => {
    const f = fakeIO({ tty: true, columns: 120, env: {} });
    await printRecords(f.io, { kind: 'table' }, rows, columns, { now });
    const header = f.out().split('\n')[0]!;
    expect(header.startsWith('\u001b[1mID  NAME')).toBe(true);
    expect(header.endsWith('CREATED\u001b[22m')).toBe(true);
  });

  it('fits the terminal width by shortening text columns, never ids', async () => {
    const long: Row[] = [{ ...rows[0]!, id: 'x'.repeat(36), name: 'A very long service name that does not fit' }];
    const f = fakeIO({ tty: true, columns: 70, env: { NO_COLOR: '1' } });
    await printRecords(f.io, { kind: 'table' }, long, columns, { now });
    const lines = f.out().trimEnd().split('\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(70);
    expect(lines[1]).toContain('x'.repeat(36));
    expect(lines[1]).toContain('…');
  });
});

describe('printRecord', () => {
  const record = { id: 'a1', name: 'Yoga', createdDate: new Date('2025-01-06T09:00:00Z'), payment: { rateType: 'FIXED' } };

  it('shows key/value rows on a TTY and key<TAB>value piped', async () => {
    const tty = fakeIO({ tty: true, env: { NO_COLOR: '1' } });
    await printRecord(tty.io, { kind: 'table' }, record, { now });
    expect(tty.out()).toContain('payment.rateType  FIXED');
    const piped = fakeIO({ tty: false });
    await printRecord(piped.io, { kind: 'table' }, record, { now });
    expect(piped.out()).toBe('id\ta1\nname\tYoga\ncreatedDate\t2025-01-06T09:00:00.000Z\npayment.rateType\tFIXED\n');
  });

  it('prints the object (not an array) as JSON, with field selection', async () => {
    const f = fakeIO({ tty: false });
    await printRecord(f.io, { kind: 'json', fields: ['name'] }, record);
    expect(JSON.parse(f.out())).toEqual({ name: 'Yoga' });
  });
});

describe('helpers', () => {
  it('pickFields rebuilds nesting; flatten lists leaves', () => {
    expect(pickFields({ a: { b: 1, c: 2 }, d: 3 }, ['a.b', 'd'])).toEqual({ a: { b: 1 }, d: 3 });
    expect(flatten({ a: [{ b: 1 }], c: {} })).toEqual([
      ['a.0.b', 1],
      ['c', {}],
    ]);
  });

});

describe('terminal width', () => {
  it('takes $COLUMNS, then the terminal, and treats a width of 0 as unknown (80)', () => {
    expect(fakeIO({ tty: true, columns: 120 }).io.columns).toBe(120);
    expect(fakeIO({ tty: true, columns: 0 }).io.columns).toBe(80);
    expect(fakeIO({ tty: true, columns: 0, env: { COLUMNS: '100' } }).io.columns).toBe(100);
    expect(fakeIO({ tty: true, columns: 120, env: { COLUMNS: '0' } }).io.columns).toBe(120);
  });
});
