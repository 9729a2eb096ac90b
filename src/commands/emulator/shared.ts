/** Flag parsing shared by the `sitectl emulator` verbs. */
import { resolve } from 'node:path';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
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
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n))) {
    throw new UserError(`${flag} must be ${integer ? 'an integer' : 'a number'} between ${min} and ${max}, got '${value}'`);
  }
  return n;
}

/** Validates `--seed`. @throws UserError (exit 2) for anything but demo or empty. */
export function seedFlag(value: string | undefined): 'demo' | 'empty' | undefined {
  if (value === undefined) return undefined;
  if (value !== 'demo' && value !== 'empty') throw new UserError(`--seed must be demo or empty, got '${value}'`);
  return value;
}
