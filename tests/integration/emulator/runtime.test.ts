/**
 * The emulator on the Node running this suite (.ci/run runs it on 22, 24 and 26): started in the background,
 * seeded, used, written to and stopped four times in a row, with its log free of native aborts and of Node
 * warnings. On Node 24.19+ the emulator's former driver (better-sqlite3 12) aborted in 3 of 4 such starts
 * (`Assertion failed: (env) != nullptr` in RemoveEnvironmentCleanupHook, from the checkpoint worker's statements).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopEmulator } from '../../../src/local/daemon.js';
import { createCliSandbox, runCli, type CliSandbox } from '../../helpers/index.js';

let sandbox: CliSandbox;
let dataDir: string;

beforeAll(() => {
  sandbox = createCliSandbox();
  dataDir = join(sandbox.dataDir, 'emulator');
});
afterAll(async () => {
  await stopEmulator(dataDir);
  sandbox.cleanup();
});

describe(`the emulator on Node ${process.versions.node}`, () => {
  it('starts, seeds, serves, writes and stops four times with no native abort or warning in its log', async () => {
    for (let round = 1; round <= 4; round++) {
      const start = await runCli(['emulator', 'start', '--detach', ...(round === 1 ? ['--size', '15'] : [])], { sandbox });
      expect(start.code, `round ${round}: ${start.stderr}`).toBe(0);

      const count = await runCli(['services', 'count'], { sandbox });
      expect(count.code, count.stderr).toBe(0);
      expect(Number(count.stdout)).toBe(15 + round - 1);

      const created = await runCli(['services', 'create', '--name', `Runtime check ${round}`, '--type', 'CLASS', '--price', '10', '--capacity', '5', '--json', 'id'], { sandbox });
      expect(created.code, created.stderr).toBe(0);

      const members = await runCli(['members', 'list', '--limit', '3', '--json', 'id'], { sandbox });
      expect(members.code, members.stderr).toBe(0);

      const stop = await runCli(['emulator', 'stop'], { sandbox });
      expect(stop.code, stop.stderr).toBe(0);
    }
    const log = readFileSync(join(dataDir, 'emulator.log'), 'utf8');
    expect(log).not.toMatch(/Assertion failed|Aborted|SIGABRT|core dumped|FATAL ERROR|Warning:/);
    expect(log.match(/Emulator stopped\./g)).toHaveLength(4);
  });
});
