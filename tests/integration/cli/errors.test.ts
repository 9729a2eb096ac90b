/**
 * How failures of the platform reach the user: one `error:` line with the request id, an optional hint, and the
 * exit code main.ts maps the error class to (docs/wire.md §4; docs/architecture.md "Output and interaction").
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startTestEmulator, type TestEmulator } from '../../helpers/index.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 5 });
});
afterAll(async () => {
  await emu?.close();
});

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('platform failures', () => {
  it('5xx after the retries: "System error occurred, request-id: ..." once, exit 1', async () => {
    expect((await emu.request('PUT', '/__emulator/faults', { errorRate: 1, errorPhase: 'before', seed: 7 })).status).toBe(200);
    try {
      const r = await runCli(['services', 'count'], { emulator: emu });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      // On a loaded machine a pause of the retries may come once the call has taken 3 s: it is told on a line of its
      // own before the error (no silent wait).
      const lines = r.stderr.trimEnd().split('\n').filter((l) => !/^trying again in [\d.]+ s \(.*, try \d of 4\) - Ctrl-C to stop$/.test(l));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^error: System error occurred, request-id: [\w-]+$/);
    } finally {
      await emu.request('PUT', '/__emulator/faults', { errorRate: 0 });
    }
  });

  it('nothing listening: a system error naming the cause, and a hint, exit 1', async () => {
    const port = await closedPort();
    const r = await runCli(['services', 'count'], {
      emulator: { url: `http://127.0.0.1:${port}`, apiKey: emu.apiKey, siteId: emu.siteId },
    });
    expect(r.code).toBe(1);
    // As above: a pause told on a loaded machine is not part of the error.
    const lines = r.stderr.trimEnd().split('\n').filter((l) => !/^trying again in [\d.]+ s \(.*, try \d of 4\) - Ctrl-C to stop$/.test(l));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^error: System error occurred, request-id: none \(.*ECONNREFUSED.*\)$/);
    expect(lines[1]).toMatch(/^hint: is the server reachable\?/);
  });

  it('a refused key: exit 4 with a hint, and the key is not echoed', async () => {
    const r = await runCli(['services', 'list'], { emulator: { ...emu, apiKey: 'not-the-key' } });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^error: .*\((?:[A-Z_]+, )?request id: [\w-]+\)\nhint: check the API key/);
    expect(r.stderr).not.toContain('not-the-key');
  });

  it('no key at all for a real-platform profile: exit 4 before any request', async () => {
    const r = await runCli(['services', 'list'], { env: { SITECTL_BASE_URL: 'http://127.0.0.1:9' } });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^error: profile 'env' has no API key\nhint: /);
  });
});
