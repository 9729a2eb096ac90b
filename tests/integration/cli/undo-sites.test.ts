/**
 * Undo across sites (docs/architecture.md "Bulk runs, the journal, history and undo": a `services apply --to-site
 * A --to-site B` is undone on both), in process against a real emulator on port 0 hosting three sites, with one
 * state directory across the runs: a catalogue applied to two sites is one change in the history (naming both);
 * `undo` previews, acts and reports on each site with that site's client, whatever site is in use; a service
 * edited on one site meanwhile is left alone (exit 3); the undo of an apply's creates deletes them, of a prune
 * re-creates the service (a new id, said so); and an undo of an undo puts the change back.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answering, createCliSandbox, runInProcess, startTestEmulator, type CliSandbox, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';
import { okJson } from '../../helpers/cli.js';

let emu: TestEmulator;
let sandbox: CliSandbox;
const dir = mkdtempSync(join(tmpdir(), 'sitectl-undo-sites-'));
const sites: { id: string; name: string }[] = [];
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', bookings: 0 });
  sandbox = createCliSandbox();
  sites.push(emu.emulator.sites.find((s) => s.name === 'Uptown')!);
  sites.push((await emu.request('POST', '/__emulator/sites', { name: 'Mission Bay' })).body.site);
});
afterAll(async () => {
  await emu?.close();
  sandbox?.cleanup();
});

const cli = (args: string[], opts: InProcessOptions = {}) => runInProcess(args, { emulator: emu, sandbox, ...opts });
const json = okJson;
const toSites = () => sites.flatMap((s) => ['--to-site', s.name]);

/** Every class of a site: slug -> {id, price}. */
async function classesOf(site: string): Promise<Map<string, { id: string; price?: string }>> {
  const rows = json(await cli(['services', 'list', '--site', site, '--where', 'type=CLASS', '--all', '--json', 'id,mainSlug,payment']));
  return new Map(rows.map((s: { id: string; mainSlug: { name: string }; payment?: { fixed?: { price?: { value?: string } } } }) => [s.mainSlug.name, { id: s.id, price: s.payment?.fixed?.price?.value }]));
}
const prices = (m: Map<string, { price?: string }>) => Object.fromEntries([...m].map(([slug, s]) => [slug, s.price]));

