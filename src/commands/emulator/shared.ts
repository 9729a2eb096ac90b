/** Flag parsing shared by the `sitectl emulator` verbs. */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UserError } from '../../core/errors.js';
import type { Context } from '../../context.js';
import { choiceOf } from '../shared/choices.js';
import { parseCount, parseDecimal } from '../../core/numbers.js';
import { defaultDataDir } from '../../local/daemon.js';

/**
 * `--data-dir` made absolute, else the default data dir (contracts.md "Files and environment").
 * @throws UserError (exit 2) when the path exists and is not a directory (a file given by mistake)
 */
export function dataDirOf(opts: { dataDir?: string }, ctx: Pick<Context, 'env'>): string {
  const dir = opts.dataDir ? resolve(opts.dataDir) : defaultDataDir(ctx.env);
  let isDir = true;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    // Not there yet: `start` makes it; the others say no emulator runs there.
  }
  if (!isDir) throw new UserError(`the emulator data dir ${dir} is not a directory`, 'pass --data-dir (or set SITECTL_DATA_DIR) to a directory');
  return dir;
}

/**
 * Parses a numeric flag value. @throws UserError (exit 2) naming the flag when the value is not a number in
 * [min, max] (or not an integer when `integer`).
 */
export function numberFlag(value: string | undefined, flag: string, min: number, max: number, integer = false): number | undefined {
  if (value === undefined) return undefined;
  return integer ? parseCount(value, flag, min, max) : parseDecimal(value, flag, { min, max, inclusive: true });
}

/** Validates `--seed`. @throws UserError (exit 2) for anything but demo or empty. */
export function seedFlag(value: string | undefined): 'demo' | 'empty' | undefined {
  if (value === undefined) return undefined;
  return choiceOf(value, ['demo', 'empty'] as const, '--seed', { fold: (v) => v.trim().toLowerCase() });
}
