/**
 * The second hardening pass (docs/architecture.md "Safety rules"): a table of bad inputs over the verbs, in
 * process against a real emulator on port 0. Each is refused with its exit code and one `error:` line (at most a
 * hint after it), no stack trace, and nothing changed on the emulator (its event sequence stays where it was).
 * Then the `-o` writer against a FIFO, a character device and regular files.
 */
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess, startTestEmulator, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';
import { expectError } from '../../helpers/expect-error.js';
import { lastEventSeq } from '../bulk/support.js';

let emu: TestEmulator;
let dir: string;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 10, bookings: 20, members: 20 });
  dir = mkdtempSync(join(tmpdir(), 'sitectl-bad-input-'));
});
afterAll(async () => {
  await emu?.close();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (args: string[], opts: InProcessOptions = {}) => runInProcess(args, { emulator: emu, ...opts });
const NOPE = '00000000-0000-4000-8000-000000000000';
const deep = (n: number) => '{"$and":['.repeat(n) + '{}' + ']}'.repeat(n);

// [what, argv, exit code, first line]
const CASES: Array<[string, string[], number, RegExp]> = [
  // empty and blank ids, on every kind of verb
  ['services get empty id', ['services', 'get', ''], 2, /<id> is empty/],
  ['msb get empty id', ['msb', 'get', ''], 2, /<id> is empty/],
  ['bookings get blank id', ['bookings', 'get', '  '], 2, /<id> is empty/],
  ['members get empty id', ['members', 'get', ''], 2, /<id> is empty/],
  ['orders get empty id', ['orders', 'get', ''], 2, /is empty/],
  ['plans get empty name', ['plans', 'get', ''], 2, /is empty/],
  ['bookings confirm empty id', ['bookings', 'confirm', ''], 2, /<id> is empty/],
  ['services update empty id', ['services', 'update', '', '--set', 'hidden=true'], 2, /<id> is empty/],
  ['services delete empty id', ['services', 'delete', '', '--yes'], 2, /<id> is empty/],
  ['msb actions empty id', ['msb', 'actions', 'x', ''], 2, /<ids> is empty/],
  ['availability --staff empty', ['availability', 'Swedish Massage', '--staff', ''], 2, /--staff is empty/],
  ['bookings list --service empty', ['bookings', 'list', '--service', ''], 2, /--service is empty/],
  ['services update --ids empty', ['services', 'update', '--ids', '', '--set', 'hidden=true', '--yes'], 2, /--ids is empty/],
  // ids that name nothing
  ['services get a missing id', ['services', 'get', NOPE], 1, /not found|NOT_FOUND/i],
  ['msb get a missing id', ['msb', 'get', NOPE], 1, /NOT_FOUND|not found/i],
  ['msb add to a missing group', ['msb', 'add', NOPE, NOPE], 1, /NOT_FOUND|not found/i],
  // numbers: plain decimal digits only, in range
  ['--limit 0x10', ['bookings', 'list', '--limit', '0x10'], 2, /--limit must be a whole number from 1, in plain decimal digits/],
  ['--limit 1e3', ['services', 'list', '--limit', '1e3'], 2, /--limit must be a whole number/],
  ['--limit 010', ['members', 'list', '--limit', '010'], 2, /--limit must be a whole number/],
  ['--participants 0x10', ['bookings', 'create', '--service', 'Swedish Massage', '--start', 'tomorrow 14:15', '--email', 'a@example.com', '--participants', '0x10'], 2, /--participants must be a whole number from 1 to 1000/],
  ['--participants 0', ['bookings', 'create', '--service', 'Swedish Massage', '--start', 'tomorrow 14:15', '--email', 'a@example.com', '--participants', '0'], 2, /--participants must be a whole number from 1/],
  ['--count 1e3', ['services', 'clone', NOPE, '--count', '1e3', '--yes'], 2, /--count must be a whole number/],
  ['--days 010', ['availability', 'Swedish Massage', '--days', '010'], 2, /--days must be a whole number/],
  ['--concurrency 0x4', ['services', 'update', '--where', 'hidden=true', '--set', 'hidden=false', '--concurrency', '0x4', '--yes'], 2, /--concurrency must be a whole number from 1 to 16/],
  ['--timeout 1e3', ['--timeout', '1e3', 'services', 'list'], 2, /--timeout must be a number of seconds/],
  ['--price 1e3', ['plans', 'create', '--name', 'Nope', '--price', '1e3', '--unlimited'], 2, /--price must be an amount/],
  // ranges
  ['bookings --from after --to', ['bookings', 'list', '--from', 'tomorrow', '--to', 'today'], 2, /--to must be after --from/],
  ['bookings cancel --from after --to', ['bookings', 'cancel', '--from', 'tomorrow', '--to', 'today', '--yes'], 2, /--to must be after --from/],
  ['availability --from after --to', ['availability', 'Swedish Massage', '--from', 'tomorrow', '--to', 'today'], 2, /--to must be after --from/],
  // currencies
  ['plans create --currency XXQ', ['plans', 'create', '--name', 'Nope', '--price', '5', '--unlimited', '--currency', 'XXQ'], 2, /--currency: 'XXQ' is not an ISO 4217 currency code/],
  ['services create --currency ZZZ', ['services', 'create', '--name', 'Nope', '--type', 'CLASS', '--capacity', '3', '--price', '5', '--currency', 'ZZZ'], 2, /'ZZZ' is not an ISO 4217 currency code/],
  // enumerated values and sort fields: did you mean
  ['--sort strt', ['bookings', 'list', '--sort', 'strt'], 2, /unknown field "strt"; did you mean "startDate"\?/],
  ['--status CONFIRMD', ['bookings', 'list', '--status', 'CONFIRMD'], 2, /--status: unknown value 'CONFIRMD'; did you mean "CONFIRMED"\?/],
  ['--type CLAS', ['services', 'create', '--name', 'Nope', '--type', 'CLAS'], 2, /did you mean "CLASS"/],
  // filters
  ['an empty $or (read)', ['services', 'list', '--filter', '{"$or":[]}'], 2, /'\$or' is empty/],
  ['an empty $and (write)', ['members', 'approve', '--filter', '{"$and":[]}', '--yes'], 2, /'\$and' is empty/],
  ['a filter 300 deep', ['services', 'delete', '--filter', deep(300), '--yes'], 2, /nested more than 32 levels deep/],
  // locations
  ["--custom-address ''", ['services', 'locations', 'set', NOPE, '--custom-address', ''], 2, /--custom-address is empty/],
  // endless and binary files
  ['services create --file /dev/zero', ['services', 'create', '--file', '/dev/zero'], 2, /--file \/dev\/zero is larger than 64 MiB/],
  ['bookings create --file /dev/zero', ['bookings', 'create', '--file', '/dev/zero'], 2, /--file \/dev\/zero is larger than 64 MiB/],
  ['services apply -f /dev/zero', ['services', 'apply', '-f', '/dev/zero', '--to-site', 'Uptown', '--yes'], 2, /--file \/dev\/zero is larger than 64 MiB/],
  ['services diff -f /dev/urandom', ['services', 'diff', '-f', '/dev/urandom'], 2, /--file \/dev\/urandom is larger than 64 MiB/],
  ['api graphql --query-file /dev/zero', ['api', 'graphql', '--query-file', '/dev/zero'], 2, /--query-file \/dev\/zero is larger than 1 MiB/],
  ['api --input /dev/zero', ['api', 'POST', '/_api/bookings/v2/services/query', '--input', '/dev/zero'], 2, /--input \/dev\/zero is larger than 64 MiB/],
  ['--ids-file /dev/zero', ['services', 'update', '--ids-file', '/dev/zero', '--set', 'hidden=true', '--yes'], 2, /--ids-file \/dev\/zero is larger than 64 MiB/],
  ['members update --file /dev/zero', ['members', 'update', NOPE, '--file', '/dev/zero'], 2, /--file \/dev\/zero is larger than 64 MiB/],
  ['services update --resume /dev/zero', ['services', 'update', '--resume', '/dev/zero', '--yes'], 2, /journal \/dev\/zero cannot be used: not a regular file/],
];

describe('bad input over every verb: exit code, one line, no stack, nothing changed', () => {
  it('login --no-browser refuses an endless pasted line instead of buffering it', async () => {
    const r = await cli(['login', '--no-browser', '--wait', '30'], { input: 'h'.repeat(100 * 1024), env: { SITECTL_CLIENT_ID: emu.emulator.clientId } });
    // The sign-in address and the wait were said first; then one error line and its hint.
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/\nerror: the pasted line is longer than 64 KiB\nhint: paste only the address the browser ended on\n$/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  // No timed assertion (speed is the bench's): an endless input that were read without a bound would hang, and
  // the per-test timeout below ends it as a failure.
  it.each(CASES)(
    '%s',
    async (_what, argv, code, pattern) => {
      const seq = await lastEventSeq(emu);
      expectError(await cli(argv), code, pattern);
      expect(await lastEventSeq(emu)).toBe(seq);
    },
    30_000,
  );

  it('a binary file is refused as not text', async () => {
    const file = join(dir, 'binary.json');
    writeFileSync(file, Buffer.from([0x7b, 0x00, 0x7d]));
    expectError(await cli(['services', 'create', '--file', file]), 2, /is not text \(it holds a NUL byte\)/);
    writeFileSync(file, Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
    expectError(await cli(['services', 'create', '--file', file]), 2, /is not text \(it is not valid UTF-8\)/);
  });

  it('a secret on stdin is bounded too (64 KiB)', async () => {
    expectError(await cli(['profile', 'add', 'big', '--site-id', 's', '--api-key-stdin'], { input: 'k'.repeat(70 * 1024) }), 2, /--api-key-stdin \(stdin\) is larger than 64 KiB/);
  });

  it('bookings actions and msb actions exit 1 naming the ids not found, after printing the rows', async () => {
    const r = await cli(['bookings', 'actions', 'nope-1', 'nope-2']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/nope-1\t.*BOOKING_NOT_FOUND/);
    expect(r.stderr.trim()).toBe('error: 2 bookings were not found: nope-1, nope-2');
    const m = await cli(['msb', 'actions', NOPE]);
    expect(m.code).toBe(1);
    expect(m.stderr.trim()).toBe(`error: multi-service booking ${NOPE} was not found`);
  });

  it('catalogue files: an unknown top-level key, a YAML tag outside the core schema, a currency that is not ISO 4217', async () => {
    const exported = await cli(['services', 'export', '--format', 'json']);
    expect(exported.code, exported.stderr).toBe(0);
    const catalogue = JSON.parse(exported.stdout);
    const file = join(dir, 'catalogue.json');
    writeFileSync(file, JSON.stringify({ ...catalogue, servces: [] }));
    expectError(await cli(['--allow-unknown-fields', 'services', 'diff', '-f', file]), 2, /unknown top-level key 'servces'; did you mean 'services'\?/);
    const yaml = join(dir, 'catalogue.yaml');
    writeFileSync(yaml, `kind: ${catalogue.kind}\nversion: ${catalogue.version}\nservices: !!js/function "function () {}"\n`);
    expectError(await cli(['services', 'diff', '-f', yaml]), 2, /the YAML tag !!js\/function is not allowed/);
    const fixed = catalogue.services.find((s: { payment?: { fixed?: unknown } }) => s.payment?.fixed);
    fixed.payment.fixed.price.currency = 'ZZZ';
    writeFileSync(file, JSON.stringify(catalogue));
    expectError(await cli(['services', 'apply', '-f', file, '--to-site', 'Uptown', '--yes']), 2, /payment\.fixed\.price\.currency: 'ZZZ' is not an ISO 4217 currency code/);
  });
});

describe('-o writes a regular file atomically and a device or FIFO in place', () => {
  it('a FIFO stays a FIFO and its reader gets the catalogue', async () => {
    const fifo = join(dir, 'out.fifo');
    execFileSync('mkfifo', [fifo]);
    const reader = spawn('cat', [fifo]);
    const chunks: Buffer[] = [];
    reader.stdout.on('data', (c: Buffer) => chunks.push(c));
    const done = new Promise<void>((resolve) => reader.on('close', () => resolve()));
    const r = await cli(['services', 'export', '-o', fifo]);
    expect(r.code, r.stderr).toBe(0);
    await done;
    expect(statSync(fifo).isFIFO()).toBe(true);
    expect(JSON.parse(Buffer.concat(chunks).toString('utf8')).kind).toBe('sitectl/services-catalogue');
  });

  it('a character device stays a device', async () => {
    const r = await cli(['services', 'export', '-o', '/dev/null']);
    expect(r.code, r.stderr).toBe(0);
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
  });

  it('a new file is 0600; an existing one keeps its mode and is replaced whole', async () => {
    const file = join(dir, 'catalogue-out.yaml');
    expect((await cli(['services', 'export', '-o', file])).code).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    chmodSync(file, 0o640);
    writeFileSync(file, 'old');
    expect((await cli(['services', 'export', '-o', file])).code).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(readFileSync(file, 'utf8')).toMatch(/^kind: sitectl\/services-catalogue/);
  });

  it('a directory is refused (exit 2) and -o - is stdout', async () => {
    expectError(await cli(['services', 'export', '-o', dir]), 2, /is a directory/);
    const r = await cli(['services', 'export', '-o', '-']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).kind).toBe('sitectl/services-catalogue');
  });
});
