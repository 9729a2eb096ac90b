/**
 * What the CLI and the emulator refuse, or say, at their edges (docs/architecture.md "Safety rules"): a filter
 * value of the wrong type for its field, a number JSON cannot carry, text that is not Unicode; an id where a path
 * is built from it; a data dir that is a file; a reversed range on every verb that takes one; `-o` onto a symbolic
 * link names the file it wrote; the emulator's event feed answers the asking site only, and a request with two
 * Host headers gets 400. Each refusal is exit 2 with nothing sent.
 */
import { request } from 'node:http';
import { lstatSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, runInProcess, startTestEmulator, type CliSandbox, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';
import { expectError } from '../../helpers/expect-error.js';
import { lastEventSeq } from '../bulk/support.js';

let emu: TestEmulator;
let sandbox: CliSandbox;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 8, bookings: 20, members: 10 });
  sandbox = createCliSandbox();
});
afterAll(async () => {
  await emu?.close();
  sandbox?.cleanup();
});

const cli = (args: string[], opts: InProcessOptions = {}) => runInProcess(args, { emulator: emu, sandbox, ...opts });

describe('filter values', () => {
  it.each([
    ['{"defaultCapacity":{"$gt":"abc"}}', /--filter: "defaultCapacity" is a number; "abc" is not a number/],
    ['{"defaultCapacity":{"$in":[1,"2"]}}', /"defaultCapacity" is a number; "2" is not a number/],
    ['{"hidden":"yes"}', /"hidden" is a true\/false field; "yes" is not true or false/],
    ['{"name":1e309}', /--filter: the number at name is out of range \(Infinity\)/],
    ['{"name":"\\ud800"}', /--filter: the text at name is not valid Unicode \(a lone surrogate\)/],
  ])('%s is refused naming the field (exit 2)', async (filter, message) => {
    expectError(await cli(['services', 'list', '--filter', filter]), 2, message);
  });

  it('a value of the right type passes, --where too', async () => {
    expect((await cli(['services', 'count', '--filter', '{"defaultCapacity":{"$gte":1}}'])).code).toBe(0);
    expect((await cli(['services', 'count', '--where', 'hidden=false'])).code).toBe(0);
  });
});

describe('ids and paths', () => {
  it('an id that is not one is refused before anything is sent', async () => {
    const seq = await lastEventSeq(emu);
    expectError(await cli(['services', 'slug', 'validate', 'ok-slug', '--service-id', '../../etc']), 2, /--service-id "\.\.\/\.\.\/etc" is not an id/);
    expectError(await cli(['services', 'delete', '--ids', 'a1b2c3d4,../x', '--dry-run']), 2, /--ids "\.\.\/x" is not an id/);
    expect(await lastEventSeq(emu)).toBe(seq);
  });

  it('a data dir that is a file is refused', async () => {
    const file = join(sandbox.root, 'binary.dat');
    writeFileSync(file, Buffer.from([0, 1, 2, 3]));
    expectError(await cli(['emulator', 'status', '--data-dir', file]), 2, /the emulator data dir .*binary\.dat is not a directory/);
  });

  it('-o onto a symbolic link writes the file it points to, names it, and keeps the link (a dangling one too)', async () => {
    const link = join(sandbox.root, 'link.yaml');
    symlinkSync('target.yaml', link);
    const r = await cli(['services', 'export', '--where', 'type=CLASS', '-o', link]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`to ${link.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(a link: written to .*target\\.yaml\\)`));
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(sandbox.root, 'target.yaml'), 'utf8')).toMatch(/kind: /);
  });
});

describe('reversed ranges', () => {
  it.each([
    [['bookings', 'cancel', '--from', '2026-12-31', '--to', '2026-01-01', '--yes']],
    [['bookings', 'list', '--from', 'tomorrow', '--to', 'today']],
    [['bookings', 'confirm', '--from', 'tomorrow', '--to', 'today', '--dry-run']],
    [['availability', 'Swedish Massage', '--from', 'tomorrow', '--to', 'today']],
    [['availability', 'multislot', '--service', 'Swedish Massage', '--service', 'Sports Massage', '--from', 'tomorrow', '--to', 'today']],
    [['staff', 'hours', 'set', 'Maya Chen', '--day', 'mon', '--from', '17:00', '--to', '09:00']],
  ])('%j is refused (exit 2), nothing sent', async (argv) => {
    const seq = await lastEventSeq(emu);
    expectError(await cli(argv), 2, /--to must be after --from|--from 17:00 must be before --to 09:00/);
    expect(await lastEventSeq(emu)).toBe(seq);
  });
});

describe('the emulator at its edges', () => {
  it("answers /__emulator/events with the asking site's events only", async () => {
    const uptown = emu.emulator.sites.find((s) => s.name === 'Uptown')!.id;
    const [service] = JSON.parse((await cli(['services', 'list', '--limit', '1', '--json', 'id'])).stdout);
    expect((await cli(['services', 'update', service.id, '--set', 'description=downtown only'])).code).toBe(0);
    const asked = async (site: string) => {
      const r = await fetch(`${emu.url}/__emulator/events?after=0&limit=1000`, { headers: { authorization: emu.apiKey, 'wix-site-id': site } });
      return ((await r.json()) as { events: Array<{ siteId: string; entityId: string }> }).events;
    };
    const downtown = await asked(emu.siteId);
    expect(downtown.some((e) => e.entityId === service.id)).toBe(true);
    const other = await asked(uptown);
    expect(other.every((e) => e.siteId === uptown)).toBe(true);
    expect(other.some((e) => e.entityId === service.id)).toBe(false);
  });

  it('refuses a request with two Host headers (400), the first a loopback one', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: emu.port, path: '/_api/bookings/v2/services/query', method: 'POST', setHost: false, headers: [['Host', `127.0.0.1:${emu.port}`], ['Host', 'evil.example'], ['authorization', emu.apiKey], ['wix-site-id', emu.siteId], ['content-type', 'application/json']] as never },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end('{}');
    });
    expect(status).toBe(400);
  });
});
