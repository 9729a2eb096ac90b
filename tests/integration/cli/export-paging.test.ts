/**
 * Exports and `list --all` page in a stable order and print what the platform sent: the
 * requests as they reach the emulator (through a recording proxy in front of it) are offset pages sorted by id
 * (members) or the platform's cursor pages (bookings), and an export prints the same bytes as `list --all
 * --ndjson`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, runInProcess, startTestEmulator, type CliSandbox, type TestEmulator } from '../../helpers/index.js';

let emu: TestEmulator;
let sandbox: CliSandbox;
let proxy: Server;
let proxyUrl: string;
/** The part of a list request these tests read. */
interface ListBody {
  query: { paging?: { offset?: number }; sorting?: unknown; sort?: unknown; cursorPaging?: { cursor?: string } };
}
/** Request bodies (parsed) of every POST the proxy passed on, by path. */
const seen: { path: string; body: ListBody }[] = [];

beforeAll(async () => {
  // More than two pages of each: 230 members (pages of 100), 130 bookings (pages of 100).
  emu = await startTestEmulator({ seed: 'demo', size: 5, bookings: 130, members: 230 });
  sandbox = createCliSandbox();
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (req.method === 'POST' && text) seen.push({ path: req.url!.split('?')[0]!, body: JSON.parse(text) as ListBody });
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
      fetch(emu.url + req.url, { method: req.method, headers, body: text || undefined })
        .then(async (r) => {
          const body = Buffer.from(await r.arrayBuffer());
          res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
          res.end(body);
        })
        .catch((err: Error) => {
          res.writeHead(502);
          res.end(err.message);
        });
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  await emu?.close();
  sandbox?.cleanup();
});

const cli = (args: string[]) => runInProcess(args, { emulator: { url: proxyUrl, apiKey: emu.apiKey, siteId: emu.siteId }, sandbox });
/** The requests of one CLI run to paths ending in `suffix`. */
async function requestsOf(args: string[], suffix: string) {
  const from = seen.length;
  const r = await cli(args);
  expect(r.stderr).not.toMatch(/error/i);
  expect(r.code).toBe(0);
  return { out: r.stdout, requests: seen.slice(from).filter((s) => s.path.endsWith(suffix)).map((s) => s.body) };
}

describe('export and list --all: stable pages, the same bytes', () => {
  it('members export pages by offset sorted by id, and prints what members list --all --ndjson prints', async () => {
    const exp = await requestsOf(['members', 'export', '--ndjson'], '/members/query');
    expect(exp.requests.map((b) => b.query.paging?.offset)).toEqual([0, 100, 200]);
    for (const b of exp.requests) expect(b.query.sorting).toEqual([{ fieldName: 'id', order: 'ASC' }]);
    const ids = exp.out.trim().split('\n').map((l) => JSON.parse(l).id as string);
    expect(ids.length).toBe(230);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(230);

    const list = await requestsOf(['members', 'list', '--all', '--ndjson'], '/members/query');
    expect(list.requests).toEqual(exp.requests);
    expect(list.out).toBe(exp.out);
  });

  it('bookings export follows the platform cursor, and prints what bookings list --all --ndjson prints', async () => {
    const exp = await requestsOf(['bookings', 'export', '--ndjson'], '/extended-bookings/query');
    expect(exp.requests.length).toBe(2);
    expect(exp.requests[0]!.query.cursorPaging?.cursor).toBeUndefined();
    expect(exp.requests[0]!.query.sort).toEqual([{ fieldName: 'startDate', order: 'ASC' }]);
    // After the first page the SDK's rule: the cursor alone, no filter or sort.
    expect(Object.keys(exp.requests[1]!.query)).toEqual(['cursorPaging']);
    expect(typeof exp.requests[1]!.query.cursorPaging?.cursor).toBe('string');
    const rows = exp.out.trim().split('\n');
    expect(rows.length).toBe(130);

    const list = await requestsOf(['bookings', 'list', '--all', '--ndjson'], '/extended-bookings/query');
    expect(list.requests).toEqual(exp.requests);
    expect(list.out).toBe(exp.out);
  });

  it('a --sort given is kept; a list without --all keeps the platform order', async () => {
    const sorted = await requestsOf(['members', 'export', '--ndjson', '--sort', 'createdDate:desc'], '/members/query');
    for (const b of sorted.requests) expect(b.query.sorting).toEqual([{ fieldName: 'createdDate', order: 'DESC' }]);
    const page = await requestsOf(['members', 'list', '--limit', '10', '--ndjson'], '/members/query');
    expect(page.requests.length).toBe(1);
    expect(page.requests[0]!.query.sorting).toBeUndefined();
  });
});
