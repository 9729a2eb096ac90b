/**
 * Prompts in a real terminal at 120x40, 80x24 and 50x24 (tmux runs the built CLI): the question is wrapped whole on its
 * own lines, `? ` then a hanging indent of two, and the choices (`Yes / No`, or the hidden entry) come on the line
 * below it, never beside it in a narrow column; nothing is cut and no line is wider than the terminal. The
 * answered question stays whole too. Covers the confirm prompt (`members block ID`, `undo --last`) and the hidden
 * entry (`profile add --api-key-stdin`), and SIGHUP (the terminal closing) at a question and in a view. Skipped, with a message, only when tmux is not installed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, makeStudio, runInProcess, startTestEmulator, type CliSandbox, type TestEmulator } from '../helpers/index.js';
import { hasTmux, openTerminal, type Terminal } from '../helpers/tmux.js';

if (!hasTmux) console.warn('tests/e2e/prompts-tty.test.ts: tmux is not installed; skipping the real-terminal tests');

let emu: TestEmulator;
let sandbox: CliSandbox;
let term: Terminal;
/** The file's own member, whose name is long enough to wrap the question at 80 columns. */
let member: string;
const NAME = 'Maximiliana Featherstonehaugh-Worthington';
/** The question `undo --last` asks about the file's own change (one line at 80 columns, two at 50). */
let undoQuestion: string;

const run = (args: string[], o: { input?: string } = {}) => runInProcess(args, { emulator: emu, sandbox, ...o });
beforeAll(async () => {
  if (!hasTmux) return;
  emu = await startTestEmulator({ seed: 'empty' });
  sandbox = createCliSandbox();
  term = openTerminal(sandbox, emu);
  const [first, last] = NAME.split(' ');
  const created = await run(['members', 'create', '--email', 'prompts-tty@example.com', '--first-name', first!, '--last-name', last!]);
  expect(created.code, created.stderr).toBe(0);
  member = created.stdout.trim();
  // A change to undo: the studio's services, each given a description.
  const studio = await makeStudio(run, 'prompts');
  for (let i = 0; i < 3; i++) await studio.appointment();
  const changed = await run(['services', 'update', '--filter', '{}', '--set', 'description=to undo', '--yes']);
  expect(changed.code, changed.stderr).toBe(0);
  const short = JSON.parse((await run(['history', '--json', 'short'])).stdout)[0].short as string;
  undoQuestion = `Undo change ${short} (services update) on 3 services?`;
});
afterAll(async () => {
  if (!hasTmux) return;
  term?.close();
  await emu?.close();
  sandbox?.cleanup();
});

const SIZES = [
  [120, 40],
  [80, 24],
  [50, 24],
] as const;

/**
 * The question's lines on `screen`: from the line `<mark> <first word>` down to the line before the first that
 * matches `below`. Checks the layout the prompts share: the first line starts with the mark and a space, every
 * further line with two spaces then text, no line is wider than `width`, and the lines read back as the whole
 * question. @returns how many lines the question took and the line under it
 */
function checkQuestion(screen: string, mark: string, question: string, width: number, below: RegExp): { lines: number; next: string } {
  const lines = screen.split('\n');
  for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(width);
  const firstWord = question.split(' ')[0]!;
  const start = lines.findIndex((l) => l.startsWith(`${mark} ${firstWord}`));
  expect(start, `no line '${mark} ${firstWord}' on:\n${screen}`).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((l, i) => i > start && below.test(l));
  expect(end, `nothing matching ${below} under the question on:\n${screen}`).toBeGreaterThan(start);
  const asked = lines.slice(start, end);
  for (const line of asked.slice(1)) expect(line, screen).toMatch(/^ {2}\S/);
  expect(asked.map((l) => l.slice(2).trim()).join(' '), screen).toBe(question);
  return { lines: asked.length, next: lines[end]! };
}

