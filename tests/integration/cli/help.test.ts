/**
 * Help text as a person reads it (docs/architecture.md "Output and interaction"): every noun's help ends with
 * examples that run as printed against the emulator's demo data, also when the data was seeded a month ago (every
 * help's examples at any hour: examples.test.ts), no help anywhere leaks a Commander default (`(default: [])`,
 * `(default: "4")`, `(default: false)`), and help piped is wrapped at 80 columns.
 */
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../../src/context.js';
import { createProgram } from '../../../src/program.js';
import { argvOf, helpExamples } from '../../helpers/examples.js';
import { createCliSandbox, runInProcess, startTestEmulator, type CliSandbox, type TestEmulator } from '../../helpers/index.js';

const NOUNS = ['services', 'bookings', 'msb', 'staff', 'members', 'plans', 'orders', 'checkout', 'auth', 'availability', 'emulator', 'profile'];

let emu: TestEmulator;
/** The same demo data with the emulator's clock 31 days ahead: examples must not depend on a fixed date. */
let later: TestEmulator;
let sandbox: CliSandbox;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo' });
  later = await startTestEmulator({ seed: 'demo' });
  expect((await later.request('PUT', '/__emulator/clock', { advance: '31d' })).status).toBe(200);
  sandbox = createCliSandbox();
});
afterAll(async () => {
  await emu?.close();
  await later?.close();
  if (sandbox) {
    await runInProcess(['emulator', 'stop'], { sandbox });
    sandbox.cleanup();
  }
});

describe('help', () => {
  it.each(NOUNS)('%s --help ends with examples, and each runs as printed on the demo data, today and 31 days on', async (noun) => {
    const help = await runInProcess([noun, '--help']);
    expect(help.code).toBe(0);
    const examples = helpExamples(help.stdout, noun).map((e) => e.line);
    expect(examples.length, help.stdout).toBeGreaterThan(0);
    // The emulator's examples act on the sandbox's local emulator, which the first command starts (as on a new machine).
    if (noun === 'emulator') expect((await runInProcess(['services', 'count'], { sandbox })).code).toBe(0);
    for (const example of examples) {
      // The emulator's own verbs act on the local emulator of the sandbox; the others on the test emulators, today
      // and with the emulator's clock 31 days ahead.
      for (const target of noun === 'emulator' ? [undefined] : [emu, later]) {
        const r = await runInProcess(argvOf(example), target ? { emulator: target, sandbox } : { sandbox });
        expect(r.code, `${example}${target === later ? ' (clock +31 days)' : ''}\n${r.stderr}`).toBe(0);
      }
    }
  });

  it('leaks no Commander default anywhere, and wraps at 80 columns when piped', async () => {
    const { ctx } = createContext({ env: { ...process.env, COLUMNS: '80' } });
    const program = await createProgram(ctx, [], { allNouns: true });
    const leaks: string[] = [];
    const wide: string[] = [];
    const walk = (cmd: Command, path: string[]): void => {
      const text = cmd.helpInformation();
      for (const line of text.split('\n')) {
        if (/\(default: (\[|"|false|true|\d)/.test(line)) leaks.push(`${path.join(' ')}: ${line.trim()}`);
      }
      // A line may run long only where a single word is longer than the room left (a URL, a long flag list).
      for (const line of text.split('\n')) if (line.length > 80 && line.trim().includes(' ')) wide.push(`${path.join(' ')}: ${line}`);
      for (const sub of cmd.commands) walk(sub, [...path, sub.name()]);
    };
    walk(program, ['sitectl']);
    expect(leaks).toEqual([]);
    expect(wide).toEqual([]);
  });

  it("a noun's and a verb's help show the program's flags they inherit", async () => {
    for (const argv of [['services', '--help'], ['bookings', 'list', '--help'], ['help', 'members', 'approve']]) {
      const help = await runInProcess(argv);
      expect(help.code, argv.join(' ')).toBe(0);
      const global = help.stdout.slice(help.stdout.indexOf('Global Options:'));
      expect(global, argv.join(' ')).toMatch(/^Global Options:\n(.*\n)*\s+--profile <name>/);
      expect(global, argv.join(' ')).toMatch(/--site <id\|name>/);
    }
  });
});

