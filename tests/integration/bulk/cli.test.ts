/**
 * The bulk verbs through the built CLI against an emulator on port 0: a concurrent edit reported as a conflict
 * (exit 3, the other writer's value kept), the confirm rule off a terminal (exit 2, nothing changed),
 * `--dry-run --json`, bad `--set` input, bulk delete under after-commit faults, clone --count and its resume,
 * and the single-service forms.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCliSandbox, runCli, startTestEmulator, type CliSandbox, type TestEmulator } from '../../helpers/index.js';
import { allServices, eventsAfter, lastEventSeq, setFaults } from './support.js';

let emu: TestEmulator;
let sandbox: CliSandbox;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 500 });
  sandbox = createCliSandbox();
});
afterAll(async () => {
  await emu?.close();
  sandbox?.cleanup();
});
beforeEach(async () => {
  await setFaults(emu, { latencyMs: 0, errorRate: 0, dropRate: 0, rateLimitPerSec: 0 });
});

const cli = (args: string[], timeoutMs = 30_000) => runCli(args, { emulator: emu, sandbox, timeoutMs });

function priceOf(s: Record<string, unknown>): unknown {
  return (s.payment as { fixed?: { price?: { value?: string } } } | undefined)?.fixed?.price?.value;
}

async function waitFor(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function journalLines(path: string): { kind: string; id?: string; outcome?: string; createdId?: string; [k: string]: unknown }[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .flatMap((l) => {
      try {
        return [JSON.parse(l)];
      } catch {
        return [];
      }
    });
}

describe('services update (bulk) through the CLI', () => {
  it('reports a concurrent edit as a conflict, keeps its value and exits 3', async () => {
    const journal = join(sandbox.stateDir, 'conflict.ndjson');
    // Slow replies so the run is still sending chunks when the concurrent edit lands.
    await setFaults(emu, { latencyMs: 400 });
    const run = cli(
      ['services', 'update', '--filter', '{}', '--set', 'description=bulk value', '--yes', '--json', '--concurrency', '1', '--journal', journal],
      50_000,
    );
    await waitFor(() => journalLines(journal).some((l) => l.kind === 'result'), 30_000, 'the first chunk');
    const planned = journalLines(journal).filter((l) => l.kind === 'planned');
    expect(planned).toHaveLength(500);
    const target = planned[planned.length - 1] as unknown as { id: string; revision: string };
    const edit = await emu.request('PATCH', `/_api/bookings/v2/services/${target.id}`, {
      service: { id: target.id, revision: target.revision, description: 'concurrent edit' },
      mask: 'description',
    });
    expect(edit.status).toBe(200);

    const r = await run;
    expect(r.code, r.stderr).toBe(3);
    const report = JSON.parse(r.stdout);
    expect(report.counts).toMatchObject({ updated: 499, conflict: 1, failed: 0 });
    expect(report.problems).toEqual([expect.objectContaining({ id: target.id, outcome: 'conflict' })]);
    expect(r.stderr).toMatch(/1 of 500 items did not complete \(1 conflict\)/);
    await setFaults(emu, { latencyMs: 0 });
    const now = (await allServices(emu)).get(target.id)!;
    expect(now.description).toBe('concurrent edit');
    expect(now.revision).toBe(String(Number(target.revision) + 1));
  });

  it('refuses to run without --yes off a terminal: exit 2, nothing planned or changed', async () => {
    const seq = await lastEventSeq(emu);
    const journals = existsSync(join(sandbox.stateDir, 'journals')) ? readdirSync(join(sandbox.stateDir, 'journals')).length : 0;
    const r = await cli(['services', 'update', '--filter', '{}', '--set', 'description=no'] );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--yes');
    expect(r.stderr.trim().split('\n')).toHaveLength(2);
    expect(r.stdout).toBe('');
    expect(await eventsAfter(emu, seq)).toEqual([]);
    const after = existsSync(join(sandbox.stateDir, 'journals')) ? readdirSync(join(sandbox.stateDir, 'journals')).length : 0;
    expect(after).toBe(journals);
  });

  it('--dry-run --json prints the plan and changes nothing', async () => {
    const seq = await lastEventSeq(emu);
    const services = await allServices(emu);
    const courses = [...services.values()].filter((s) => s.type === 'COURSE');
    const r = await cli(['services', 'update', '--where', 'type=COURSE', '--set', 'payment.fixed.price.value=45', '--dry-run', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const plan: Array<{ id: string; outcome: string; before?: Record<string, unknown>; after?: Record<string, unknown> }> = JSON.parse(r.stdout);
    expect(plan).toHaveLength(courses.length);
    const changed = plan.filter((i) => i.outcome === 'change');
    for (const item of changed) {
      expect(item.before).toEqual({ 'payment.fixed.price.value': priceOf(services.get(item.id)!) });
      expect(item.after).toEqual({ 'payment.fixed.price.value': '45' });
    }
    const unchanged = plan.filter((i) => i.outcome === 'unchanged').length;
    expect(changed.length + unchanged).toBe(courses.length);
    expect(r.stderr).toContain(`dry run: ${changed.length} of ${courses.length} services would change (${unchanged} unchanged, 0 skipped); nothing was changed`);
    expect(await eventsAfter(emu, seq)).toEqual([]);
  });

  it('rejects an unknown field in --set with a one-line error and a suggestion', async () => {
    const r = await cli(['services', 'update', '--filter', '{}', '--set', 'nmae=x', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('error: unknown field "nmae" in --set; did you mean "name"?');
  });

  it('selects by --ids-file and reports unknown ids before changing anything', async () => {
    const ids = [...(await allServices(emu)).keys()].slice(0, 3);
    const file = join(sandbox.root, 'ids.txt');
    writeFileSync(file, `# targets\n${ids.join('\n')}\nno-such-id\n`);
    const seq = await lastEventSeq(emu);
    const bad = await cli(['services', 'update', '--ids-file', file, '--set', 'tagLine=from file', '--yes']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('1 of the given ids does not exist: no-such-id');
    expect(await eventsAfter(emu, seq)).toEqual([]);

    writeFileSync(file, ids.join('\n'));
    const ok = await cli(['services', 'update', '--ids-file', file, '--set', 'tagLine=from file', '--yes', '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).counts.updated).toBe(3);
    const events = await eventsAfter(emu, seq);
    expect(events.map((e) => e.entityId).sort()).toEqual([...ids].sort());
  });
});

describe('--ids-file -', () => {
  it('reads the ids from stdin', async () => {
    const ids = [...(await allServices(emu)).keys()].slice(10, 14);
    const r = await runCli(['services', 'update', '--ids-file', '-', '--set', 'tagLine=from stdin', '--dry-run', '--json'], {
      emulator: emu,
      sandbox,
      input: `${ids.slice(0, 2).join('\n')}\n${ids.slice(2).join(',')}\n`,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).map((i: { id: string }) => i.id).sort()).toEqual([...ids].sort());
  });
});

describe('services update, delete, clone (single)', () => {
  it('updates one service with the derived mask and prints it', async () => {
    const [service] = [...(await allServices(emu)).values()];
    const r = await cli(['services', 'update', service.id, '--set', 'defaultCapacity=7', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ id: service.id, defaultCapacity: 7, revision: String(Number(service.revision) + 1) });
    expect(out.name).toBe(service.name);
  });

  it('an unknown id fails with exit 1 and changes nothing', async () => {
    const seq = await lastEventSeq(emu);
    const r = await cli(['services', 'update', 'no-such-id', '--set', 'name=x']);
    expect(r.code).toBe(1);
    // A one-item plan: the id is looked up by the plan's read, which finds nothing (no write is sent).
    expect(r.stderr).toMatch(/^error: no service has the id no-such-id\n/m);
    expect(await eventsAfter(emu, seq)).toEqual([]);
  });

  it('delete ID needs --yes off a terminal', async () => {
    const [service] = [...(await allServices(emu)).values()];
    const r = await cli(['services', 'delete', service.id]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--yes');
    expect((await allServices(emu)).has(service.id)).toBe(true);
  });
});

describe('services delete (bulk) and clone --count', () => {
  it('deletes exactly the selected services, even when replies are lost after the commit', async () => {
    const services = await allServices(emu);
    const targets = [...services.values()].filter((s) => s.type === 'APPOINTMENT').slice(0, 150).map((s) => s.id);
    await setFaults(emu, { errorRate: 0.4, errorPhase: 'after', seed: 3 });
    const r = await cli(['--debug', 'services', 'delete', '--ids', targets.join(','), '--yes', '--json'], 50_000);
    await setFaults(emu, { errorRate: 0 });
    expect(r.code, r.stderr).toBe(0);
    // A delete chunk was committed, answered 5xx, and sent again: its items came back NOT_FOUND = deleted.
    expect(r.stderr).toMatch(/^debug: < POST \S+\/bulk\/services\/delete 50[03] /m);
    expect(JSON.parse(r.stdout).counts).toMatchObject({ deleted: 150, failed: 0 });
    const after = await allServices(emu);
    expect(after.size).toBe(services.size - 150);
    for (const id of targets) expect(after.has(id)).toBe(false);
  });

  it('clones N copies and --resume creates only the missing ones', async () => {
    const [source] = [...(await allServices(emu)).values()];
    const journal = join(sandbox.stateDir, 'clone.ndjson');
    const r = await cli(['services', 'clone', source.id, '--count', '4', '--yes', '--json', '--journal', journal]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.counts.created).toBe(4);
    expect(new Set(report.createdIds).size).toBe(4);
    const services = await allServices(emu);
    for (const id of report.createdIds) expect(services.get(id)?.name).toContain(source.name!);

    // Each copy's intended name was on disk before it was sent.
    const lines = readFileSync(journal, 'utf8').trim().split('\n');
    const sending = lines.filter((l) => l.includes('"kind":"sending"')).map((l) => JSON.parse(l));
    expect(sending).toHaveLength(4);
    expect(sending[0].intended).toEqual({ name: `${source.name} (copy)` });
    const slots = sending.map((l: { id: string }) => l.id);

    // As if the run had died before sending the last two: neither their sending lines nor results, nor the end.
    const unsent = new Set(slots.slice(2));
    const notSent = lines.filter((l, i) => i !== lines.length - 1 && !(/"kind":"(sending|result)"/.test(l) && unsent.has(JSON.parse(l).id)));
    writeFileSync(journal, `${notSent.join('\n')}\n`);
    let before = (await allServices(emu)).size;
    const resumed = await cli(['services', 'clone', '--resume', journal, '--yes', '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const again = JSON.parse(resumed.stdout);
    expect(again.counts.created).toBe(4);
    expect(again.createdIds.slice(0, 2)).toEqual(report.createdIds.slice(0, 2));
    expect((await allServices(emu)).size).toBe(before + 2);

    // As if killed (SIGKILL) with the last two in flight: sent, created, their replies never journaled. The resumed
    // run adopts those two copies (named as intended, made since the run began) and creates none.
    const second = join(sandbox.stateDir, 'clone-killed.ndjson');
    const run2 = await cli(['services', 'clone', source.id, '--count', '4', '--yes', '--json', '--journal', second]);
    expect(run2.code, run2.stderr).toBe(0);
    const made = JSON.parse(run2.stdout).createdIds as string[];
    const lines2 = readFileSync(second, 'utf8').trim().split('\n');
    const inFlight = new Set(lines2.filter((l) => l.includes('"kind":"sending"')).map((l) => JSON.parse(l).id).slice(2));
    writeFileSync(second, `${lines2.filter((l, i) => i !== lines2.length - 1 && !(l.includes('"kind":"result"') && inFlight.has(JSON.parse(l).id))).join('\n')}\n`);
    before = (await allServices(emu)).size;
    const adopted = await cli(['services', 'clone', '--resume', second, '--yes', '--json']);
    expect(adopted.code, adopted.stderr).toBe(0);
    const third = JSON.parse(adopted.stdout);
    expect(third.counts.created).toBe(4);
    expect(new Set(third.createdIds)).toEqual(new Set(made));
    expect((await allServices(emu)).size).toBe(before);
  });
});
