/**
 * History and undo as a newcomer meets them (docs/architecture.md "Bulk runs, the journal, history and undo"): the
 * README's main job — the sitectl part of its quick start's first command, read from README.md and run as written
 * by a shell in the repository, on a machine with nothing configured (the local emulator starts with its demo
 * data), with `--yes` as the README says to add without a terminal — then `./bin/sitectl.js undo --last --yes`:
 * every class price is restored exactly.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, createCliSandbox, repoRoot, runCli, type CliSandbox } from '../../helpers/index.js';

let sandbox: CliSandbox;
beforeAll(() => {
  sandbox = createCliSandbox();
});
afterAll(async () => {
  if (sandbox) {
    await runCli(['emulator', 'stop'], { sandbox });
    sandbox.cleanup();
  }
});

/** The sitectl command of the quick start's first line (`npm install && npm run build && ./bin/sitectl.js ...`). */
function quickStartCommand(): string {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const section = readme.split('\n## Quick start\n')[1]?.split('\n## ')[0] ?? '';
  const first = /```sh\n([^\n]+)\n/.exec(section)?.[1] ?? '';
  const command = first
    .split('&&')
    .map((part) => part.trim())
    .find((part) => part.startsWith('./bin/sitectl.js '));
  if (!command) throw new Error(`README.md's quick start has no ./bin/sitectl.js command in its first line: ${first}`);
  return command;
}

/** Runs a command line in a shell in the repository, as a user would type it, with the sandbox's environment. */
function shell(line: string): Promise<{ code: number; stdout: string; stderr: string }> {
  // The Node running the tests first on PATH, so `./bin/sitectl.js` (#!/usr/bin/env node) runs on it.
  const env = cliEnv(sandbox, undefined, { PATH: `${dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}` });
  return new Promise((resolve) => {
    execFile('sh', ['-c', line], { cwd: repoRoot, env, timeout: 90_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

async function classPrices(): Promise<Record<string, string | undefined>> {
  const r = await runCli(['services', 'list', '--where', 'type=CLASS', '--all', '--json', 'id,payment'], { sandbox, timeoutMs: 60_000 });
  expect(r.code, r.stderr).toBe(0);
  const rows = JSON.parse(r.stdout) as { id: string; payment?: { fixed?: { price?: { value?: string } } } }[];
  return Object.fromEntries(rows.map((s) => [s.id, s.payment?.fixed?.price?.value]));
}

describe("the README's main job, undone", () => {
  it('runs the quick start command, then undo --last --yes: every class price is back exactly', async () => {
    const command = quickStartCommand();
    expect(command).toMatch(/services update .*--filter .*CLASS.*--set payment\.fixed\.price\.value=/);
    const newPrice = /payment\.fixed\.price\.value=(\S+)/.exec(command)![1]!;
    const before = await classPrices();
    expect(Object.keys(before).length).toBeGreaterThan(2);
    expect(Object.values(before).some((v) => v !== newPrice)).toBe(true);

    const job = await shell(`${command} --yes`);
    expect(job.code, job.stderr).toBe(0);
    expect(Object.values(await classPrices()).every((v) => v === newPrice)).toBe(true);

    const undo = await shell('./bin/sitectl.js undo --last --yes');
    expect(undo.code, undo.stderr).toBe(0);
    expect(await classPrices()).toEqual(before);
  });
});
