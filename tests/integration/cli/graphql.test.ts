/**
 * `sitectl api graphql` against the emulator's `POST /graphql/alpha` (docs/wire.md §12), in process against a real
 * emulator on port 0: a query with variables and paging, a get, a mutation that bumps a revision and one refused
 * with a stale revision (exit 1), introspection, an invalid query (exit 2, one line per error), `--paginate`, and
 * a schema that covers every served operation of every family table.
 */
import { buildClientSchema, getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVED } from '../../../src/emulator/index.js';
import { runInProcess, startTestEmulator, type CliResult, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', bookings: 0 });
});
afterAll(async () => {
  await emu?.close();
});

const cli = (args: string[], opts: InProcessOptions = {}) => runInProcess(args, { emulator: emu, ...opts });
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const json = (r: CliResult): any => JSON.parse(r.stdout);

describe('api graphql', () => {
  it('queries services with variables and paging, and gets one', async () => {
    const r = await cli([
      'api',
      'graphql',
      '-f',
      'query=query($type: String, $limit: Float) { bookingsServicesV2Services(queryInput: {query: {filter: {type: $type}, paging: {limit: $limit}}}) { items { id name type } pageInfo { count total hasNext endCursor } } }',
      '-F',
      'type=CLASS',
      '-f',
      'limit=3',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const { items, pageInfo } = json(r).data.bookingsServicesV2Services;
    expect(items).toHaveLength(3);
    expect(items.every((s: { type: string }) => s.type === 'CLASS')).toBe(true);
    expect(pageInfo).toMatchObject({ count: 3, hasNext: true, endCursor: '3' });
    const got = await cli(['api', 'graphql', '-f', 'query=query($id: String) { bookingsServicesV2Service(input: {serviceId: $id}) { service { id name } } }', '-F', `id=${items[0].id}`]);
    expect(got.code, got.stderr).toBe(0);
    expect(json(got).data.bookingsServicesV2Service.service).toEqual({ id: items[0].id, name: items[0].name });
  });

  it('--paginate follows pageInfo.endCursor and merges the items', async () => {
    const total = Number((await cli(['services', 'count'])).stdout.trim());
    const r = await cli(['api', 'graphql', '--paginate', '-f', 'query=query($endCursor: String) { bookingsServicesV2Services(queryInput: {query: {paging: {limit: 7}}}, cursor: $endCursor) { items { id } pageInfo { hasNext endCursor } } }']);
    expect(r.code, r.stderr).toBe(0);
    const ids = json(r).data.bookingsServicesV2Services.items.map((s: { id: string }) => s.id);
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
    const cursorPaged = await cli(['api', 'graphql', '--paginate', '-f', 'query=query($endCursor: String) { bookingsServicesV2BookingPolicies(queryInput: {query: {cursorPaging: {limit: 1}}}, cursor: $endCursor) { items { bookingPolicy { id } } pageInfo { hasNext endCursor } } }']);
    expect(cursorPaged.code, cursorPaged.stderr).toBe(0);
    expect(json(cursorPaged).data.bookingsServicesV2BookingPolicies.items.length).toBeGreaterThan(1);
    const noCursor = await cli(['api', 'graphql', '--paginate', '-f', 'query={ bookingsServicesV2Services { items { id } } }']);
    expect(noCursor.code).toBe(2);
    expect(noCursor.stderr).toMatch(/--paginate needs the query to take \$endCursor/);
  });

  it('a mutation bumps the revision; a stale revision is an execution error (exit 1, code on stderr)', async () => {
    const [svc] = json(await cli(['services', 'list', '--json', 'id,revision', '--limit', '1']));
    const mutation = 'query=mutation($id: String, $rev: String) { bookingsServicesV2UpdateService(input: {service: {id: $id, revision: $rev, tagLine: "from graphql"}, mask: "tagLine"}) { service { revision tagLine } } }';
    const ok = await cli(['api', 'graphql', '-f', mutation, '-F', `id=${svc.id}`, '-F', `rev=${svc.revision}`]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(json(ok).data.bookingsServicesV2UpdateService.service).toEqual({ revision: String(Number(svc.revision) + 1), tagLine: 'from graphql' });
    const stale = await cli(['api', 'graphql', '-f', mutation, '-F', `id=${svc.id}`, '-F', `rev=${svc.revision}`]);
    expect(stale.code).toBe(1);
    expect(json(stale).errors[0].extensions.code).toBe('REVISION_MISMATCH');
    expect(stale.stderr.trim()).toBe('error: entity has already changed since the requested revision at bookingsServicesV2UpdateService (REVISION_MISMATCH)');
    const invalid = await cli(['api', 'graphql', '-f', 'mutation=1', '-f', `query=mutation { bookingsServicesV2UpdateService(input: {service: {id: "${svc.id}", revision: "x"}}) { service { id } } }`]);
    expect(invalid.code).toBe(1);
    expect(json(invalid).errors[0].extensions).toMatchObject({ code: 'INVALID_ARGUMENT', status: 400 });
  });

  it('an invalid query exits 2 with one line per error and nothing on stdout', async () => {
    const r = await cli(['api', 'graphql', '-f', 'query={ nope bookingsServicesV2Services { items { colour } } }']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('error: Cannot query field "nope" on type "Query". (GRAPHQL_VALIDATION_FAILED)');
    expect(lines[1]).toMatch(/^error: Cannot query field "colour" on type .* \(GRAPHQL_VALIDATION_FAILED\)$/);
    const syntax = await cli(['api', 'graphql', '-f', 'query={ unclosed']);
    expect(syntax.code).toBe(2);
    expect(syntax.stderr).toMatch(/^error: Syntax Error: .* \(GRAPHQL_PARSE_FAILED\)$/m);
    expect((await cli(['api', 'graphql'])).stderr).toMatch(/which query\?/);
    expect((await cli(['api', 'graphql', '/graphql/alpha', '-f', 'query={x}'])).code).toBe(2);
  });

  it('serves introspection for schema tools, covering every operation of every family table', async () => {
    const r = await emu.request('POST', '/graphql/alpha', { query: getIntrospectionQuery() });
    expect(r.status).toBe(200);
    const schema = buildClientSchema(r.body.data);
    const fields = [...Object.keys(schema.getQueryType()!.getFields()), ...Object.keys(schema.getMutationType()!.getFields())];
    expect(fields).toHaveLength(SERVED.length);
    expect(fields).toEqual(expect.arrayContaining(['bookingsServicesV2Services', 'bookingsServicesV2CreateService', 'membersMembersV1Members', 'membersMembersV1ApproveMember', 'pricingPlansPlansV2Plans', 'bookingsBookingsV2ConfirmBooking']));
  });

  it('refuses what it does not serve: other versions, GET, no credentials, deep queries', async () => {
    expect((await emu.request('POST', '/graphql/v9', { query: '{ __typename }' })).status).toBe(404);
    expect((await emu.request('GET', '/graphql/alpha')).status).toBe(405);
    const anonymous = await fetch(`${emu.url}/graphql/alpha`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __typename }' }) });
    expect(anonymous.status).toBe(401);
    const deep = `{ __schema { types { fields { type { ${'ofType { '.repeat(20)}name${' }'.repeat(20)} } } } } }`;
    const refused = await emu.request('POST', '/graphql/alpha', { query: deep });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].message).toMatch(/nested more than 20 levels/);
  });
});
