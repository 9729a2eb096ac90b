/**
 * Holes once found in the CLI (docs/architecture.md "Safety rules",
 * docs/architecture.md "Output and interaction"), each closed and kept closed: the CLI run in this process
 * (`runInProcess`, the real `run(argv)` with in-memory streams) against a real emulator on port 0 and real sandbox
 * directories. Each test names the hole it covers.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answering, createCliSandbox, runInProcess, startTestEmulator, type CliResult, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';
import { lastEventSeq, setFaults } from '../bulk/support.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo' });
});
afterAll(async () => {
  await emu?.close();
});

const cli = (args: string[], opts: InProcessOptions = {}) => runInProcess(args, { emulator: emu, ...opts });

/** stderr is exactly `error: ...` plus at most one `hint: ...`; no stack, no "bug" hint; stdout empty. */
function expectOneLineError(r: CliResult, code: number, pattern: RegExp): void {
  const lines = r.stderr.trimEnd().split('\n');
  expect(r.code, r.stderr).toBe(code);
  expect(lines[0]).toMatch(/^error: /);
  expect(lines[0]).toMatch(pattern);
  expect(lines.length, r.stderr).toBeLessThanOrEqual(2);
  if (lines[1] !== undefined) expect(lines[1]).toMatch(/^hint: /);
  expect(r.stderr).not.toMatch(/bug in sitectl|\n\s+at /);
  expect(r.stdout).toBe('');
}

async function createService(name: string, extra: string[] = []): Promise<string> {
  const r = await cli(['services', 'create', '--name', name, '--type', 'APPOINTMENT', ...extra]);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}

