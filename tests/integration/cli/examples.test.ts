/**
 * The examples people copy run on the demo data at whatever hour the suite runs (docs/contracts.md "Tests and
 * time"): every `sitectl` line of the shell blocks of the README and then of the manual's pages (docs/manual, in
 * the order its index lists them: the order the README held them in before they moved there), as a new user would type them after the
 * quick start (on the local emulator the first command starts, with its demo data), and the example lines of
 * every command's `--help`, each help's on the demo data as it is after `emulator reset`. An example holding a placeholder
 * (tests/helpers/examples.ts says what counts as one) is not run; the few that cannot run inside a test are
 * named in NOT_RUN with the reason; every other one must exit 0, or the code EXIT says with its reason.
 * This file is in tests/time-sensitive.txt: the spread (scripts/time-spread) runs it at a weekend, late evening
 * UTC, early morning in the site's zone and on a daylight-saving change.
 *
 * A plain `sitectl ...` line runs in process; one that needs a shell (a pipe, a redirection, `$(...)`, a
 * variable) runs in bash with `sitectl` on its PATH, in a directory of its own, with the variables earlier
 * lines of its block set.
 */
import type { Command } from 'commander';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../../src/context.js';
import { createProgram } from '../../../src/program.js';
import { binPath, cliEnv, createCliSandbox, repoRoot, runInProcess, type CliResult, type CliSandbox } from '../../helpers/index.js';
import { argvOf, assignedBy, helpExamples, markdownExamples, needsShell, placeholderOf, producedBy, type BlockState, type Example } from '../../helpers/examples.js';

/** Examples that cannot run inside a test, each with the reason; every entry must match an example. */
const NOT_RUN: ReadonlyArray<[RegExp, string]> = [
  [/^sitectl login(?: --no-browser| --device)?$/, 'waits for a person to sign in, in a browser or on the device page (tests/e2e/login-browser.test.ts)'],
  [/^sitectl login --email \S+ --password-stdin$/, 'asks for the password on a terminal (tests/e2e/login-tty.test.ts)'],
  [/^sitectl auth verify$/, 'asks for the code on a terminal (tests/e2e/login-tty.test.ts)'],
  [/^sitectl auth verify --code \d+$/, 'finishes a sign-in that stopped at e-mail verification, which a placeholder example starts'],
  [/^sitectl auth recover --token-stdin --password-stdin$/, 'reads the recovery token the e-mail carries and a new password on stdin'],
  [/^sitectl (?:--profile prod )?logout$|^sitectl members me\b|^sitectl orders list --mine$|^sitectl logout --site Uptown$|^sitectl auth status --site Uptown$/, 'acts on the member a placeholder example signs in (tests/integration/cli/auth*.test.ts)'],
  [/^sitectl emulator mail --to .* \| sitectl auth verify --code-stdin$/, 'finishes the SMS sign-in a placeholder example starts (tests/integration/cli/factors.test.ts)'],
  [/^sitectl auth change-password$|^sitectl auth resend-code$|^sitectl checkout preview .* --online\b/, 'acts on the member (or the pending sign-in) a placeholder example starts (tests/integration/cli/spec-verbs.test.ts)'],
  [/^sitectl profile remove prod --yes$/, 'removes the profile a placeholder example adds with your API key'],
  [/^sitectl (?:dashboard|browse \w+)\b|--interactive\b/, 'draws on a terminal and waits for keys (tests/e2e/*-tty.test.ts)'],
  [/^sitectl events --follow\b/, 'follows the events until Ctrl-C (tests/e2e/events-tty.test.ts)'],
  [/^sitectl emulator start(?! --detach)/, 'runs the emulator in the foreground until Ctrl-C'],
  [/^sitectl emulator start --detach --port 7700$/, 'takes a fixed port, which another program may hold'],
  [/^sitectl emulator reset --members 1000000 --yes$/, 'seeds a million members: about a minute (npm run bench measures it)'],
];

/** Examples that exit with another code than 0 by design, each with the reason (`help`: in a help's examples only). */
const EXIT: ReadonlyArray<[RegExp, number, string, 'help'?]> = [
  [/services diff .*--exit-code/, 1, 'exit 1 says the site differs from the file, as git diff --exit-code'],
  [/^sitectl undo --last --dry-run$/, 2, "a machine that has made no change has no change to undo (the README's History and undo section undoes one)", 'help'],
];

