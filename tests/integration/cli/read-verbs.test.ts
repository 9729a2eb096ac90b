/**
 * The read verbs and the one exporter (docs/architecture.md "Output and interaction"), the CLI in process against
 * a real emulator on port 0: every noun that lists also counts and exports with the same selection flags, and
 * `--json id`, `--ndjson` and `--csv id` give the same rows on every output made of rows (list, export, search,
 * history, events), with the same field checking. Then the specific fixes: `members count`, `bookings export` and
 * the bookings e-mail column, `plans stats` with active and archived counts, events as a table on a terminal that
 * takes no keys.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, runInProcess, startTestEmulator, type CliResult, type CliSandbox, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';
import { expectError } from '../../helpers/expect-error.js';

let emu: TestEmulator;
/** One state directory across the runs, so `history` sees the change made here. */
let sandbox: CliSandbox;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 20, bookings: 80, members: 40 });
  sandbox = createCliSandbox();
});
afterAll(async () => {
  await emu?.close();
  sandbox?.cleanup();
});

const cli = (args: string[], opts: InProcessOptions = {}) => runInProcess(args, { emulator: emu, sandbox, ...opts });

/** The `key` of each row of an output in `format`, checking the format's own shape on the way. */
function keysOf(r: CliResult, format: 'json' | 'ndjson' | 'csv', key: string): string[] {
  expect(r.code, r.stderr).toBe(0);
  if (format === 'json') {
    const rows = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    for (const row of rows) expect(Object.keys(row)).toEqual([key]);
    return rows.map((row) => String(row[key]));
  }
  const lines = r.stdout === '' ? [] : r.stdout.replace(/\n$/, '').split('\n');
  if (format === 'ndjson') return lines.map((l) => String((JSON.parse(l) as Record<string, unknown>)[key]));
  expect(lines[0]).toBe(key);
  return lines.slice(1);
}

/** Each noun that lists, a selection of its own flags, and whether its `export` is the shared one. */
const NOUNS: Array<{ noun: string; select: string[]; shared: boolean }> = [
  { noun: 'services', select: ['--where', 'type=CLASS'], shared: false },
  { noun: 'bookings', select: ['--status', 'CONFIRMED', '--from', 'today'], shared: true },
  { noun: 'members', select: ['--status', 'PENDING'], shared: true },
  { noun: 'orders', select: ['--status', 'ACTIVE,PAUSED'], shared: true },
  { noun: 'plans', select: ['--state', 'all'], shared: true },
  { noun: 'staff', select: ['--where', 'email=maya.chen@demo-studio.example.com'], shared: true },
];

describe.each(NOUNS)('$noun: list, count and export with the same selection', ({ noun, select, shared }) => {
  it('has list, count and export', async () => {
    const help = await cli([noun, '--help']);
    for (const verb of ['list', 'count', 'export']) expect(help.stdout).toMatch(new RegExp(`^  ${verb}\\b`, 'm'));
  });

  it('counts what list lists, and --json id, --ndjson and --csv id give the same rows on list and export', async () => {
    const listed = keysOf(await cli([noun, 'list', ...select, '--all', '--json', 'id']), 'json', 'id');
    expect(listed.length).toBeGreaterThan(0);
    expect(new Set(listed).size).toBe(listed.length);
    const everything = keysOf(await cli([noun, 'list', '--all', '--ndjson']), 'ndjson', 'id');
    if (noun !== 'plans') expect(listed.length).toBeLessThan(everything.length);
    expect(keysOf(await cli([noun, 'list', ...select, '--all', '--ndjson']), 'ndjson', 'id')).toEqual(listed);
    expect(keysOf(await cli([noun, 'list', ...select, '--all', '--csv', 'id']), 'csv', 'id')).toEqual(listed);

    const count = await cli([noun, 'count', ...select]);
    expect(count.code, count.stderr).toBe(0);
    expect(Number(count.stdout)).toBe(listed.length);
    expect(JSON.parse((await cli([noun, 'count', ...select, '--json'])).stdout)).toEqual({ count: listed.length });

    if (!shared) return;
    for (const format of ['json', 'ndjson', 'csv'] as const) {
      const r = await cli([noun, 'export', ...select, format === 'ndjson' ? '--ndjson' : `--${format}=id`]);
      expect(keysOf(r, format, 'id'), `${noun} export --${format}`).toEqual(listed);
      expect(r.stderr).toMatch(new RegExp(`Exported ${listed.length} `));
    }
  });

  it('refuses an unknown field and a bad selection alike on list, count and export (exit 2, nothing read)', async () => {
    for (const verb of shared ? ['list', 'export'] : ['list']) {
      for (const flag of ['--json', '--csv']) expectError(await cli([noun, verb, `${flag}=id,nosuchfield`]), 2, new RegExp(`unknown field "nosuchfield" for ${flag}`));
    }
    for (const verb of shared ? ['list', 'count', 'export'] : ['list', 'count']) {
      expectError(await cli([noun, verb, '--where', 'nosuchfield=1', '--ndjson']), 2, /nosuchfield/);
    }
  });
});

