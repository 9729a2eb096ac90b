/**
 * `--jq` and `--template` on every command with `--json` and on `api` (core/json-shape.ts), and `--json help`:
 * lists, gets, counts, a bulk plan and `api`, in process against a real emulator; checked before anything is sent;
 * jq's run-time errors exit 1. The built CLI runs one of each too (the bundle carries jq's WebAssembly).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, runCli, runInProcess, startTestEmulator, type CliSandbox, type TestEmulator } from '../../helpers/index.js';
import { expectError } from '../../helpers/expect-error.js';

let emu: TestEmulator;
let sandbox: CliSandbox;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 12 });
  sandbox = createCliSandbox();
});
afterAll(async () => {
  await emu?.close();
  sandbox?.cleanup();
});
const cli = (args: string[]) => runInProcess(args, { emulator: emu, sandbox });

async function services(): Promise<Array<{ id: string; name: string; type: string }>> {
  const r = await cli(['services', 'list', '--json', 'id,name,type']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe('--jq', () => {
  it('filters a list: strings print raw, one per line; other values compact when piped', async () => {
    const all = await services();
    const names = await cli(['services', 'list', '--jq', '.[].name']);
    expect(names.code, names.stderr).toBe(0);
    expect(names.stdout).toBe(all.map((s) => `${s.name}\n`).join(''));
    const objects = await cli(['services', 'list', '--json', 'id,name', '--jq', '.[0:2][]']);
    expect(objects.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l))).toEqual(all.slice(0, 2).map(({ id, name }) => ({ id, name })));
    const count = await cli(['services', 'list', '-q', 'map(select(.type == "CLASS")) | length']);
    expect(Number(count.stdout)).toBe(all.filter((s) => s.type === 'CLASS').length);
  });

  it('filters a get, a count and the reply of api', async () => {
    const [first] = await services();
    const get = await cli(['services', 'get', first!.id, '--jq', '{id, name}']);
    expect(JSON.parse(get.stdout)).toEqual({ id: first!.id, name: first!.name });
    const count = await cli(['services', 'count', '--jq', '.count']);
    expect(Number(count.stdout)).toBe((await services()).length);
    const api = await cli(['api', 'POST', '/_api/bookings/v2/services/query', '-f', 'query.paging.limit=2', '--jq', '.services[].id']);
    expect(api.code, api.stderr).toBe(0);
    expect(api.stdout.trim().split('\n')).toHaveLength(2);
  });

  it('shapes a bulk plan (--dry-run)', async () => {
    const all = await services();
    const r = await cli(['services', 'update', '--where', 'type=CLASS', '--set', 'description=jq', '--dry-run', '--jq', 'length']);
    expect(r.code, r.stderr).toBe(0);
    expect(Number(r.stdout)).toBe(all.filter((s) => s.type === 'CLASS').length);
  });

  it('refuses an expression that does not compile before anything is sent (exit 2), and fails on a run-time error (exit 1)', async () => {
    const [first] = await services();
    const bad = await cli(['services', 'update', first!.id, '--set', 'description=never-sent', '--yes', '--jq', '.[']);
    expectError(bad, 2, /^error: --jq: syntax error, unexpected end of file \(compile error\)$/m);
    const after = await cli(['services', 'get', first!.id, '--jq', '.description // ""']);
    expect(after.stdout).not.toMatch(/never-sent/);
    expectError(await cli(['services', 'list', '--jq', '.[0].name | error("no such thing")']), 1, /^error: --jq: no such thing$/m);
    expectError(await cli(['services', 'list', '--jq', '.', '--ndjson']), 2, /--jq shapes JSON: it goes with --json, not --ndjson or --csv/);
    expectError(await cli(['services', 'list', '--jq', '.', '--template', 'x']), 2, /choose one of --jq and --template/);
  });
});

describe('--template', () => {
  it('renders a list and a get with Handlebars and the helpers', async () => {
    const all = await services();
    const r = await cli(['services', 'list', '--template', '{{#each this}}{{id}}{{tab}}{{upper type}}{{nl}}{{/each}}']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(all.map((s) => `${s.id}\t${s.type}\n`).join(''));
    const get = await cli(['services', 'get', all[0]!.id, '-t', '{{truncate 5 name}}|{{json id}}']);
    expect(get.stdout).toBe(`${[...all[0]!.name].length > 5 ? `${[...all[0]!.name].slice(0, 4).join('')}…` : all[0]!.name}|"${all[0]!.id}"`);
  });

  it('refuses a template that does not parse before anything is sent', async () => {
    expectError(await cli(['services', 'list', '--template', '{{#each this}}']), 2, /^error: --template: Parse error/m);
  });
});

describe('--json help', () => {
  it("lists the fields --json takes, one per line on stdout (exit 0); --csv help adds the columns' keys", async () => {
    const r = await cli(['members', 'list', '--json', 'help']);
    expect(r.code, r.stderr).toBe(0);
    const fields = r.stdout.trim().split('\n');
    expect(fields).toEqual(expect.arrayContaining(['id', 'loginEmail', 'status', 'profile']));
    // Each one listed is taken back.
    expect((await cli(['members', 'list', '--json', fields.join(','), '--limit', '1'])).code).toBe(0);
    const csv = await cli(['bookings', 'list', '--csv', 'help']);
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout.trim().split('\n')).toEqual(expect.arrayContaining(['id', 'status', 'start']));
    const bulk = await cli(['services', 'update', '--where', 'type=CLASS', '--set', 'description=x', '--dry-run', '--json', 'help']);
    expect(bulk.code, bulk.stderr).toBe(0);
    expect(bulk.stdout).toMatch(/^counts$/m);
  });
});

describe('the built CLI', () => {
  it('runs --jq and --template from the bundle', async () => {
    const all = await services();
    const jq = await runCli(['services', 'list', '--jq', '.[0].id'], { emulator: emu });
    expect(jq.code, jq.stderr).toBe(0);
    expect(jq.stdout).toBe(`${all[0]!.id}\n`);
    const template = await runCli(['services', 'list', '-t', '{{#each this}}{{name}}{{nl}}{{/each}}'], { emulator: emu });
    expect(template.stdout).toBe(all.map((s) => `${s.name}\n`).join(''));
  });
});