describe.skipIf(!hasTmux)('prompts at 120x40, 80x24 and 50x24 (tmux)', () => {
  for (const [width, height] of SIZES) {
    it(`members block ID at ${width}x${height}: the question whole above Yes / No, and whole once answered`, async () => {
      const name = `block${width}`;
      const question = `Block member ${member} (${NAME})?`;
      term.start(name, ['members', 'block', member], { width, height });
      const asking = await term.waitFor(name, /^ +Yes +\/ +No/m);
      // Wider than the terminal, the question wraps; Yes / No is on the line right under it.
      const asked = checkQuestion(asking, '?', question, width, /^ +Yes +\/ +No/);
      // `? ` and the question fit on one line at 120 columns only.
      if (question.length + 2 <= width) expect(asked.lines).toBe(1);
      else expect(asked.lines).toBeGreaterThan(1);
      expect(asked.next).toMatch(/^ {3}Yes {2}\/ {2}No {3}\(y\/n, Enter to choose\)$/);
      term.send(name, 'n');
      const done = await term.waitFor(name, /EXIT=\d+/);
      expect(done).toMatch(/EXIT=1/);
      expect(checkQuestion(done, '✗', `${question} no`, width, /^canceled: nothing was changed/).next).toBe('canceled: nothing was changed');
    });

    it(`members block ID at ${width}x${height}: the terminal closing (SIGHUP) at the question changes nothing and leaves no change in history`, async () => {
      const name = `hup${width}`;
      const before = JSON.parse((await run(['history', '--json', 'id'])).stdout) as unknown[];
      term.start(name, ['members', 'block', member], { width, height });
      await term.waitFor(name, /^ +Yes +\/ +No/m);
      term.kill(name, 'SIGHUP');
      expect(await term.waitFor(name, /EXIT=\d+/)).toMatch(/EXIT=130/);
      expect(JSON.parse((await run(['history', '--json', 'id'])).stdout)).toEqual(before);
      expect(JSON.parse((await run(['members', 'get', member, '--json', 'status'])).stdout).status).toBe('APPROVED');
    });

    it(`browse members at ${width}x${height}: the terminal closing (SIGHUP) ends the view (130) instead of leaving it running`, async () => {
      const name = `hupbrowse${width}`;
      term.start(name, ['browse', 'members'], { width, height });
      await term.waitFor(name, /Maximiliana/);
      term.kill(name, 'SIGHUP');
      expect(await term.waitFor(name, /EXIT=\d+/, 10_000)).toMatch(/EXIT=130/);
    });

    it(`undo --last at ${width}x${height}: the preview, then the question whole above Yes / No`, async () => {
      const name = `undo${width}`;
      term.start(name, ['undo', '--last'], { width, height });
      const asking = await term.waitFor(name, /^ +Yes +\/ +No/m);
      const asked = checkQuestion(asking, '?', undoQuestion, width, /^ +Yes +\/ +No/);
      expect(asked.lines).toBe(width >= 80 ? 1 : 2);
      expect(asked.next).toMatch(/^ {3}Yes {2}\/ {2}No/);
      expect(asking).toMatch(/\(y\/n, Enter to choose\)/);
      term.send(name, 'n');
      const done = await term.waitFor(name, /EXIT=\d+/);
      expect(done).toMatch(/EXIT=1/);
      checkQuestion(done, '✗', `${undoQuestion} no`, width, /^canceled: nothing was changed/);
    });

    it(`the hidden entry at ${width}x${height}: the question whole, the entry on the line below it`, async () => {
      const name = `key${width}`;
      term.start(name, ['profile', 'add', `p${width}`, '--base-url', emu.url, '--site-id', emu.siteId, '--api-key-stdin'], { width, height });
      const empty = await term.waitFor(name, /^\? API key:$/m);
      expect(checkQuestion(empty, '?', 'API key:', width, /^ {2}\(hidden/).next).toBe('  (hidden; Enter when done)');
      term.send(name, '-l', 'k'.repeat(12));
      const typed = await term.waitFor(name, /^ {2}\*{12}$/m);
      expect(checkQuestion(typed, '?', 'API key:', width, /^ {2}\*/).next).toBe(`  ${'*'.repeat(12)}`);
      term.send(name, 'Escape');
      expect(await term.waitFor(name, /EXIT=\d+/)).toMatch(/EXIT=130/);
    });
  }
});
