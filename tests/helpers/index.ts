/**
 * Shared test helpers. Typical integration test:
 *
 * ```ts
 * import { startTestEmulator, runCli, type TestEmulator } from '../../helpers/index.js';
 * let emu: TestEmulator;
 * beforeAll(async () => { emu = await startTestEmulator({ seed: 'demo' }); });
 * afterAll(() => emu.close());
 * it('lists', async () => {
 *   const r = await runCli(['services', 'list', '--json'], { emulator: emu });
 *   expect(r.code).toBe(0);
 * });
 * ```
 */
export {
  runCli,
  cliEnv,
  createCliSandbox,
  stripAnsi,
  repoRoot,
  binPath,
  type CliResult,
  type CliSandbox,
  type CliTarget,
  type RunCliOptions,
} from './cli.js';
export { startTestEmulator, type TestEmulator } from './emulator.js';
export { runInProcess, answering, type InProcessOptions } from './inproc.js';
export { makeStudio, type Studio, type StudioSlot, type Runner } from './studio.js';