describe('the other outputs made of rows', () => {
  it('services export keeps its catalogue formats', async () => {
    const r = await cli(['services', 'export', '--where', 'type=CLASS']);
    expect(r.code, r.stderr).toBe(0);
    const catalogue = JSON.parse(r.stdout) as { kind: string; services: unknown[] };
    expect(catalogue.services.length).toBe(Number((await cli(['services', 'count', '--where', 'type=CLASS'])).stdout));
    expect((await cli(['services', 'export', '--where', 'type=CLASS', '--format', 'yaml'])).stdout).toMatch(/^kind: /m);
  });

  it('search, history and events: --json KEY, --ndjson and --csv KEY give the same rows; unknown fields refused', async () => {
    // search: --json wraps the rows beside aggregationData, so the rows are its `services`.
    const search = ['services', 'search', 'yoga', '--agg', 'VALUE:type'];
    const wrapped = JSON.parse((await cli([...search, '--json', 'id'])).stdout) as { services: Array<{ id: string }>; aggregationData: { results: unknown[] } };
    const found = wrapped.services.map((s) => s.id);
    expect(found.length).toBeGreaterThan(0);
    expect(wrapped.aggregationData.results).toHaveLength(1);
    expect(keysOf(await cli([...search, '--ndjson']), 'ndjson', 'id')).toEqual(found);
    expect(keysOf(await cli([...search, '--csv', 'id']), 'csv', 'id')).toEqual(found);
    expect(Object.keys(JSON.parse((await cli([...search, '--limit', '0', '--json', 'aggregationData'])).stdout))).toEqual(['aggregationData']);

    // A change, so history and events have rows.
    const change = await cli(['services', 'update', '--where', 'type=CLASS', '--set', 'description=exported', '--yes', '--json']);
    expect(change.code, change.stderr).toBe(0);
    const changes = keysOf(await cli(['history', '--json', 'id']), 'json', 'id');
    expect(changes).toHaveLength(1);
    expect(keysOf(await cli(['history', '--ndjson']), 'ndjson', 'id')).toEqual(changes);
    expect(keysOf(await cli(['history', '--csv', 'id']), 'csv', 'id')).toEqual(changes);

    const events = keysOf(await cli(['events', '--type', 'service.*', '--json', 'seq']), 'json', 'seq');
    expect(events.length).toBe(Number((await cli(['services', 'count', '--where', 'type=CLASS'])).stdout));
    expect(keysOf(await cli(['events', '--type', 'service.*', '--ndjson']), 'ndjson', 'seq')).toEqual(events);
    expect(keysOf(await cli(['events', '--type', 'service.*', '--csv', 'seq']), 'csv', 'seq')).toEqual(events);
    // Piped without a format flag, events stay NDJSON, as scripts read them.
    expect(keysOf(await cli(['events', '--type', 'service.*']), 'ndjson', 'seq')).toEqual(events);
    // --csv takes dotted paths into the event's entity, quoted as RFC 4180 says.
    const csv = (await cli(['events', '--type', 'service.*', '--csv', 'entityId,entity.description'])).stdout.split('\n');
    expect(csv[0]).toBe('entityId,entity.description');
    expect(csv[1]).toMatch(/^[0-9a-f-]{36},exported$/);

    for (const args of [search, ['history'], ['events']]) {
      for (const flag of ['--json', '--csv']) expectError(await cli([...args, `${flag}=nosuchfield`]), 2, new RegExp(`unknown field "nosuchfield" for ${flag}`));
      expectError(await cli([...args, '--json', '--ndjson']), 2, /choose one of --json, --ndjson and --csv/);
    }
    expectError(await cli(['events', '--follow', '--json']), 2, /--follow does not end/);
  });

  it('quotes CSV cells as RFC 4180 says, on list and export alike', async () => {
    const created = await cli(['staff', 'create', '--name', 'Quote, "Q" Tester', '--email', 'quote.tester@example.com']);
    expect(created.code, created.stderr).toBe(0);
    const select = ['--where', 'email=quote.tester@example.com'];
    const expected = `id,name\n${created.stdout.trim()},"Quote, ""Q"" Tester"\n`;
    expect((await cli(['staff', 'list', ...select, '--csv', 'id,name'])).stdout).toBe(expected);
    expect((await cli(['staff', 'export', ...select, '--csv', 'id,name'])).stdout).toBe(expected);
  });
});

