/** Flag parsing shared by the `sitectl emulator` verbs. */
import { resolve } from 'node:path';
import type { Context } from '../../context.js';
import { choiceOf } from '../shared/choices.js';
import { parseCount, parseDecimal } from '../../core/numbers.js';
import { defaultDataDir } from '../../local/daemon.js';

/** `--data-dir` made absolute, else the default data dir (contracts.md "Files and environment"). */
export function dataDirOf(opts: { dataDir?: string }, ctx: Pick<Context, 'env'>): string {
  return opts.dataDir ? resolve(opts.dataDir) : defaultDataDir(ctx.env);
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