/** A new user's machine: config, state and the local emulator's data dir of its own, and a directory to work in. */
interface World {
  sandbox: CliSandbox;
  work: string;
}

let shim: string;
const worlds: World[] = [];
beforeAll(async () => {
  shim = mkdtempSync(join(tmpdir(), 'sitectl-shim-'));
  writeFileSync(join(shim, 'sitectl'), `#!/bin/sh\nexec '${process.execPath}' '${binPath}' "$@"\n`);
  chmodSync(join(shim, 'sitectl'), 0o755);
});
afterAll(async () => {
  for (const { sandbox, work } of worlds) {
    await runInProcess(['emulator', 'stop'], { sandbox });
    sandbox.cleanup();
    rmSync(work, { recursive: true, force: true });
  }
  if (shim) rmSync(shim, { recursive: true, force: true });
});

/** A new user's machine whose local emulator runs with the demo data (the first command started it). */
async function newWorld(): Promise<World> {
  const world = { sandbox: createCliSandbox(), work: mkdtempSync(join(tmpdir(), 'sitectl-examples-')) };
  worlds.push(world);
  const first = await runInProcess(['services', 'count'], { sandbox: world.sandbox });
  expect(first.code, first.stderr).toBe(0);
  return world;
}

/** Runs a line in bash in the world's directory: `sitectl` is the built CLI; `vars` are set; `capture` are read back. */
function bash(world: World, line: string, vars: Map<string, string>, capture: string[]): Promise<CliResult & { values: Map<string, string> }> {
  const out = join(world.work, '.captured');
  const script = `${line}\nrc=$?\n${capture.map((v) => `printf '%s\\0%s\\0' ${v} "$${v}" >> '${out}'`).join('\n')}\nexit $rc\n`;
  rmSync(out, { force: true });
  const env = { ...cliEnv(world.sandbox), ...Object.fromEntries(vars), PATH: `${shim}:${process.env.PATH}` };
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd: world.work, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const [o, e]: Buffer[][] = [[], []];
    child.stdout.on('data', (b: Buffer) => o.push(b));
    child.stderr.on('data', (b: Buffer) => e.push(b));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const values = new Map<string, string>();
      if (capture.length) {
        const parts = readFileSync(out, 'utf8').split('\0');
        for (let i = 0; i + 1 < parts.length; i += 2) values.set(parts[i]!, parts[i + 1]!);
      }
      resolve({ code: code ?? 1, stdout: Buffer.concat(o).toString(), stderr: Buffer.concat(e).toString(), values });
    });
  });
}

interface Ran {
  example: Example;
  result?: CliResult;
  skipped?: string;
}

/**
 * Runs the examples in order; those of one block share shell variables and the files they wrote.
 * @returns what each did, or why it was not run
 */
async function runAll(world: World, examples: readonly Example[]): Promise<Ran[]> {
  const ran: Ran[] = [];
  const states = new Map<number | undefined, BlockState & { vars: Map<string, string> }>();
  for (const example of examples) {
    const state = states.get(example.block) ?? { assigned: new Set(), produced: new Set(), vars: new Map() };
    states.set(example.block, state);
    const { line } = example;
    const held = placeholderOf(line, state);
    const excused = NOT_RUN.find(([re]) => re.test(line));
    if (held || excused) {
      ran.push({ example, skipped: held ? `placeholder ${held}` : excused![1] });
      continue;
    }
    const assigns = assignedBy(line);
    const files = producedBy(line);
    let result: CliResult;
    if (!needsShell(line) && files.length === 0 && !/\s(?:-f|--file|--ids-file|--query-file)\s/.test(line)) {
      result = await runInProcess(argvOf(line), { sandbox: world.sandbox });
    } else {
      const r = await bash(world, line, state.vars, assigns);
      for (const [k, v] of r.values) state.vars.set(k, v);
      result = r;
    }
    for (const v of assigns) state.assigned.add(v);
    for (const f of files) state.produced.add(f);
    ran.push({ example, result });
  }
  return ran;
}

