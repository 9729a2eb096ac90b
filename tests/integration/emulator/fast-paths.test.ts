/**
 * The emulator's fast paths must not change what clients see: memoised query matches follow every write
 * (and a rolled-back one), stored documents are never changed in place by later updates (events keep each
 * version), replies are the compact JSON of their content, and background WAL checkpoints leave a clean,
 * complete database on close.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from '../../../src/emulator/families.js';
import { seedStore } from '../../../src/emulator/seed/index.js';
import { SERVICES } from '../../../src/emulator/services/model.js';
import { Store } from '../../../src/emulator/store/store.js';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';

let emu: TestEmulator;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 250 });
});
afterAll(async () => {
  await emu?.close();
});

interface Service {
  id: string;
  name: string;
  revision: string;
  description?: string;
  tagLine?: string;
  payment?: { rateType: string; fixed?: { price: { value: string; currency: string; formattedValue?: string } } };
}

const byName = [{ fieldName: 'name', order: 'ASC' }];

async function page(offset: number, filter: unknown = {}, sort: unknown = byName): Promise<{ services: Service[]; total: number }> {
  const r = await emu.request('POST', '/v2/services/query', { query: { filter, sort, paging: { limit: 100, offset } } });
  expect(r.status).toBe(200);
  return { services: r.body.services, total: r.body.pagingMetadata.total };
}

async function allPages(filter: unknown = {}, sort: unknown = byName): Promise<Service[]> {
  const out: Service[] = [];
  for (let offset = 0; ; offset += 100) {
    const p = await page(offset, filter, sort);
    out.push(...p.services);
    if (p.services.length < 100) return out;
  }
}

describe('memoised query matches', () => {
  it('repeated pages of one filter and sort follow each create, update and delete', async () => {
    const before = await allPages();
    expect(before).toHaveLength(250);
    expect(await allPages()).toEqual(before);

    const target = before[200];
    const renamed = await emu.request('PATCH', `/v2/services/${target.id}`, {
      service: { id: target.id, revision: target.revision, name: '!! first by name' },
      mask: 'name',
    });
    expect(renamed.status).toBe(200);
    const afterRename = await page(0);
    expect(afterRename.services[0]).toEqual(renamed.body.service);
    expect(afterRename.total).toBe(250);

    const created = await emu.request('POST', '/v2/services', { service: { name: '!!! second by name', type: 'APPOINTMENT' } });
    expect(created.status).toBe(200);
    const afterCreate = await page(0);
    expect(afterCreate.total).toBe(251);
    expect(afterCreate.services.slice(0, 2).map((s) => s.id)).toEqual([target.id, created.body.service.id]);

    expect((await emu.request('DELETE', `/v2/services/${target.id}`)).status).toBe(200);
    const afterDelete = await page(0);
    expect(afterDelete.total).toBe(250);
    expect(afterDelete.services[0].id).toBe(created.body.service.id);
  });

  it('a bulk update shows in the next page of the same query, and a rejected request changes nothing', async () => {
    const filter = { description: 'memo probe' };
    const byId = [{ fieldName: 'id', order: 'ASC' }];
    expect((await page(0, filter, byId)).total).toBe(0);
    const targets = (await page(0, {}, byId)).services.slice(0, 30);
    const bulk = await emu.request('POST', '/v2/bulk/services/update', {
      services: targets.map((s) => ({ service: { id: s.id, revision: s.revision, description: 'memo probe' }, mask: 'description' })),
    });
    expect(bulk.status).toBe(200);
    expect(bulk.body.bulkActionMetadata.totalSuccesses).toBe(30);
    const probed = await allPages(filter, byId);
    expect(probed.map((s) => s.id)).toEqual(targets.map((s) => s.id));
    expect(probed.every((s) => s.revision === String(Number(targets.find((t) => t.id === s.id)!.revision) + 1))).toBe(true);

    // A structural error fails the whole request before anything is written.
    const rejected = await emu.request('POST', '/v2/bulk/services/update', {
      services: [{ service: { id: probed[0].id, revision: probed[0].revision, description: 'never' }, mask: 'description' }, { service: {} }],
    });
    expect(rejected.status).toBe(400);
    expect(await allPages(filter, byId)).toEqual(probed);
    expect((await page(0, { description: 'never' })).total).toBe(0);
  });

  it('search pages follow writes too', async () => {
    const search = { filter: { name: { $startsWith: 'Zz' } }, cursorPaging: { limit: 10 } };
    const empty = await emu.request('POST', '/v2/services/search', { search });
    expect(empty.body.services).toEqual([]);
    const created = await emu.request('POST', '/v2/services', { service: { name: 'Zz search probe', type: 'APPOINTMENT' } });
    const found = await emu.request('POST', '/v2/services/search', { search });
    expect(found.body.services).toEqual([created.body.service]);
  });
});

describe('stored documents are not changed in place', () => {
  it('two price updates leave two events, each with its own price and formatted value', async () => {
    const created = await emu.request('POST', '/v2/services', {
      service: { name: 'Price history', type: 'APPOINTMENT', payment: { rateType: 'FIXED', fixed: { price: { value: '30', currency: 'USD' } } } },
    });
    const s: Service = created.body.service;
    const after = (await emu.request('GET', '/__emulator/events?after=0&limit=1000')).body.lastSeq as number;
    const first = await emu.request('PATCH', `/v2/services/${s.id}`, {
      service: { id: s.id, revision: s.revision, payment: { fixed: { price: { value: '45' } } } },
      mask: 'payment.fixed.price.value',
    });
    expect(first.status).toBe(200);
    expect(first.body.service.payment.fixed.price).toEqual({ value: '45', currency: 'USD', formattedValue: '$45' });
    const second = await emu.request('PATCH', `/v2/services/${s.id}`, {
      service: { id: s.id, revision: first.body.service.revision, payment: { fixed: { price: { value: '60' } } } },
      mask: 'payment.fixed.price.value',
    });
    expect(second.body.service.payment.fixed.price.formattedValue).toBe('$60');
    const events = (await emu.request('GET', `/__emulator/events?after=${after}`)).body.events as Array<{ entityId: string; entity: Service }>;
    const prices = events.filter((e) => e.entityId === s.id).map((e) => e.entity.payment?.fixed?.price.formattedValue);
    expect(prices).toEqual(['$45', '$60']);
    expect((await emu.request('GET', `/v2/services/${s.id}`)).body.service).toEqual(second.body.service);
  });

  it('a masked path missing from the patch clears the field', async () => {
    const s = (await page(0)).services.find((x) => x.tagLine !== undefined)!;
    const r = await emu.request('PATCH', `/v2/services/${s.id}`, { service: { id: s.id, revision: s.revision }, mask: 'tagLine' });
    expect(r.status).toBe(200);
    expect(r.body.service.tagLine).toBeUndefined();
    expect(r.body.service.name).toBe(s.name);
  });
});

describe('reply bodies', () => {
  it('are compact JSON whose content matches the stored service', async () => {
    const headers = { authorization: emu.apiKey, 'wix-site-id': emu.siteId, 'content-type': 'application/json' };
    const q = await fetch(`${emu.url}/v2/services/query`, { method: 'POST', headers, body: JSON.stringify({ query: { paging: { limit: 3 } } }) });
    const qText = await q.text();
    expect(qText).toBe(JSON.stringify(JSON.parse(qText)));
    const id = JSON.parse(qText).services[1].id as string;
    const g = await fetch(`${emu.url}/v2/services/${id}`, { headers });
    const gText = await g.text();
    expect(gText).toBe(JSON.stringify({ service: JSON.parse(qText).services[1] }));
    expect(Number(g.headers.get('content-length'))).toBe(Buffer.byteLength(gText));
  });
});

describe('background checkpoints', () => {
  it('close leaves every committed row in the database file and no WAL behind', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sitectl-emu-ckpt-'));
    try {
      const store = new Store(dir, { backgroundCheckpoints: true });
      const key = { apiKey: 'IST.test', accountId: 'acct', siteId: 'site-1', sites: [{ id: 'site-1', name: 'Downtown' }] };
      seedStore(store, key, FAMILIES, { seed: 'demo', size: 300 });
      store.tx(() => store.setMeta('probe', 'kept'));
      store.close();
      expect(existsSync(join(dir, 'store.sqlite-wal'))).toBe(false);
      const reopened = new Store(dir);
      expect(reopened.collection(SERVICES).at('site-1').size).toBe(300);
      expect(reopened.getMeta('probe')).toBe('kept');
      reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
