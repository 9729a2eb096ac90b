/**
 * A fan-out's site plans (services apply/clone --to-site): what each site's plan holds in memory does not grow with
 * its items, the items are on disk in the journal directory (bulk/spill.ts) and read back whole, and spilled plans
 * a killed process left behind are swept while those of a running one are kept.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import type { PlannedItem } from '../../../src/bulk/actions.js';
import { SpilledItems, sweepSpills } from '../../../src/bulk/spill.js';
import { PREVIEW_ROWS, sitePlan } from '../../../src/commands/services/shared/site-plans.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'sitectl-site-plan-'));
  dirs.push(d);
  return d;
};

const api = new ApiClient({ baseUrl: 'http://127.0.0.1:9', credentials: { kind: 'none' } });

/** `n` planned steps: a third creates, a third updates, a third already as planned. */
function items(n: number): PlannedItem[] {
  return Array.from({ length: n }, (_, i): PlannedItem => {
    const slug = `service-${i}`;
    if (i % 3 === 0) return { id: `create:${slug}`, name: slug, after: { op: 'create', slug, service: { name: slug, description: 'x'.repeat(200) } }, changes: [{ path: 'create', before: undefined, after: slug }] };
    if (i % 3 === 1) return { id: `id-${i}`, revision: '3', name: slug, after: { op: 'update', slug, change: { sets: [{ path: 'name', value: `${slug}!` }] } }, changes: [{ path: 'name', before: slug, after: `${slug}!` }], before: { name: slug } };
    return { id: `id-${i}`, revision: '2', name: slug, changes: [], unchanged: true };
  });
}

/** The bytes a site plan holds (its data, without its functions). */
const heldBytes = (p: object) => JSON.stringify(p).length;

describe('a fan-out site plan', () => {
  it('holds counts and at most the preview rows, whatever the number of items; the items are on disk', () => {
    const dir = tempDir();
    const spill = { dir, name: 'RUN.site', write: (d: string, n: string, i: readonly PlannedItem[]) => SpilledItems.write(d, n, i) };
    const small = sitePlan({ id: 'a', name: 'A' }, api, items(30), { missing: [], create: [], plannedAt: '2026-01-01T00:00:00Z' }, undefined, spill);
    const large = sitePlan({ id: 'b', name: 'B' }, api, items(3000), { missing: [], create: [], plannedAt: '2026-01-01T00:00:00Z' }, undefined, spill);
    expect(small.rows.length).toBe(PREVIEW_ROWS);
    expect(large.rows.length).toBe(PREVIEW_ROWS);
    expect(large.rowCount).toBe(2000);
    expect(large.changes).toBe(2000);
    expect(large.counts).toMatchObject({ created: 1000, updated: 1000, unchanged: 1000, deleted: 0 });
    // 100x the items, the same held size (the counts' digits aside).
    expect(heldBytes(large)).toBeLessThan(heldBytes(small) * 1.1);
    expect(readdirSync(dir).sort()).toEqual([`RUN.site-a.${process.pid}.planning`, `RUN.site-b.${process.pid}.planning`]);
    expect(large.items()).toEqual(JSON.parse(JSON.stringify(items(3000))));
    large.release();
    small.release();
    expect(readdirSync(dir)).toEqual([]);
    expect(() => large.items()).toThrow(/released/);
  });

  it('keeps the items in memory without a spill (one site, an undo), and replans to them', async () => {
    const given = items(6);
    const p = sitePlan({ id: 'a', name: 'A' }, api, given, { missing: [], create: [], plannedAt: '2026-01-01T00:00:00Z' });
    expect(p.items()).toBe(given);
    expect(await p.replan()).toBe(given);
    expect(p.rows.map((r) => r.action)).toEqual(['create', 'update', 'create', 'update']);
  });

  it('sweeps the spilled plans of a process no longer running, never those of a running one or a single run', () => {
    const dir = tempDir();
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    writeFileSync(join(dir, `RUN.site-a.${dead}.planning`), '{}\n');
    writeFileSync(join(dir, `RUN.site-b.${process.pid}.planning`), '{}\n');
    // A single run's plan being read (bulk/run.ts) has its own name and owner.
    writeFileSync(join(dir, `RUN.ndjson.${dead}.planning`), '{}\n');
    writeFileSync(join(dir, 'RUN.ndjson'), '{}\n');
    expect(sweepSpills(dir)).toBe(1);
    expect(readdirSync(dir).sort()).toEqual(['RUN.ndjson', `RUN.ndjson.${dead}.planning`, `RUN.site-b.${process.pid}.planning`]);
    expect(sweepSpills(join(dir, 'none'))).toBe(0);
    expect(existsSync(join(dir, 'none'))).toBe(false);
  });
});
