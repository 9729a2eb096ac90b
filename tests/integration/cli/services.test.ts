/**
 * Every non-bulk services verb, run as the built CLI against an in-process emulator: output formats (TTY table
 * via a real pty, TSV, --json [fields], --ndjson, --csv), exit codes, and bad input that must fail with one
 * line (plus an optional hint) and change nothing.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  binPath,
  cliEnv,
  createCliSandbox,
  runCli,
  startTestEmulator,
  stripAnsi,
  type CliResult,
  type TestEmulator,
} from '../../helpers/index.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo' });
});
afterAll(async () => {
  await emu?.close();
});

const cli = (args: string[], opts: Parameters<typeof runCli>[1] = {}) => runCli(args, { emulator: emu, ...opts });

/** The sequence number of the emulator's last domain event: unchanged means nothing was written. */
async function lastEventSeq(): Promise<number> {
  let after = 0;
  for (;;) {
    const r = await emu.request('GET', `/__emulator/events?after=${after}&limit=1000`);
    expect(r.status).toBe(200);
    if (r.body.events.length === 0) return after;
    after = r.body.lastSeq;
  }
}

/** stderr is exactly `error: ...` plus at most one `hint: ...` line. */
function expectOneLineError(r: CliResult, pattern: RegExp): void {
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines[0]).toMatch(/^error: /);
  expect(lines[0]).toMatch(pattern);
  expect(lines.length).toBeLessThanOrEqual(2);
  if (lines[1] !== undefined) expect(lines[1]).toMatch(/^hint: /);
  expect(r.stdout).toBe('');
}

async function createService(name: string): Promise<string> {
  const r = await cli(['services', 'create', '--name', name, '--type', 'APPOINTMENT', '--price', '30', '--capacity', '1']);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}

