/**
 * `sitectl history` on a terminal at 80 and 120 columns (in process, stdout a TTY of that width, against a real
 * emulator on port 0): the COMMAND column stays, the command shown as `sitectl ...` without the path the CLI was
 * started by, and a long one shortened from its start (`…members approve ...`), never cut down to the program's
 * path. Piped and JSON output keep the command as it was typed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, makeStudio, runInProcess, startTestEmulator, type CliSandbox, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';

let emu: TestEmulator;
let sandbox: CliSandbox;
const cli = (args: string[], opts: InProcessOptions = {}) => runInProcess(args, { emulator: emu, sandbox, ...opts });
/** The changes' arguments, oldest first; each was run as `./bin/sitectl.js ARGS`. */
const CHANGES = [
  ['services', 'update', '--where', 'type=APPOINTMENT', '--set', 'description=typed on a terminal', '--yes'],
  ['services', 'update', '--filter', '{}', '--set', 'tagLine=x', '-y'],
];

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'empty' });
  sandbox = createCliSandbox();
  const studio = await makeStudio((args, o) => cli(args, o), 'history-table');
  await studio.appointment();
  await studio.appointment();
  for (const args of CHANGES) {
    const r = await cli(args, { bin: './bin/sitectl.js' });
    expect(r.code, r.stderr).toBe(0);
  }
});
afterAll(async () => {
  await emu?.close();
  sandbox?.cleanup();
});

/** The table's header and its rows, newest change first, each split at the COMMAND column's start. */
function table(stdout: string): { header: string; commands: string[] } {
  const [header, ...rows] = stdout.trimEnd().split('\n');
  const at = header!.indexOf('COMMAND');
  expect(at, header).toBeGreaterThan(0);
  return { header: header!, commands: rows.map((r) => r.slice(at).trimEnd()) };
}

describe('history on a terminal', () => {
  it('keeps COMMAND at 80 columns, shortened from its start, and shows it whole at 120 when it fits', async () => {
    const typed = (args: string[]) => `sitectl ${args.map((a) => (/^[\w./:=@%+,-]+$/.test(a) ? a : `'${a}'`)).join(' ')}`;
    const [older, newer] = CHANGES.map(typed) as [string, string];

    // The studio's own changes (staff, services created) are in the history too: only the updates and creates of services are read.
    const narrow = await cli(['history', '--noun', 'services'], { tty: true, columns: 80 });
    expect(narrow.code, narrow.stderr).toBe(0);
    const at80 = table(narrow.stdout);
    for (const line of narrow.stdout.trimEnd().split('\n')) expect([...line].length, line).toBeLessThanOrEqual(80);
    expect(at80.header).toMatch(/^CHANGE +WHEN +CHANGED +FAILED +UNDONE +COMMAND +›$/);
    // The end of each command is kept behind `…` (from the start of a word when that wastes little room); the
    // program's path never shows.
    expect(narrow.stdout).not.toContain('./bin/sitectl.js');
    for (const [shown, command] of [
      [at80.commands[0]!, newer],
      [at80.commands[1]!, older],
    ] as const) {
      expect(shown).toMatch(/^…\S/);
      expect(command.endsWith(shown.slice(1))).toBe(true);
      expect(shown.length).toBeGreaterThanOrEqual(20);
    }
    // (How much of each shows depends on WHEN's width: an age, `12s ago`, grows as the test runs.)
    expect(at80.commands[2]).toBe('sitectl services create --file -');

    const wide = await cli(['history', '--noun', 'services'], { tty: true, columns: 120 });
    expect(wide.code, wide.stderr).toBe(0);
    const at120 = table(wide.stdout);
    expect(at120.header).toMatch(/^CHANGE +WHEN +NOUN +ACTION +CHANGED +(UNCHANGED +)?FAILED +UNDONE +COMMAND +›$/);
    for (const line of wide.stdout.trimEnd().split('\n')) expect([...line].length, line).toBeLessThanOrEqual(120);
    // Each keeps its end, from the start of a word, and more of it than at 80 (whole when it fits beside the
    // columns WHEN's age leaves room for).
    expect(at120.commands[0] === newer || (at120.commands[0]!.startsWith('…') && newer.endsWith(at120.commands[0]!.slice(1)))).toBe(true);
    expect(at120.commands[0]!.length).toBeGreaterThan(at80.commands[0]!.length);
    expect(at120.commands[1]).toMatch(/^…--\S/);
    expect(older.endsWith(at120.commands[1]!.slice(1))).toBe(true);
    expect(at120.commands[1]).toMatch(/--set 'description=typed on a terminal' --yes$/);
    expect(wide.stdout).not.toContain('./bin/sitectl.js');
  });

  it('keeps the command as typed when piped and in JSON', async () => {
    const piped = await cli(['history']);
    expect(piped.stdout.split('\n')[0]!.endsWith("\t./bin/sitectl.js services update --filter '{}' --set tagLine=x -y")).toBe(true);
    const json = JSON.parse((await cli(['history', '--json', 'command'])).stdout) as Array<{ command: string }>;
    expect(json[0]!.command).toBe("./bin/sitectl.js services update --filter '{}' --set tagLine=x -y");
  });
});