describe('undo of a change made on several sites', () => {
  const file = join(dir, 'classes.json');
  let source: Map<string, { id: string; price?: string }>;

  it('a catalogue applied to two sites is one change in the history, naming both', async () => {
    source = await classesOf(emu.siteId);
    expect(source.size).toBeGreaterThan(2);
    const exported = await cli(['services', 'export', '--where', 'type=CLASS', '--format', 'json', '-o', file]);
    expect(exported.code, exported.stderr).toBe(0);
    const seen = json(await cli(['history', '--json', 'id'])).length;
    const r = json(await cli(['services', 'apply', '-f', file, ...toSites(), '--yes', '--json']));
    expect(r.sites.map((s: { status: string; counts: { created: number } }) => [s.status, s.counts.created])).toEqual(sites.map(() => ['applied', source.size]));
    const history = json(await cli(['history', '--json']));
    expect(history.length).toBe(seen + 1);
    // The sites run at once: their journals may start in either order.
    expect(history[0]).toMatchObject({ entity: 'services', action: 'apply', changed: 2 * source.size, failed: 0, undone: '' });
    expect([...history[0].sites].sort()).toEqual(sites.map((s) => s.id).sort());
    expect(history[0].parts).toHaveLength(2);
    expect(history[0].command).toContain('services apply -f');
    const table = await cli(['history'], { columns: 200 });
    expect(table.stdout).toMatch(/Uptown, Mission Bay|Mission Bay, Uptown/);
    for (const s of sites) expect(prices(await classesOf(s.id))).toEqual(prices(source));
  });

  it('undoes an update on both sites, prices restored exactly, from a site the change did not touch', async () => {
    const catalogue = JSON.parse(readFileSync(file, 'utf8'));
    for (const s of catalogue.services) s.payment.fixed.price.value = '31';
    const changed = join(dir, 'classes-31.json');
    writeFileSync(changed, JSON.stringify(catalogue));
    json(await cli(['services', 'apply', '-f', changed, ...toSites(), '--yes', '--json']));
    for (const s of sites) expect(Object.values(prices(await classesOf(s.id))).every((v) => v === '31')).toBe(true);

    // The preview names each site; nothing is written by it.
    const dry = await cli(['undo', '--last', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    for (const s of sites) expect(dry.stdout).toContain(`${s.name}\tupdate\t`);
    expect(dry.stderr).toMatch(new RegExp(`dry run: ${2 * source.size} changes on 2 sites; nothing was changed`));
    for (const s of sites) expect(Object.values(prices(await classesOf(s.id))).every((v) => v === '31')).toBe(true);

    // One question for every site (many items), answered on a terminal.
    const prompter = answering(true);
    const undo = await cli(['undo', '--last', '--json'], { tty: true, env: { CI: undefined }, prompter });
    expect(undo.code, undo.stderr).toBe(0);
    expect(prompter.asked).toHaveLength(1);
    expect(prompter.asked[0]).toMatch(new RegExp(`^Undo change \\w+ \\(services apply\\): ${2 * source.size} changes \\(0 to create, ${2 * source.size} to update\\) to 2 sites \\((Uptown, Mission Bay|Mission Bay, Uptown)\\)\\?$`));
    const report = JSON.parse(undo.stdout);
    const bySite = (r: { sites: { siteName: string; status: string; counts: { updated: number } }[] }) => r.sites.map((s) => [s.siteName, s.status, s.counts.updated]).sort();
    expect(bySite(report)).toEqual(sites.map((s) => [s.name, 'applied', source.size]).sort());
    for (const s of sites) expect(prices(await classesOf(s.id))).toEqual(prices(source));

    const history = json(await cli(['history', '--json', 'short,action,sites,undone']));
    expect(history[0].action).toBe('apply');
    expect([...history[0].sites].sort()).toEqual(sites.map((s) => s.id).sort());
    expect(history[0].undone).toMatch(/^\(undoes \w+\)$/);
    expect(history[1].undone).toBe(`by ${history[0].short}`);

    // The undo is a change of two sites too: undone, the 31s are back on both.
    expect((await cli(['undo', history[0].short, '--yes'])).code).toBe(0);
    for (const s of sites) expect(Object.values(prices(await classesOf(s.id))).every((v) => v === '31')).toBe(true);
    expect((await cli(['undo', '--last', '--yes'])).code).toBe(0);
    for (const s of sites) expect(prices(await classesOf(s.id))).toEqual(prices(source));
  });

  it('leaves a service edited on one site meanwhile alone (exit 3) and restores the rest', async () => {
    const catalogue = JSON.parse(readFileSync(file, 'utf8'));
    for (const s of catalogue.services) s.payment.fixed.price.value = '44';
    const changed = join(dir, 'classes-44.json');
    writeFileSync(changed, JSON.stringify(catalogue));
    expect((await cli(['services', 'apply', '-f', changed, ...toSites(), '--yes'])).code).toBe(0);
    const applied = json(await cli(['history', '--json', 'short']))[0].short;
    const [slug, edited] = [...(await classesOf(sites[0]!.id))][0]!;
    // The edit is a change of its own (on one site): the apply is undone by its id.
    expect((await cli(['services', 'update', edited.id, '--site', sites[0]!.name, '--set', 'payment.fixed.price.value=45'])).code).toBe(0);

    const undo = await cli(['undo', applied, '--yes']);
    expect(undo.code, undo.stderr).toBe(3);
    expect(undo.stderr).toMatch(/1 service was changed since and left as it is \(Uptown\)/);
    expect(undo.stderr).toContain(`site Uptown: ${slug} skipped: changed since (revision`);
    const uptown = prices(await classesOf(sites[0]!.id));
    expect(uptown[slug]).toBe('45');
    expect({ ...uptown, [slug]: source.get(slug)!.price }).toEqual(prices(source));
    expect(prices(await classesOf(sites[1]!.id))).toEqual(prices(source));
  });

  it('leaves the services an apply created alone once changed since (exit 3); undoes the creates of a clone --to-site on both sites', async () => {
    // The first apply created the classes; every later apply and undo changed them since.
    const history = json(await cli(['history', '--json', 'short,action,changed,undone']));
    const first = history.filter((h: { action: string }) => h.action === 'apply').at(-1);
    const stale = await cli(['undo', first.short, '--yes']);
    expect(stale.code, stale.stderr).toBe(3);
    expect(stale.stderr).toMatch(new RegExp(`${2 * source.size} services were changed since and left as they are \\((Uptown, Mission Bay|Mission Bay, Uptown)\\)`));
    expect(stale.stderr).toMatch(/skipped: changed since it was created \(revision/);
    for (const s of sites) expect((await classesOf(s.id)).size).toBe(source.size);
    for (const s of sites) expect((await cli(['services', 'delete', '--site', s.name, '--where', 'type=CLASS', '--yes'])).code).toBe(0);

    // clone --to-site is export then apply: one change of two sites, undone on both.
    const clone = json(await cli(['services', 'clone', ...toSites(), '--where', 'type=CLASS', '--yes', '--json']));
    expect(clone.sites.map((s: { counts: { created: number } }) => s.counts.created)).toEqual(sites.map(() => source.size));
    const offTerminal = await cli(['undo', '--last']);
    expect(offTerminal.code).toBe(2);
    expect(offTerminal.stderr).toMatch(/undoing change \w+ needs confirmation/);
    const undo = await cli(['undo', '--last', '--yes', '--json']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(JSON.parse(undo.stdout).sites.map((s: { counts: { deleted: number } }) => s.counts.deleted)).toEqual(sites.map(() => source.size));
    for (const s of sites) expect((await classesOf(s.id)).size).toBe(0);
  });

  it('undoes a prune by re-creating the service (a new id, said so); "nothing to undo" (exit 1) once it is gone', async () => {
    json(await cli(['services', 'apply', '-f', file, '--to-site', sites[1]!.name, '--yes', '--json']));
    const before = await classesOf(sites[1]!.id);
    const fewer = JSON.parse(readFileSync(file, 'utf8'));
    const dropped = fewer.services.shift().slug as string;
    const pruneFile = join(dir, 'fewer.json');
    writeFileSync(pruneFile, JSON.stringify(fewer));
    const prune = json(await cli(['services', 'apply', '-f', pruneFile, '--to-site', sites[1]!.name, '--prune', '--yes', '--json']));
    expect(prune.sites[0].counts.deleted).toBe(1);
    expect((await classesOf(sites[1]!.id)).has(dropped)).toBe(false);

    // The inverse creates, so one item acts at once: no --yes needed off a terminal.
    const back = await cli(['undo', '--last']);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stderr).toContain('re-created services get new ids');
    const after = await classesOf(sites[1]!.id);
    expect(prices(after)).toEqual(prices(before));
    expect(after.get(dropped)!.id).not.toBe(before.get(dropped)!.id);

    // The re-create, deleted by hand since: its undo has nothing left to do.
    const recreate = json(await cli(['history', '--json', 'short,undone']))[0];
    expect(recreate.undone).toMatch(/^\(undoes \w+\)$/);
    expect((await cli(['services', 'delete', after.get(dropped)!.id, '--site', sites[1]!.name, '--yes'])).code).toBe(0);
    const nothing = await cli(['undo', recreate.short, '--yes']);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toMatch(/nothing to undo in change \w+ \(services apply\)/);
  });
});
