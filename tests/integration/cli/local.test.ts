/**
 * With nothing configured, the default profile `local` starts the emulator in the background on first use and
 * says so once on stderr; `sitectl emulator stop` stops it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, runCli, type CliSandbox } from '../../helpers/index.js';

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

describe('the local default', () => {
  it('starts the emulator once, reuses it, and stops on request', async () => {
    const dataDir = join(sandbox.dataDir, 'emulator');
    const first = await runCli(['services', 'count'], { sandbox, timeoutMs: 45_000 });
    expect(first.code, first.stderr).toBe(0);
    expect(Number(first.stdout)).toBeGreaterThan(0);
    expect(first.stderr).toMatch(
      new RegExp(`^Started the local emulator at http://127\\.0\\.0\\.1:\\d+ \\(data in ${dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\); stop it with: \\./bin/sitectl\\.js emulator stop\\n$`),
    );
    expect(existsSync(join(dataDir, 'admin-key.json'))).toBe(true);

    const second = await runCli(['services', 'list', '--limit', '2', '--json', 'id'], { sandbox });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toBe('');
    expect(JSON.parse(second.stdout)).toHaveLength(2);

    const show = JSON.parse((await runCli(['profile', 'show', '--json'], { sandbox })).stdout);
    expect(show).toMatchObject({ name: 'local', source: 'local', credential: 'apiKey', secretStoredIn: join(dataDir, 'admin-key.json') });
    expect(show.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const stop = await runCli(['emulator', 'stop'], { sandbox });
    expect(stop.code, stop.stderr).toBe(0);
    const after = JSON.parse((await runCli(['profile', 'show', '--json'], { sandbox })).stdout);
    expect(after.baseUrl).toBe('(local emulator, not running)');
  });
});