describe('the specific fixes', () => {
  it('a list cut short says so on stderr wherever a person reads it, piped output included; not to a program', async () => {
    const seen = await cli(['services', 'list', '--limit', '3'], { stderrTty: true });
    expect(seen.code, seen.stderr).toBe(0);
    expect(seen.stdout.trim().split('\n')).toHaveLength(3);
    expect(seen.stderr).toMatch(/^Showing 3 of 20 services; use --limit N or --all for more\.$/m);
    const json = await cli(['services', 'list', '--limit', '3', '--json', 'id'], { stderrTty: true });
    expect(JSON.parse(json.stdout)).toHaveLength(3);
    expect(json.stderr).toMatch(/Showing 3 of 20 services/);
    const program = await cli(['services', 'list', '--limit', '3']);
    expect(program.stderr).toBe('');
    const all = await cli(['services', 'list', '--all'], { stderrTty: true });
    expect(all.stdout.trim().split('\n')).toHaveLength(20);
    expect(all.stderr).toBe('');
  });

  it('members count counts by the list flags; members export is the shared one', async () => {
    const all = await emu.request('POST', '/members/v1/members/query', { query: { paging: { limit: 100 } }, fieldsets: ['FULL'] });
    const members = all.body.members as Array<{ status: string }>;
    expect(Number((await cli(['members', 'count'])).stdout)).toBe(members.length);
    expect(Number((await cli(['members', 'count', '--status', 'BLOCKED,OFFLINE'])).stdout)).toBe(members.filter((m) => ['BLOCKED', 'OFFLINE'].includes(m.status)).length);
    expect(Number((await cli(['members', 'count', '--search', 'abbott'])).stdout)).toBe(keysOf(await cli(['members', 'list', '--search', 'abbott', '--all', '--json', 'id']), 'json', 'id').length);
    expectError(await cli(['members', 'export']), 2, /export writes --ndjson, --csv or --json/);
  });

  it('bookings list --csv and bookings export --csv carry the contact e-mail; the wide table shows it', async () => {
    const select = ['--status', 'CONFIRMED', '--limit', '5'];
    const emails = (JSON.parse((await cli(['bookings', 'list', ...select, '--json', 'contactDetails'])).stdout) as Array<{ contactDetails: { email: string } }>).map((b) => b.contactDetails.email);
    expect(emails.every((e) => /@/.test(e))).toBe(true);
    const csv = (await cli(['bookings', 'list', ...select, '--csv'])).stdout.trimEnd().split('\n');
    expect(csv[0]).toBe('id,start,service,contact,status,participants,staff,payment,revision,email');
    expect(csv.slice(1).map((l) => l.split(',').at(-1))).toEqual(emails);
    expect(keysOf(await cli(['bookings', 'list', ...select, '--csv', 'email']), 'csv', 'email')).toEqual(emails);
    const exported = keysOf(await cli(['bookings', 'export', '--status', 'CONFIRMED', '--csv', 'email']), 'csv', 'email');
    expect(exported.slice(0, 5)).toEqual(emails);
    const wide = await cli(['bookings', 'list', ...select], { tty: true, columns: 250 });
    expect(wide.stdout.split('\n')[0]).toMatch(/CONTACT\s+STATUS.*\bEMAIL$/);
    expect(wide.stdout).toContain(emails[0]);
    const narrow = await cli(['bookings', 'list', ...select], { tty: true, columns: 80 });
    expect(narrow.stdout.split('\n')[0]).not.toMatch(/EMAIL/);
  });

  it('plans stats prints the active and archived counts: a small table on a terminal, an object with --json', async () => {
    const active = Number((await cli(['plans', 'count'])).stdout);
    const archived = Number((await cli(['plans', 'count', '--state', 'archived'])).stdout);
    expect(archived).toBeGreaterThan(0);
    expect(JSON.parse((await cli(['plans', 'stats', '--json'])).stdout)).toEqual({ active, archived, totalPlans: active + archived });
    const table = await cli(['plans', 'stats'], { tty: true });
    expect(table.stdout).toMatch(new RegExp(`^active\\s+${active}\\n\\s*archived\\s+${archived}\\n\\s*total\\s+${active + archived}\\n$`));
    expect((await cli(['plans', 'stats'])).stdout).toBe(`active\t${active}\narchived\t${archived}\ntotal\t${active + archived}\n`);
  });

  it('events on a terminal that takes no keys: a table printed as the events come', async () => {
    const r = await cli(['events', '--type', 'service.*'], { tty: true, env: { CI: '1' } });
    expect(r.code, r.stderr).toBe(0);
    const [head, first] = r.stdout.split('\n');
    expect(head).toMatch(/^ {3}SEQ {2}TIME {14}TYPE {26}ENTITY$/);
    expect(first).toMatch(/^\s+\d+ {2}\S.*service\.updated\s+[0-9a-f-]{36}$/);
  });
});
