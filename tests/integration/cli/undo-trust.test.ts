/**
 * Undo and resume that hold (docs/architecture.md "Bulk runs, the journal, history and undo"): an undo killed with
 * SIGKILL is finished by following the hints it and `undo` print, literally, every item restored exactly once; two
 * undos of one change at once do the work once, and the counts say so (the test sees them overlap); an undo skips
 * what was deleted since (exit 3) and restores the rest; a journal resumed or undone on another site is refused
 * with nothing sent; approving a member is not undone by blocking it; a dry run lists every id given.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binPath, cliEnv, createCliSandbox, repoRoot, runCli, runInProcess, startTestEmulator, type CliResult, type CliSandbox, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';
import { allServices, lastEventSeq, updatesPerService } from '../bulk/support.js';

let emu: TestEmulator;
let sandbox: CliSandbox;
beforeAll(async () => {
  // More services than one bulk call takes (100): an undo killed after its first call has some left to do.
  emu = await startTestEmulator({ seed: 'demo', size: 230, bookings: 0, members: 20 });
  sandbox = createCliSandbox();
});
afterAll(async () => {
  await emu?.close();
  sandbox?.cleanup();
});

const cli = (args: string[], opts: InProcessOptions = {}) => runInProcess(args, { emulator: emu, sandbox, ...opts });
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const json = (r: CliResult): any => JSON.parse(r.stdout);
const setFaults = (faults: Record<string, unknown>) => emu.request('PUT', '/__emulator/faults', faults);
const journalsDir = () => join(sandbox.stateDir, 'journals');

/** Updates every service's description; returns the change's short id and each service's revision before. */
async function updateAll(text: string): Promise<{ short: string; before: Map<string, { revision: string; description?: string }> }> {
  const before = new Map([...(await allServices(emu))].map(([id, s]) => [id, { revision: s.revision, description: s.description }]));
  const r = await cli(['services', 'update', '--filter', '{}', '--set', `description=${text}`, '--yes']);
  expect(r.code, r.stderr).toBe(0);
  const [change] = json(await cli(['history', '--json', 'short,action']));
  expect(change.action).toBe('update');
  return { short: change.short, before };
}

/** Every service has its description of `before` back, each changed exactly twice since (the update and its undo). */
async function restoredOnce(before: Map<string, { revision: string; description?: string }>): Promise<void> {
  const now = await allServices(emu);
  for (const [id, b] of before) {
    expect(now.get(id)?.description, id).toBe(b.description);
    expect(Number(now.get(id)?.revision), id).toBe(Number(b.revision) + 2);
  }
}

/** The `hint:` line's command, as typed after `sitectl` (the hint names the command to run). */
function hinted(stderr: string): string[] {
  const m = /^hint: [^:]*: sitectl (.+)$/m.exec(stderr);
  if (!m) throw new Error(`no command in the hint:\n${stderr}`);
  return m[1]!.split(' ');
}

