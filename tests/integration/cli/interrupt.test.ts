/** Ctrl-C: the first SIGINT aborts the request in flight and the CLI exits 130 with one line. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startTestEmulator, type TestEmulator } from '../../helpers/index.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 5 });
  const r = await emu.request('PUT', '/__emulator/faults', { latencyMs: 2000 });
  expect(r.status).toBe(200);
});
afterAll(async () => {
  await emu?.close();
});

describe('interrupt', () => {
  it('SIGINT during a request exits 130 with "error: interrupted"', async () => {
    const r = await runCli(['services', 'list', '--debug'], {
      emulator: emu,
      // The trace line is written just before the request goes out, so the signal lands while it waits.
      interruptWhen: ({ stderr }) => stderr.includes('debug: > POST'),
    });
    expect(r.code).toBe(130);
    expect(r.stdout).toBe('');
    const errors = r.stderr.split('\n').filter((l) => l.startsWith('error: '));
    expect(errors).toEqual(['error: interrupted']);
  });
});
