/**
 * The one-line error every bad input gets (docs/architecture.md "Output and interaction"), as an assertion: the
 * exit code, nothing on stdout, `error: ...` matching `pattern` on the first stderr line, at most one hint line
 * after it, and no stack trace. The local emulator's "Started the local emulator ..." notice, printed before a
 * first command's error, is not counted.
 */
import { expect } from 'vitest';
import type { CliResult } from './cli.js';

/** Asserts `r` is a one-line error with `code` whose first line matches `pattern`. @returns the stderr lines */
export function expectError(r: CliResult, code: number, pattern: RegExp): string[] {
  expect(r.code, r.stderr).toBe(code);
  expect(r.stdout).toBe('');
  const lines = r.stderr
    .trimEnd()
    .split('\n')
    .filter((l) => !l.startsWith('Started the local'));
  expect(lines[0]).toMatch(/^error: /);
  expect(lines[0]).toMatch(pattern);
  expect(lines.length).toBeLessThanOrEqual(2);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  return lines;
}