/** The failures among `ran`: each example whose exit code is not the expected one, with its output. */
function failures(ran: readonly Ran[], source: 'readme' | 'help'): string[] {
  const out: string[] = [];
  for (const { example, result } of ran) {
    if (!result) continue;
    const expected = EXIT.find(([re, , , only]) => re.test(example.line) && (only === undefined || only === source))?.[1] ?? 0;
    if (result.code !== expected) out.push(`${example.where}: ${example.line}\n  exit ${result.code} (expected ${expected})\n  ${result.stderr.trim().split('\n').slice(-3).join('\n  ')}`);
  }
  return out;
}

/** Every command path of the program (`['bookings', 'create']`), the root's included as `[]`. */
async function commandPaths(): Promise<string[][]> {
  const { ctx } = createContext({ env: { ...process.env } });
  const program = await createProgram(ctx, [], { allNouns: true });
  const paths: string[][] = [];
  const walk = (cmd: Command, path: string[]): void => {
    paths.push(path);
    for (const sub of cmd.commands) walk(sub, [...path, sub.name()]);
  };
  walk(program, []);
  return paths;
}

/** The manual's pages, in its index's order (docs/manual/README.md). */
function manualPages(): string[] {
  const index = readFileSync(join(repoRoot, 'docs', 'manual', 'README.md'), 'utf8');
  return [...index.matchAll(/^- \[[^\]]+\]\(([\w-]+\.md)\)/gm)].map((m) => join('docs', 'manual', m[1]!));
}

/** The README's examples, then each manual page's, blocks numbered apart so no two pages share a block. */
function documentExamples(): Example[] {
  const out: Example[] = [];
  let blocks = 0;
  for (const file of ['README.md', ...manualPages()]) {
    const examples = markdownExamples(readFileSync(join(repoRoot, file), 'utf8'), file);
    out.push(...examples.map((e) => ({ ...e, block: e.block === undefined ? undefined : e.block + blocks })));
    blocks += Math.max(0, ...examples.map((e) => (e.block ?? -1) + 1));
  }
  return out;
}

describe('examples', () => {
  it('every README and manual example without a placeholder runs on a fresh demo site, in order, with the exit code its text gives', async () => {
    expect(manualPages().length).toBeGreaterThanOrEqual(7);
    const examples = documentExamples();
    const ran = await runAll(await newWorld(), examples);
    expect(failures(ran, 'readme')).toEqual([]);
    // Most examples run: a placeholder is the exception, and NOT_RUN names the rest.
    expect(ran.filter((r) => r.result).length).toBeGreaterThan(examples.length * 0.6);
  }, 300_000);

  it('every --help example without a placeholder runs on the demo data, with the exit code its text gives', async () => {
    const world = await newWorld();
    const ran: Ran[] = [];
    let examples = 0;
    for (const path of await commandPaths()) {
      const help = await runInProcess([...path, '--help']);
      expect(help.code, path.join(' ')).toBe(0);
      const group = helpExamples(help.stdout, `sitectl ${path.join(' ')} --help`.replace(/\s+/g, ' '));
      if (group.length === 0) continue;
      examples += group.length;
      // Each help's examples start from the demo data, as a reader who just ran `emulator reset` finds it, on a
      // machine that has made no change yet.
      const reset = await runInProcess(['emulator', 'reset', '--yes'], { sandbox: world.sandbox });
      expect(reset.code, reset.stderr).toBe(0);
      rmSync(world.sandbox.stateDir, { recursive: true, force: true });
      ran.push(...(await runAll(world, group.map((e) => ({ ...e, block: 0 })))));
    }
    expect(failures(ran, 'help')).toEqual([]);
    expect(ran.filter((r) => r.result).length).toBeGreaterThan(examples * 0.6);
  }, 300_000);

  it('NOT_RUN and EXIT hold no entry that matches no example (a list that names nothing has gone stale)', async () => {
    const lines = documentExamples().map((e) => e.line);
    for (const path of await commandPaths()) lines.push(...helpExamples((await runInProcess([...path, '--help'])).stdout, '').map((e) => e.line));
    for (const [re, reason] of [...NOT_RUN, ...EXIT.map(([re, , why]) => [re, why] as const)]) expect(lines.some((l) => re.test(l)), `${re} (${reason})`).toBe(true);
  });
});