describe('undo, killed and finished by following the hints', () => {
  it('kill -9 mid-way; undo --last names the command that continues it; that command restores the rest, each item once', async () => {
    const { short, before } = await updateAll('kill me');
    await setFaults({ latencyMs: 300 });
    const child = spawn(process.execPath, [binPath, 'undo', short, '--yes', '--concurrency', '1'], { cwd: repoRoot, env: cliEnv(sandbox, emu), stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    // Killed once the undo's journal holds a few results (its file: the newest journal naming the change it undoes).
    const undoJournal = () => readdirSync(journalsDir()).map((f) => join(journalsDir(), f)).find((p) => p.endsWith('.ndjson') && readFileSync(p, 'utf8').includes('"undoOf"'));
    const results = () => {
      const p = undoJournal();
      return p ? readFileSync(p, 'utf8').split('\n').filter((l) => l.includes('"kind":"result"')).length : 0;
    };
    try {
      const deadline = Date.now() + 40_000;
      while (results() < 100 && Date.now() < deadline) await new Promise((res) => setTimeout(res, 20));
    } finally {
      child.kill('SIGKILL');
    }
    expect(await exited).toBe('SIGKILL');
    await setFaults({ latencyMs: 0 });
    expect(results()).toBeGreaterThanOrEqual(100);
    expect(results()).toBeLessThan(before.size);

    // What a person would type next, and what each message says to type after it.
    const last = await cli(['undo', '--last', '--yes']);
    expect(last.code, last.stderr).toBe(1);
    expect(last.stderr).toMatch(new RegExp(`is an undo of change ${short} that did not finish\\nhint: continue it with: sitectl undo ${short}$`, 'm'));
    const again = await cli([...hinted(last.stderr), '--yes']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(new RegExp(`continuing the undo of change ${short} that did not finish`));
    await restoredOnce(before);
    // Finished: the change is undone, and undoing it again points at the undo.
    const twice = await cli(['undo', short, '--yes']);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/was undone already \(by \w+\)\nhint: undo that one instead: sitectl undo \w+$/m);
  });

  it('undo --resume JOURNAL of a killed undo continues it too; given a journal that is no undo, it names the command that resumes it', async () => {
    const { short, before } = await updateAll('resume me');
    // Killed as soon as it says where its journal is (it has planned, and goes ahead).
    await setFaults({ latencyMs: 200 });
    const killed = await runCli(['undo', short, '--yes', '--concurrency', '1'], { emulator: emu, sandbox, interruptWhen: ({ stderr }) => /^journal: /m.test(stderr), interruptSignal: 'SIGKILL', timeoutMs: 30_000 });
    await setFaults({ latencyMs: 0 });
    expect(killed.code).toBe(137);
    const journal = /^journal: (\S+)$/m.exec(killed.stderr)![1]!;
    const resumed = await cli(['undo', '--resume', journal, '--yes']);
    expect(resumed.code, resumed.stderr).toBe(0);
    await restoredOnce(before);

    const update = json(await cli(['history', '--json', 'action,journal,undoOf'])).find((c: { action: string; undoOf?: string }) => c.action === 'update' && !c.undoOf).journal;
    const notUndo = await cli(['undo', '--resume', update, '--yes']);
    expect(notUndo.code).toBe(2);
    expect(notUndo.stderr).toMatch(new RegExp(`is the journal of a services update run, not of an undo\\nhint: resume it with: sitectl services update --resume ${update.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`, 'm'));
  });
});

describe('two undos of one change at once', () => {
  it('one does the work, the other waits, then says it found the change undone; each item changed once', async () => {
    const { short, before } = await updateAll('race');
    const seq = await lastEventSeq(emu);
    // Slow enough that the second starts while the first is still at work, on a loaded machine too.
    await setFaults({ latencyMs: 150 });
    const run = () => runCli(['undo', short, '--yes', '--json', '--concurrency', '1'], { emulator: emu, sandbox, timeoutMs: 60_000 });
    const [a, b] = await Promise.all([run(), run()]);
    await setFaults({ latencyMs: 0 });
    const [worker, waiter] = a.stdout.trim() ? [a, b] : [b, a];
    expect(worker.code, worker.stderr).toBe(0);
    expect(waiter.code, waiter.stderr).toBe(0);
    expect(json(worker).counts.updated).toBe(before.size);
    // The proof they overlapped: the second one waited for the first.
    expect(waiter.stderr).toMatch(new RegExp(`change ${short} is being undone by another sitectl \\(process \\d+\\); waiting`));
    expect(waiter.stderr).toMatch(new RegExp(`change ${short} was undone meanwhile by change \\w+ \\(${before.size} changed`));
    expect(waiter.stdout).toBe('');
    const updates = await updatesPerService(emu, seq);
    for (const id of before.keys()) expect(updates.get(id), id).toBe(1);
    await restoredOnce(before);
  });
});

describe('undo does what it can', () => {
  it('an item deleted since is skipped (exit 3), the others restored', async () => {
    const ids = json(await cli(['services', 'list', '--limit', '3', '--json', 'id,description']));
    const r = await cli(['services', 'update', '--ids', ids.map((s: { id: string }) => s.id).join(','), '--set', 'description=three', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    const [change] = json(await cli(['history', '--json', 'short']));
    expect((await cli(['services', 'delete', ids[0].id, '--yes'])).code).toBe(0);
    const undo = await cli(['undo', change.short, '--yes']);
    expect(undo.code, undo.stderr).toBe(3);
    expect(undo.stderr).toMatch(new RegExp(`${ids[0].id}\\tskipped\\tdeleted since change ${change.short}`));
    for (const s of ids.slice(1)) expect(json(await cli(['services', 'get', s.id, '--json', 'description'])).description).toBe(s.description);
  });

  it('an approval is not undone by a block: a member approved from PENDING is listed as cannot be brought back', async () => {
    const [member] = json(await cli(['members', 'list', '--status', 'PENDING', '--limit', '1', '--json', 'id']));
    expect((await cli(['members', 'approve', member.id])).code).toBe(0);
    const dry = await cli(['undo', '--last', '--dry-run']);
    expect(dry.code).toBe(1);
    expect(dry.stderr).toMatch(/nothing to undo in change \w+ \(members approve\): it was PENDING before the approval, and the platform has no way back to PENDING/);
    expect(dry.stderr).not.toMatch(/to block/);
    expect(json(await cli(['members', 'get', member.id, '--json', 'status'])).status).toBe('APPROVED');
  });
});

describe('a journal is bound to where it was made', () => {
  it('--resume on another site is refused with nothing sent, naming both sites and the command that works', async () => {
    const [service] = json(await cli(['services', 'list', '--limit', '1', '--json', 'id']));
    const journal = join(sandbox.root, 'downtown.ndjson');
    expect((await cli(['services', 'update', '--ids', service.id, '--set', 'description=downtown', '--yes', '--journal', journal])).code).toBe(0);
    const uptown = emu.emulator.sites.find((s) => s.name === 'Uptown')!.id;
    const seq = await lastEventSeq(emu);
    const r = await cli(['--site', uptown, 'services', 'update', '--resume', journal, '--yes']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^error: resume: ${journal.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} was made on site ${emu.siteId}, not the site in use \\(${uptown}\\); nothing was sent`, 'm'));
    expect(r.stderr).toMatch(new RegExp(`^hint: to resume it there: sitectl --profile \\S+ --site ${emu.siteId} services update --resume `, 'm'));
    expect(await lastEventSeq(emu)).toBe(seq);
    const undo = await cli(['--site', uptown, 'undo', '--last', '--yes']);
    expect(undo.code).toBe(2);
    expect(undo.stderr).toMatch(/^error: undo: .* was made on site/m);
  });
});

describe('previews tell the whole truth', () => {
  it('--dry-run --json lists every id given, a missing one refused as not found (exit 2, as the run refuses it)', async () => {
    const ids = json(await cli(['services', 'list', '--limit', '2', '--json', 'id'])).map((s: { id: string }) => s.id);
    const missing = '00000000-0000-4000-8000-00000000dead';
    const r = await cli(['services', 'delete', '--ids', [...ids, missing].join(','), '--dry-run', '--json']);
    expect(r.code).toBe(2);
    const rows = json(r);
    expect(rows.map((x: { id: string }) => x.id).sort()).toEqual([...ids, missing].sort());
    expect(rows.find((x: { id: string }) => x.id === missing)).toEqual({ id: missing, outcome: 'refused', reason: 'not found' });
  });

  it('a run declined at the prompt names no journal, and leaves none', async () => {
    const before = readdirSync(journalsDir()).length;
    const declined = await cli(['services', 'update', '--filter', '{}', '--set', 'description=never'], { tty: true, env: { CI: undefined }, prompter: { confirm: async () => false, require: async () => { throw new (await import('../../../src/core/errors.js')).DeclinedError(); }, secret: async () => '' } });
    expect(declined.code).toBe(1);
    expect(declined.stderr).not.toMatch(/journal: /);
    expect(readdirSync(journalsDir())).toHaveLength(before);
  });
});
