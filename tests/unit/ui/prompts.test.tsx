/**
 * The confirm and hidden-entry prompts (renderConfirm, renderSecret) drawn through fake terminal streams at 80, 50
 * and 40 columns: the question is wrapped whole on its own lines (`? `, then a hanging indent of two) and the
 * choices or the entry come on the line below it, never beside it; the answer keeps the question whole. Waits
 * for frame content, never fixed time.
 */
import '../../helpers/ink-without-ci.js';
import { describe, expect, it } from 'vitest';
import { FakeStdin, FakeStdout, untilFrame } from '../../helpers/ink-streams.js';
import { renderConfirm, renderSecret } from '../../../src/ui/index.js';


const QUESTION = 'Undo change 0841fa (services update) on 18 services, put back as they were before the change?';
const SECRET = 'Verification code sent to maximiliana.featherstone@example.com:';

function terminal(columns: number) {
  const stdout = new FakeStdout();
  stdout.columns = columns;
  const stdin = new FakeStdin();
  return { stdout, stdin, streams: { stdout: stdout as unknown as NodeJS.WriteStream, stdin: stdin as unknown as NodeJS.ReadStream } };
}

/** The lines of `frame` from the one starting `mark` to the one before `below`, checked and read back as one text. */
function question(frame: string, mark: string, below: RegExp, width: number): { text: string; lines: number; next: string } {
  const lines = frame.replace(/\n+$/, '').split('\n');
  for (const line of lines) expect([...line.trimEnd()].length, line).toBeLessThanOrEqual(width);
  const start = lines.findIndex((l) => l.startsWith(`${mark} `));
  const end = lines.findIndex((l, i) => i > start && below.test(l));
  expect(start, frame).toBeGreaterThanOrEqual(0);
  expect(end, frame).toBeGreaterThan(start);
  for (const line of lines.slice(start + 1, end)) expect(line, frame).toMatch(/^ {2}\S/);
  return { text: lines.slice(start, end).map((l) => l.slice(2).trim()).join(' '), lines: end - start, next: lines[end]! };
}

describe('prompts at narrow widths', () => {
  for (const width of [80, 50, 40]) {
    it(`confirm at ${width} columns: the question whole above Yes / No, the answer after the whole question`, async () => {
      const t = terminal(width);
      const answer = renderConfirm({ message: QUESTION, defaultValue: false, ...t.streams });
      const frame = await untilFrame(t.stdout, (f) => /Yes {2}\/ {2}No/.test(f), 'the choices');
      const asked = question(frame, '?', /^ +Yes {2}\/ {2}No/, width);
      expect(asked.text).toBe(QUESTION);
      expect(asked.lines).toBeGreaterThan(1);
      expect(asked.next).toMatch(/^ {3}Yes {2}\/ {2}No/);
      expect(frame).toContain('(y/n, Enter to choose)');
      t.stdin.write('y');
      expect(await answer).toBe(true);
      const done = question(`${t.stdout.last.trimEnd()}\n.`, '✓', /^\.$/, width);
      expect(done.text).toBe(`${QUESTION} yes`);
    });

    it(`hidden entry at ${width} columns: the question whole, the entry on the line below it`, async () => {
      const t = terminal(width);
      const value = renderSecret({ message: SECRET, ...t.streams });
      const empty = await untilFrame(t.stdout, (f) => f.includes('(hidden; Enter when done)'), 'the hint');
      const asked = question(empty, '?', /^ {2}\(hidden/, width);
      expect(asked.text).toBe(SECRET);
      expect(asked.next).toBe('  (hidden; Enter when done)');
      t.stdin.write('123456');
      const typed = await untilFrame(t.stdout, (f) => f.includes('******'), 'the mask');
      expect(question(typed, '?', /^ {2}\*/, width).next.trimEnd()).toBe('  ******');
      expect(typed).not.toContain('123456');
      t.stdin.write('\r');
      expect(await value).toBe('123456');
      expect(question(`${t.stdout.last.trimEnd()}\n.`, '✓', /^\.$/, width).text).toBe(`${SECRET} received`);
    });
  }
});