describe('services list', () => {
  it('prints TSV rows without a header when piped, 50 by default', async () => {
    const r = await cli(['services', 'list']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(50);
    for (const line of lines) {
      const cells = line.split('\t');
      expect(cells).toHaveLength(7);
      expect(cells[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(['APPOINTMENT', 'CLASS', 'COURSE']).toContain(cells[2]);
      expect(cells[6]).toMatch(/^\d+$/);
    }
    expect(r.stderr).toBe('');
  });

  it('--all pages through every service; --limit caps; --json parses', async () => {
    const all = await cli(['services', 'list', '--all', '--json', 'id']);
    expect(all.code, all.stderr).toBe(0);
    const ids = JSON.parse(all.stdout).map((s: { id: string }) => s.id);
    const count = await emu.request('POST', '/_api/bookings/v2/services/count', {});
    expect(ids.length).toBe(count.body.count);
    expect(new Set(ids).size).toBe(ids.length);

    const some = await cli(['services', 'list', '--limit', '7', '--json']);
    const parsed = JSON.parse(some.stdout);
    expect(parsed).toHaveLength(7);
    expect(parsed[0]).toHaveProperty('revision');
    expect(parsed[0]).toHaveProperty('payment');
  });

  it('--json id,name gives only those keys', async () => {
    const r = await cli(['services', 'list', '--limit', '3', '--json', 'id,name']);
    expect(r.code, r.stderr).toBe(0);
    for (const s of JSON.parse(r.stdout)) expect(Object.keys(s).sort()).toEqual(['id', 'name']);
  });

  it('--where filters with typed values, ANDed; --sort orders', async () => {
    const r = await cli(['services', 'list', '--where', 'type=CLASS', '--where', 'hidden=false', '--sort', 'name:desc', '--all', '--json', 'name,type,hidden']);
    expect(r.code, r.stderr).toBe(0);
    const list = JSON.parse(r.stdout) as Array<{ name: string; type: string; hidden: boolean }>;
    expect(list.length).toBeGreaterThan(1);
    for (const s of list) expect(s).toMatchObject({ type: 'CLASS', hidden: false });
    const names = list.map((s) => s.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
  });

  it('--filter takes the platform query language', async () => {
    const r = await cli(['services', 'list', '--filter', '{"type":{"$in":["COURSE","APPOINTMENT"]}}', '--all', '--ndjson']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines.length).toBeGreaterThan(0);
    for (const s of lines) expect(['COURSE', 'APPOINTMENT']).toContain(s.type);
  });

  it('--csv prints a header and quoted rows', async () => {
    const r = await cli(['services', 'list', '--limit', '2', '--csv']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('id,name,type,price,category,hidden,revision');
    expect(lines).toHaveLength(3);
  });

  it('prints an aligned table with a header on a terminal', async () => {
    const r = await cli(['services', 'list', '--limit', '3'], { tty: true, columns: 160 });
    expect(r.code, r.stdout).toBe(0);
    const lines = stripAnsi(r.stdout).trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME\s+TYPE\s+PRICE\s+CATEGORY\s+HIDDEN\s+REVISION$/);
    const idCol = lines[0]!.indexOf('NAME');
    for (const line of lines.slice(1, 4)) expect(line[idCol - 1]).toBe(' ');
    expect(lines.at(-1)).toMatch(/^Showing 3 of \d+ services/);
    expect(r.stdout).toContain('\u001b[1m');
  });

  it('honours NO_COLOR on a terminal', async () => {
    const r = await cli(['services', 'list', '--limit', '2'], { tty: true, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('\u001b[');
  });
});

describe('bad input fails with one line, exit 2, and changes nothing', () => {
  const cases: Array<[string, string[], RegExp]> = [
    ['malformed JSON', ['services', 'list', '--filter', '{"type":'], /--filter is not valid JSON/],
    ['bad --where', ['services', 'count', '--where', 'type'], /--where expects field=value/],
    ['unknown filter operator', ['services', 'list', '--filter', '{"name":{"$regex":"y"}}'], /unknown operator '\$regex'/],
    ['bad --sort', ['services', 'list', '--sort', 'name:sideways'], /--sort order must be asc or desc/],
    ['unknown option', ['services', 'list', '--colour'], /unknown option '--colour'/],
    ['create without a type', ['services', 'create', '--name', 'Nope'], /needs --name and --type/],
    ['create with a bad price', ['services', 'create', '--name', 'Nope', '--type', 'CLASS', '--price', '1e3'], /--price must be an amount/],
    ['bad aggregation', ['services', 'search', '--agg', 'AVG:price'], /unknown aggregation type 'AVG'/],
    ['locations without any', ['services', 'locations', 'set', 'x'], /at least one location/],
    ['two formats', ['services', 'list', '--json', '--csv'], /choose one of/],
  ];
  for (const [what, args, pattern] of cases) {
    it(what, async () => {
      const before = await lastEventSeq();
      const r = await cli(args);
      expect(r.code).toBe(2);
      expectOneLineError(r, pattern);
      expect(await lastEventSeq()).toBe(before);
    });
  }

  it('a field the platform rejects is a validation error with the request id (exit 2)', async () => {
    const before = await lastEventSeq();
    const r = await cli(['services', 'create', '--file', '-'], { input: JSON.stringify({ name: '', type: 'CLASS' }) });
    expect(r.code).toBe(2);
    expectOneLineError(r, /^error: INVALID_ARGUMENT: .*\(request id: [\w-]+\)$/);
    expect(await lastEventSeq()).toBe(before);
  });
});

describe('services get', () => {
  it('prints the full service with --json and a readable view on a terminal', async () => {
    const list = JSON.parse((await cli(['services', 'list', '--limit', '1', '--json', 'id,name'])).stdout);
    const { id, name } = list[0];
    const json = await cli(['services', 'get', id, '--json']);
    expect(json.code, json.stderr).toBe(0);
    const s = JSON.parse(json.stdout);
    expect(s).toMatchObject({ id, name });
    expect(typeof s.revision).toBe('string');
    expect(s.createdDate).toMatch(/^\d{4}-\d\d-\d\dT/);

    const tty = await cli(['services', 'get', id], { tty: true, env: { NO_COLOR: '1' } });
    expect(tty.code).toBe(0);
    expect(tty.stdout).toMatch(new RegExp(`^id\\s+${id}$`, 'm'));
    expect(tty.stdout).toMatch(/^revision\s+\d+$/m);
    expect(tty.stdout).toMatch(/^created\s+(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{4}-\d\d-\d\d \d\d:\d\d$/m);

    const piped = await cli(['services', 'get', id]);
    expect(piped.stdout).toContain(`id\t${id}\n`);
  });

  it('names the staff on a terminal: the service carries their ids, the view reads their names', async () => {
    const services: Array<{ id: string; staffMemberIds?: string[] }> = JSON.parse((await cli(['services', 'list', '--json', 'id,staffMemberIds'])).stdout);
    const service = services.find((s) => s.staffMemberIds?.length)!;
    expect(service, 'the demo seed has a service with staff').toBeDefined();
    const staff: Array<{ id: string; name: string }> = JSON.parse((await cli(['staff', 'list', '--json', 'id,name'])).stdout);
    const names = service.staffMemberIds!.map((sid) => staff.find((m) => m.id === sid)!.name);

    const tty = await cli(['services', 'get', service.id], { tty: true, env: { NO_COLOR: '1' } });
    expect(tty.code, tty.stderr).toBe(0);
    expect(stripAnsi(tty.stdout)).toMatch(new RegExp(`^staff\\s+${names.join(', ')}\\s*$`, 'm'));
  });

  it('an unknown id is the API 404: one line with the request id, exit 1', async () => {
    const r = await cli(['services', 'get', 'no-such-service']);
    expect(r.code).toBe(1);
    expectOneLineError(r, /not found.*\(SERVICE_NOT_FOUND, request id: [\w-]+\)$/);
  });
});

describe('services create', () => {
  it('creates from flags and prints the id when piped', async () => {
    const r = await cli(['services', 'create', '--name', 'CLI Yoga', '--type', 'CLASS', '--price', '25.50', '--currency', 'eur', '--capacity', '12', '--hidden']);
    expect(r.code, r.stderr).toBe(0);
    const id = r.stdout.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.stderr).toContain(`Created service ${id}`);
    const got = await emu.request('GET', `/_api/bookings/v2/services/${id}`);
    expect(got.body.service).toMatchObject({
      name: 'CLI Yoga',
      type: 'CLASS',
      defaultCapacity: 12,
      hidden: true,
      revision: '1',
      payment: { rateType: 'FIXED', fixed: { price: { value: '25.50', currency: 'EUR' } } },
    });
  });

  it('creates from a JSON file on stdin (a `get --json` copy), flags on top', async () => {
    const list = JSON.parse((await cli(['services', 'list', '--limit', '1', '--json', 'id'])).stdout);
    const source = (await cli(['services', 'get', list[0].id, '--json'])).stdout;
    const r = await cli(['services', 'create', '--file', '-', '--name', 'Copied from file', '--json', 'id,name,revision'], { input: source });
    expect(r.code, r.stderr).toBe(0);
    const created = JSON.parse(r.stdout);
    expect(created.name).toBe('Copied from file');
    expect(created.id).not.toBe(list[0].id);
    expect(created.revision).toBe('1');
  });
});

describe('services search and count', () => {
  it('--json gives services and aggregationData', async () => {
    const r = await cli([
      'services', 'search', 'yoga', '--limit', '5',
      '--agg', 'VALUE:type', '--agg', 'SCALAR:MIN:defaultCapacity', '--agg', 'RANGE:defaultCapacity:0,5,100', '--agg', 'DATE_HISTOGRAM:createdDate:MONTH',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.services.length).toBeGreaterThan(0);
    expect(out.services.length).toBeLessThanOrEqual(5);
    for (const s of out.services) expect(`${s.name} ${s.description ?? ''}`.toLowerCase()).toContain('yoga');
    const byName = Object.fromEntries(out.aggregationData.results.map((a: { name: string }) => [a.name, a]));
    expect(byName['VALUE:type'].values.results.length).toBeGreaterThan(0);
    expect(typeof byName['SCALAR:MIN:defaultCapacity'].scalar.value).toBe('number');
    expect(byName['RANGE:defaultCapacity:0,5,100'].ranges.results).toHaveLength(2);
    expect(byName['DATE_HISTOGRAM:createdDate:MONTH'].dateHistogram.results.length).toBeGreaterThan(0);
  });

  it('shows aggregation tables after the results on a terminal', async () => {
    const r = await cli(['services', 'search', '--limit', '2', '--agg', 'VALUE:type'], { tty: true, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^VALUE:type \(VALUE of type\)$/m);
    expect(r.stdout).toMatch(/^VALUE\s+COUNT$/m);
    expect(r.stdout).toMatch(/^CLASS\s+\d+$/m);
  });

  it('count takes --where and --filter', async () => {
    const all = await cli(['services', 'count']);
    const classes = await cli(['services', 'count', '--where', 'type=CLASS']);
    const json = await cli(['services', 'count', '--filter', '{"type":"CLASS"}', '--json']);
    expect(Number(classes.stdout)).toBeGreaterThan(0);
    expect(Number(classes.stdout)).toBeLessThan(Number(all.stdout));
    expect(JSON.parse(json.stdout)).toEqual({ count: Number(classes.stdout) });
  });
});

describe('paging past one page (230 services)', () => {
  let big: TestEmulator;
  beforeAll(async () => {
    big = await startTestEmulator({ seed: 'demo', size: 230 });
  });
  afterAll(async () => {
    await big?.close();
  });

  it('list --all follows offset paging to the last service', async () => {
    const r = await runCli(['services', 'list', '--all', '--ndjson'], { emulator: big });
    expect(r.code, r.stderr).toBe(0);
    const ids = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l).id);
    expect(ids).toHaveLength(230);
    expect(new Set(ids).size).toBe(230);
  });

  it('a reader that closes the pipe early (| head) ends the run quietly with exit 0', async () => {
    const sandbox = createCliSandbox();
    try {
      const child = spawn(process.execPath, [binPath, 'services', 'list', '--all', '--ndjson'], {
        env: cliEnv(sandbox, big),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
      child.stdout.once('data', () => child.stdout.destroy());
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(stderr).toBe('');
      expect(code).toBe(0);
    } finally {
      sandbox.cleanup();
    }
  });

  it('search follows cursor paging up to --limit', async () => {
    const r = await runCli(['services', 'search', '--limit', '170', '--ndjson'], { emulator: big });
    expect(r.code, r.stderr).toBe(0);
    const ids = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l).id);
    expect(ids).toHaveLength(170);
    expect(new Set(ids).size).toBe(170);
  });
});

describe('slug, locations, plans', () => {
  it('slug validate reports illegal and taken slugs with exit 1, and set changes the main slug', async () => {
    const id = await createService('Slug Target');
    const illegal = await cli(['services', 'slug', 'validate', 'Bad Slug!']);
    expect(illegal.code).toBe(1);
    expect(illegal.stdout).toBe('invalid\tSLUG_CONTAINS_ILLEGAL_CHARACTERS\n');

    const set = await cli(['services', 'slug', 'set', id, 'cli-slug-target']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toBe('cli-slug-target\n');

    const taken = await cli(['services', 'slug', 'validate', 'cli-slug-target', '--json']);
    expect(taken.code).toBe(1);
    expect(JSON.parse(taken.stdout)).toMatchObject({ valid: false, errors: ['SLUG_ALREADY_EXISTS'] });
    const own = await cli(['services', 'slug', 'validate', 'cli-slug-target', '--service-id', id]);
    expect(own.code).toBe(0);
    expect(own.stdout).toBe('valid\n');
    const fresh = await cli(['services', 'slug', 'validate', 'never-used-slug-42']);
    expect(fresh.code).toBe(0);
  });

  it('locations set replaces the locations', async () => {
    const id = await createService('Location Target');
    const locs = JSON.parse((await cli(['services', 'business-locations', 'list', '--json', 'id'])).stdout);
    expect(locs.length).toBeGreaterThan(1);
    const r = await cli([
      'services', 'locations', 'set', id, '--business', locs[1].id, '--custom-address', 'Park, Gate 3',
      '--removed-sessions', 'KEEP_AT_CURRENT_LOCATION', '--json', 'revision,locations',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.revision).toBe('2');
    expect(s.locations.map((l: { type: string }) => l.type).sort()).toEqual(['BUSINESS', 'CUSTOM']);
    expect(s.locations.find((l: { type: string }) => l.type === 'BUSINESS').business.id).toBe(locs[1].id);

    const bad = await cli(['services', 'locations', 'set', id, '--business', locs[0].id, '--removed-sessions', 'MOVE_TO_LOCATION']);
    expect(bad.code).toBe(2);
    expectOneLineError(bad, /needs --move-to-business/);
  });

  it('pricing-plans add and remove link and unlink pricing plans; removing one never linked changes nothing', async () => {
    const id = await createService('Plans Target');
    const [planA, planB] = (await emu.request('GET', '/pricing-plans/v2/plans')).body.plans.map((p: { id: string }) => p.id);
    const add = await cli(['services', 'pricing-plans', 'add', id, planA, planB]);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toBe(`${planA}\n${planB}\n`);
    const remove = await cli(['services', 'pricing-plans', 'remove', id, planA]);
    expect(remove.stdout).toBe(`${planB}\n`);
    const got = await emu.request('GET', `/_api/bookings/v2/services/${id}`);
    expect(got.body.service.payment.pricingPlanIds).toEqual([planB]);
    const never = await cli(['services', 'pricing-plans', 'remove', id, 'plan-zzz']);
    expect(never.code).toBe(0);
    expect(never.stderr).toMatch(/^the plans are not linked to service .* already; nothing changed$/m);
    expect((await emu.request('GET', `/_api/bookings/v2/services/${id}`)).body.service.revision).toBe(got.body.service.revision);
  });

  it('pricing-plans add refuses an id that is not a plan of the site (exit 2) and links nothing', async () => {
    const id = await createService('Plans Unknown');
    const [planA] = (await emu.request('GET', '/pricing-plans/v2/plans')).body.plans.map((p: { id: string }) => p.id);
    const before = (await emu.request('GET', `/_api/bookings/v2/services/${id}`)).body.service;
    const bad = await cli(['services', 'pricing-plans', 'add', id, planA, 'no-such-plan']);
    expect(bad.code).toBe(2);
    expectOneLineError(bad, /no pricing plan 'no-such-plan' on this site; nothing was linked/);
    const after = (await emu.request('GET', `/_api/bookings/v2/services/${id}`)).body.service;
    expect(after.revision).toBe(before.revision);
    expect(after.payment?.pricingPlanIds ?? []).toEqual([]);
  });
});

describe('reference lists', () => {
  it('policies, forms, categories and business locations list as JSON and TSV', async () => {
    for (const noun of ['booking-policies', 'booking-forms', 'categories', 'business-locations']) {
      const json = await cli(['services', noun, 'list', '--json']);
      expect(json.code, `${noun}: ${json.stderr}`).toBe(0);
      const records = JSON.parse(json.stdout);
      expect(records.length, noun).toBeGreaterThan(0);
      expect(records[0].id, noun).toBeTruthy();
      const tsv = await cli(['services', noun, 'list']);
      expect(tsv.stdout.trimEnd().split('\n')).toHaveLength(records.length);
      expect(tsv.stdout.split('\n')[0]!.split('\t')[0]).toBe(records[0].id);
    }
  });

});