/** A server answering every request with `reply` (status, JSON body). */
async function fakePlatform(reply: (req: http.IncomingMessage) => { status: number; body: unknown }) {
  const server = http.createServer((req, res) => {
    const { status, body } = reply(req);
    res.writeHead(status, { 'content-type': 'application/json', 'x-wix-request-id': 'fake-1' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    target: { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, apiKey: 'k', siteId: 's' },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('prototype pollution (docs/architecture.md "Safety rules")', () => {
  it.each([
    [['api', 'POST', '/_api/bookings/v2/services/query', '-f', '__proto__.x=1']],
    [['api', 'POST', '/_api/bookings/v2/services/query', '-f', 'constructor.prototype.x=1']],
    [['services', 'update', 'anything', '--set', '__proto__.x=1']],
    [['services', 'update', 'anything', '--set', 'constructor.prototype.x=1']],
    [['services', 'update', '--where', 'hidden=true', '--set', 'name.__proto__=1', '--yes']],
    [['--profile', '__proto__', 'services', 'list']],
  ])('%j: exit 2, one line, Object.prototype untouched', async (args) => {
    const seq = await lastEventSeq(emu);
    const r = await cli(args);
    expectOneLineError(r, 2, /__proto__|constructor|prototype|not an allowed|profile name/);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(await lastEventSeq(emu)).toBe(seq);
  });

  it('SITECTL_PROFILE=constructor (and __proto__) exit 2 naming the variable', async () => {
    for (const name of ['constructor', '__proto__', 'toString']) {
      const r = await cli(['services', 'list'], { env: { SITECTL_PROFILE: name, SITECTL_BASE_URL: undefined, SITECTL_API_KEY: undefined, SITECTL_SITE_ID: undefined } });
      expectOneLineError(r, 2, /profile/);
    }
  });

  it('a filter on an inherited name matches nothing instead of everything', async () => {
    const r = await cli(['api', 'POST', '/_api/bookings/v2/services/query', '--input', '-'], {
      input: JSON.stringify({ query: { filter: { toString: { $exists: true } } } }),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).services).toEqual([]);
  });
});

describe('configuration errors are user errors (docs/architecture.md "Output and interaction")', () => {
  it('SITECTL_BASE_URL=ftp://x: exit 2, names the variable', async () => {
    const r = await runInProcess(['services', 'list'], { env: { SITECTL_BASE_URL: 'ftp://x', SITECTL_API_KEY: 'k', SITECTL_SITE_ID: 's' } });
    expectOneLineError(r, 2, /base URL/);
    expect(r.stderr).toContain('SITECTL_BASE_URL');
  });

  it('a journal path inside a file: exit 2 before anything changes', async () => {
    const sandbox = createCliSandbox();
    try {
      const file = join(sandbox.root, 'plain-file');
      writeFileSync(file, 'x');
      const seq = await lastEventSeq(emu);
      const r = await cli(['services', 'update', '--where', 'type=CLASS', '--set', 'description=x', '--yes', '--journal', join(file, 'run.ndjson')], { sandbox });
      expectOneLineError(r, 2, /plain-file/);
      expect(await lastEventSeq(emu)).toBe(seq);
    } finally {
      sandbox.cleanup();
    }
  });

  it('a data dir that is a file: exit 2, no emulator started', async () => {
    const sandbox = createCliSandbox();
    try {
      const file = join(sandbox.root, 'data-file');
      writeFileSync(file, 'x');
      const r = await runInProcess(['services', 'list'], { sandbox, env: { SITECTL_DATA_DIR: file } });
      expectOneLineError(r, 2, /data-file/);
    } finally {
      sandbox.cleanup();
    }
  });

  it('--timeout and SITECTL_TIMEOUT must be seconds in (0, 3600]', async () => {
    expectOneLineError(await cli(['--timeout', 'soon', 'services', 'list']), 2, /--timeout/);
    expectOneLineError(await cli(['services', 'list'], { env: { SITECTL_TIMEOUT: '-1' } }), 2, /timeout/);
  });
});

describe('no request hangs (docs/architecture.md "Safety rules")', () => {
  /** Accepts connections and never answers. */
  async function silentServer() {
    const sockets = new Set<Socket>();
    const server = http.createServer(() => {});
    server.on('connection', (s) => sockets.add(s));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      target: { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, apiKey: 'k', siteId: 's' },
      async close() {
        for (const s of sockets) s.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  }

  it('--timeout ends a create against a server that never answers (one attempt, exit 1)', async () => {
    const srv = await silentServer();
    try {
      const t0 = performance.now();
      const r = await runInProcess(['--timeout', '0.3', 'services', 'create', '--name', 'x', '--type', 'CLASS'], { emulator: srv.target });
      expect(performance.now() - t0).toBeLessThan(3000);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^error: .*no reply headers within 0\.3 s/m);
    } finally {
      await srv.close();
    }
  });

  it('SITECTL_TIMEOUT ends a list the same way (retried reads, then exit 1)', async () => {
    const srv = await silentServer();
    try {
      const r = await runInProcess(['services', 'list'], { emulator: srv.target, env: { SITECTL_TIMEOUT: '0.2' } });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/no reply headers within 0\.2 s, \d attempts over [\d.]+ s/);
    } finally {
      await srv.close();
    }
  });
});

describe('every wait ends on Ctrl-C (docs/architecture.md "Safety rules")', () => {
  it('Ctrl-C during a Retry-After pause exits 130 at once and prints the resume command', async () => {
    const sandbox = createCliSandbox();
    const ctrlC = new AbortController();
    try {
      // One request a second, then 429 with Retry-After: 30; the run waits, and Ctrl-C comes 500 ms in.
      await setFaults(emu, { rateLimitPerSec: 1, retryAfterSec: 30 });
      setTimeout(() => ctrlC.abort(new DOMException('Interrupted', 'AbortError')), 500);
      const t0 = performance.now();
      const r = await cli(['services', 'update', '--filter', '{}', '--set', 'tagLine=waited', '--yes', '--concurrency', '1'], { sandbox, signal: ctrlC.signal });
      const ms = performance.now() - t0;
      expect(r.code, r.stderr).toBe(130);
      expect(ms).toBeLessThan(5000);
      // A hint that works where it is printed: --yes off a terminal (a resume without it would exit 2).
      expect(r.stderr).toMatch(/resume with: sitectl services update --resume \S+ --yes\n/);
    } finally {
      await setFaults(emu, { rateLimitPerSec: 0, retryAfterSec: 1 });
      sandbox.cleanup();
    }
  });
});

describe('text from servers and files is escaped (docs/architecture.md "Safety rules")', () => {
  it('an error message carrying ESC[2J is printed escaped, on one line', async () => {
    const fake = await fakePlatform(() => ({ status: 400, body: { message: 'bad \u001b[2J thing\nsecond line', details: {} } }));
    try {
      const r = await runInProcess(['services', 'get', 'abcdef12-0000-0000-0000-000000000000'], { emulator: fake.target });
      expect(r.code).not.toBe(0);
      expect(r.stderr).not.toContain('\u001b');
      expect(r.stderr).toContain('\\x1b[2J');
      expect(r.stderr.trimEnd().split('\n').length).toBeLessThanOrEqual(2);
    } finally {
      await fake.close();
    }
  });

  it('a name with control characters is escaped in tables and TSV, unchanged in --json', async () => {
    const id = await createService('Evil \u001b[2J name');
    const tsv = await cli(['services', 'list', '--where', `id=${id}`]);
    expect(tsv.stdout).not.toContain('\u001b');
    expect(tsv.stdout).toContain('\\x1b[2J');
    const table = await cli(['services', 'get', id], { tty: true, env: { CI: undefined } });
    expect(table.stdout).not.toContain('\u001b[2J');
    const json = await cli(['services', 'get', id, '--json', 'name']);
    expect(JSON.parse(json.stdout).name).toBe('Evil \u001b[2J name');
  });
});

describe('api passthrough input', () => {
  it('--input - with empty stdin: exit 2 saying so', async () => {
    expectOneLineError(await cli(['api', 'POST', '/_api/bookings/v2/services/query', '--input', '-'], { input: '' }), 2, /--input - is empty/);
  });

  it('a path without the leading slash, or a whole URL, says what is wrong', async () => {
    const r = await cli(['api', 'GET', 'v2/services']);
    expectOneLineError(r, 2, /must start with '\/'/);
    expect(r.stderr).toContain('sitectl api GET /v2/services');
    expectOneLineError(await cli(['api', 'GET', 'https://evil.example/x']), 2, /is a URL/);
  });
});

describe('replies that break the contract', () => {
  it('a reply missing required fields is a one-line error, not a printed row', async () => {
    const fake = await fakePlatform(() => ({ status: 200, body: { service: { name: 'no id here' } } }));
    try {
      const r = await runInProcess(['services', 'get', 'abcdef12-0000-0000-0000-000000000000'], { emulator: fake.target });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr.split('\n')[0]).toMatch(/^error: .*unexpected reply: service\.id/);
    } finally {
      await fake.close();
    }
  });

  it('validate-slug reads `slug` from the reply, as the official client does', async () => {
    const id = await createService('Slug reader');
    const r = await cli(['services', 'slug', 'validate', 'a-fresh-slug', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ valid: true, slug: 'a-fresh-slug' });
    await cli(['services', 'slug', 'set', id, 'taken-slug-x']);
    const taken = await cli(['services', 'slug', 'validate', 'taken-slug-x', '--json']);
    expect(taken.code).toBe(1);
    expect(JSON.parse(taken.stdout)).toMatchObject({ valid: false, slug: 'taken-slug-x' });
  });
});

describe('input bounds: refused before anything is written', () => {
  it('a 100 000-character slug and a 100 KB address are 400s naming the field', async () => {
    const id = await createService('Bounded');
    const seq = await lastEventSeq(emu);
    const slug = await cli(['services', 'slug', 'set', id, 'a'.repeat(100_000)]);
    expect(slug.code).toBe(2);
    expect(slug.stderr).toMatch(/slug/);
    const address = await cli(['services', 'locations', 'set', id, '--custom-address', 'x'.repeat(100_000)]);
    expect(address.code).toBe(2);
    expect(address.stderr).toMatch(/address|formatted/);
    expect(await lastEventSeq(emu)).toBe(seq);
  });

  it('a body over 4 MB is a 413 from the emulator', async () => {
    const r = await emu.request('POST', '/_api/bookings/v2/services/query', { query: { filter: { name: 'x'.repeat(5 * 1024 * 1024) } } });
    expect(r.status).toBe(413);
  });

  it('create --json with an unknown field is refused before the create', async () => {
    const seq = await lastEventSeq(emu);
    expectOneLineError(await cli(['services', 'create', '--name', 'Never', '--type', 'APPOINTMENT', '--json', 'id,bogus']), 2, /bogus/);
    expect(await lastEventSeq(emu)).toBe(seq);
    const ok = await cli(['services', 'create', '--name', 'Made', '--type', 'APPOINTMENT', '--json', 'id,mainSlug']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(Object.keys(JSON.parse(ok.stdout)).sort()).toEqual(['id', 'mainSlug']);
  });

  it('a bulk verb refuses --json bogus and a misspelt --filter field before planning', async () => {
    const seq = await lastEventSeq(emu);
    expectOneLineError(await cli(['services', 'update', '--where', 'type=CLASS', '--set', 'description=x', '--yes', '--json', 'bogus']), 2, /bogus/);
    const r = await cli(['services', 'delete', '--filter', '{"hiden":true}', '--yes']);
    expectOneLineError(r, 2, /unknown field "hiden"/);
    expect(r.stderr).toContain('did you mean "hidden"');
    expect(await lastEventSeq(emu)).toBe(seq);
  });
});

describe('files the CLI writes are private (docs/architecture.md "Safety rules")', () => {
  it('under umask 0: config dir 0700, config and journal 0600', async () => {
    const sandbox = createCliSandbox();
    const old = process.umask(0);
    try {
      const add = await runInProcess(['profile', 'add', 'prod', '--base-url', emu.url, '--site-id', emu.siteId, '--api-key-stdin'], { sandbox, input: emu.apiKey });
      expect(add.code, add.stderr).toBe(0);
      expect(statSync(sandbox.configDir).mode & 0o777).toBe(0o700);
      expect(statSync(join(sandbox.configDir, 'config.json')).mode & 0o777).toBe(0o600);
      const id = await createService('Journaled');
      const journal = join(sandbox.root, 'j', 'run.ndjson');
      mkdirSync(join(sandbox.root, 'j'));
      const run = await cli(['services', 'delete', '--ids', id, '--yes', '--journal', journal], { sandbox });
      expect(run.code, run.stderr).toBe(0);
      expect(statSync(journal).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(old);
      sandbox.cleanup();
    }
  });

  it('a run with nothing to do writes no journal', async () => {
    const sandbox = createCliSandbox();
    try {
      const r = await cli(['services', 'update', '--where', 'name=no such service anywhere', '--set', 'description=x', '--yes'], { sandbox });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/nothing to (do|change)|no services/i);
      expect(() => readdirSync(join(sandbox.stateDir, 'journals'))).toThrow();
    } finally {
      sandbox.cleanup();
    }
  });
});

describe('ids on a terminal', () => {
  it('at 80 columns the table shows 8-character ids and whole names; piped, full ids', async () => {
    const id = await createService('Vinyasa Flow for Beginners');
    const table = await cli(['services', 'list', '--where', `id=${id}`], { tty: true, columns: 80, env: { CI: undefined } });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain(id.slice(0, 8));
    expect(table.stdout).not.toContain(id);
    expect(table.stdout).toContain('Vinyasa Flow for Beginners');
    const piped = await cli(['services', 'list', '--where', `id=${id}`]);
    expect(piped.stdout.split('\t')[0]).toBe(id);
  });

  it('a unique prefix is enough; an unknown one is exit 1; an ambiguous one is refused, listing the matches', async () => {
    const a = await createService('Prefix A');
    const got = await cli(['services', 'get', a.slice(0, 8), '--json', 'id']);
    expect(got.code, got.stderr).toBe(0);
    expect(JSON.parse(got.stdout).id).toBe(a);
    expectOneLineError(await cli(['services', 'get', 'ffffffff']), 1, /no service has an id starting with 'ffffffff'/);

    // The demo seed is deterministic: 1000 services certainly hold two ids with the same first 4 characters.
    const big = await startTestEmulator({ seed: 'demo', size: 1000 });
    try {
      const list = await runInProcess(['services', 'list', '--all', '--json', 'id'], { emulator: big });
      const ids = (JSON.parse(list.stdout) as Array<{ id: string }>).map((s) => s.id);
      const seen = new Map<string, string[]>();
      for (const id of ids) seen.set(id.slice(0, 4), [...(seen.get(id.slice(0, 4)) ?? []), id]);
      const [prefix, twins] = [...seen].find(([, v]) => v.length > 1)!;
      const r = await runInProcess(['services', 'get', prefix], { emulator: big });
      expectOneLineError(r, 2, new RegExp(`'${prefix}' is ambiguous: ${twins.length} services match`));
      for (const id of twins) expect(r.stderr).toContain(id);
    } finally {
      await big.close();
    }
  });
});

describe('output a newcomer expects (docs/architecture.md "Output and interaction")', () => {
  it('search --agg piped prints the aggregations after the rows', async () => {
    const r = await cli(['services', 'search', '--agg', 'VALUE:type']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\n\nVALUE:type\t/);
    expect(r.stdout).toMatch(/\nVALUE:type\tCLASS\t\d+\n/);
  });

  it('a single update prints the `get` view, not flattened lines', async () => {
    const id = await createService('Single update');
    const r = await cli(['services', 'update', id, '--set', 'description=updated once'], { tty: true, env: { CI: undefined } });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.length).toBeLessThan(40);
    expect(r.stdout).toMatch(/description\s+updated once/i);
    expect(r.stdout).not.toMatch(/payment\.fixed\.price\.value/);
  });

  it('--dry-run piped prints the whole plan on stdout, not a 10-row preview', async () => {
    for (let i = 0; i < 12; i++) await createService(`Dry ${i}`, ['--description', 'dry-run-marker']);
    const r = await cli(['services', 'update', '--where', 'description=dry-run-marker', '--set', 'description=x', '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout.trimEnd().split('\n');
    expect(rows.length).toBeGreaterThanOrEqual(12);
  });
});

describe('profiles (docs/architecture.md "Profiles and auth")', () => {
  it('SITECTL_PROFILE=x profile show says the variable chose it', async () => {
    const sandbox = createCliSandbox();
    try {
      await runInProcess(['profile', 'add', 'x', '--base-url', emu.url, '--site-id', emu.siteId, '--api-key-stdin'], { sandbox, input: emu.apiKey });
      await runInProcess(['profile', 'add', 'y', '--base-url', emu.url, '--site-id', emu.siteId, '--api-key-stdin', '--use'], { sandbox, input: emu.apiKey });
      const r = await runInProcess(['profile', 'show'], { sandbox, env: { SITECTL_PROFILE: 'x' } });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/\bx\b/);
      expect(r.stdout).toMatch(/SITECTL_PROFILE/);
      expect(r.stdout).not.toMatch(/config file/);
    } finally {
      sandbox.cleanup();
    }
  });

  it('profile remove local explains the built-in profile instead of "no such profile"', async () => {
    const r = await runInProcess(['profile', 'remove', 'local', '--yes']);
    expectOneLineError(r, 2, /built-in profile of the local emulator/);
  });

  it('on a terminal the key is typed hidden (Enter ends it) and never printed', async () => {
    const sandbox = createCliSandbox();
    try {
      const prompter = answering(true, 'typed-secret-key-123\n');
      const r = await runInProcess(['profile', 'add', 'prod', '--base-url', emu.url, '--site-id', emu.siteId, '--api-key-stdin'], {
        sandbox,
        tty: true,
        env: { CI: undefined },
        prompter,
      });
      expect(r.code, r.stderr).toBe(0);
      expect(prompter.asked).toEqual(['API key:']);
      expect(r.stdout + r.stderr).not.toContain('typed-secret-key-123');
      const show = await runInProcess(['profile', 'show', '--json'], { sandbox, env: { SITECTL_PROFILE: 'prod' } });
      expect(show.stdout).not.toContain('typed-secret-key-123');
      const list = await runInProcess(['services', 'count'], { sandbox, env: { SITECTL_PROFILE: 'prod' } });
      expect(list.code).toBe(4);
    } finally {
      sandbox.cleanup();
    }
  });
});

describe('declined prompts', () => {
  it('answering no prints "canceled: nothing was changed" with exit 1 and no error prefix', async () => {
    const id = await createService('Kept');
    const r = await cli(['services', 'delete', id], { tty: true, env: { CI: undefined }, prompter: answering(false) });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('canceled: nothing was changed');
    const still = await cli(['services', 'get', id, '--json', 'id']);
    expect(still.code).toBe(0);
  });
});

describe('help and completion (docs/architecture.md "Output and interaction")', () => {
  it('root --help carries examples, the environment and the exit codes', async () => {
    const r = await runInProcess(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Examples:\n {2}sitectl services list/);
    expect(r.stdout).toContain('completion');
    expect(r.stdout).toMatch(/Exit codes: 0 ok/);
  });
});
