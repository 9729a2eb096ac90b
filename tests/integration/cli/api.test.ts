/** `sitectl api METHOD PATH`: raw passthrough with --field, --input (file or stdin) and --paginate. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startTestEmulator, type TestEmulator } from '../../helpers/index.js';

let emu: TestEmulator;
let dir: string;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 120 });
  dir = mkdtempSync(join(tmpdir(), 'sitectl-api-'));
});
afterAll(async () => {
  await emu?.close();
  rmSync(dir, { recursive: true, force: true });
});
const cli = (args: string[], opts: Parameters<typeof runCli>[1] = {}) => runCli(args, { emulator: emu, ...opts });

describe('sitectl api', () => {
  it('GET prints the JSON reply', async () => {
    const list = await emu.request('POST', '/_api/bookings/v2/services/query', { query: { paging: { limit: 1 } } });
    const id = list.body.services[0].id;
    const r = await cli(['api', 'get', `/_api/bookings/v2/services/${id}`]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).service.id).toBe(id);
  });

  it('POST with --field builds a nested, typed body', async () => {
    const r = await cli(['api', 'POST', '/_api/bookings/v2/services/query', '-f', 'query.paging.limit=3', '-f', 'query.filter={"type":"CLASS"}']);
    expect(r.code, r.stderr).toBe(0);
    const reply = JSON.parse(r.stdout);
    expect(reply.services).toHaveLength(3);
    for (const s of reply.services) expect(s.type).toBe('CLASS');
    expect(reply.pagingMetadata.count).toBe(3);
  });

  it('POST with --input from a file and from stdin', async () => {
    const file = join(dir, 'count.json');
    writeFileSync(file, JSON.stringify({ filter: { type: 'COURSE' } }));
    const fromFile = await cli(['api', 'POST', '/_api/bookings/v2/services/count', '--input', file]);
    const fromStdin = await cli(['api', 'POST', '/_api/bookings/v2/services/count', '--input', '-'], {
      input: JSON.stringify({ filter: { type: 'COURSE' } }),
    });
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(JSON.parse(fromFile.stdout).count).toBeGreaterThan(0);
    expect(fromStdin.stdout).toBe(fromFile.stdout);
  });

  it('--paginate follows offset paging (merged array) and cursor paging (NDJSON)', async () => {
    const offset = await cli(['api', 'POST', '/_api/bookings/v2/services/query', '-f', 'query.paging.limit=25', '--paginate']);
    expect(offset.code, offset.stderr).toBe(0);
    const all = JSON.parse(offset.stdout);
    expect(all).toHaveLength(120);
    expect(new Set(all.map((s: { id: string }) => s.id)).size).toBe(120);

    const cursor = await cli(['api', 'POST', '/_api/bookings/v2/services/search', '-f', 'search.cursorPaging.limit=40', '--paginate', '--ndjson']);
    expect(cursor.code, cursor.stderr).toBe(0);
    const ids = cursor.stdout.trimEnd().split('\n').map((l) => JSON.parse(l).id);
    expect(ids).toHaveLength(120);
    expect(new Set(ids).size).toBe(120);
  });

  it('API errors keep the platform message and request id; bad input is exit 2', async () => {
    const notFound = await cli(['api', 'GET', '/_api/bookings/v2/services/missing']);
    expect(notFound.code).toBe(1);
    expect(notFound.stderr).toMatch(/^error: .*\((?:[A-Z_]+, )?request id: [\w-]+\)$/m);
    expect(notFound.stdout).toBe('');

    const method = await cli(['api', 'FETCH', '/x']);
    expect(method.code).toBe(2);
    expect(method.stderr).toMatch(/^error: unknown method 'FETCH'/);

    const badJson = await cli(['api', 'POST', '/_api/bookings/v2/services/count', '--input', '-'], { input: '{oops' });
    expect(badJson.code).toBe(2);
    expect(badJson.stderr).toMatch(/^error: --input - is not valid JSON/);
  });
});
