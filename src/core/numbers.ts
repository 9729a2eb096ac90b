/**
 * The one parser of numbers given on the command line (docs/architecture.md "Safety rules"): counts (`--limit`, `--participants`,
 * `--count`, `--members`, `--days`, `--concurrency`, ...), durations in seconds (`--timeout`, `--wait`) and
 * amounts of money (`--price`).
 *
 * The rule: a number is written in plain decimal digits. A count is a whole number without sign, leading zero,
 * exponent or base prefix (`16`, `0`; not `0x10`, `1e3`, `010`, `+5`, `16.0`, ` 16`); a decimal may add a
 * fraction (`2.5`); an amount has at most two decimal places (`49.90`). JavaScript's `Number()` reads `0x10` as
 * 16 and `1e3` as 1000, and a leading zero reads as octal to some users: each of those is refused with the form
 * accepted named, never guessed. Every refusal is a UserError (exit 2) naming the flag and the value.
 */
import { UserError } from './errors.js';

const COUNT = /^(0|[1-9]\d*)$/;
const DECIMAL = /^(0|[1-9]\d*)(\.\d+)?$/;
const AMOUNT = /^(0|[1-9]\d{0,11})(\.\d{1,2})?$/;

function range(min: number, max: number): string {
  return max < Number.MAX_SAFE_INTEGER ? `from ${min} to ${max}` : `from ${min}`;
}

/**
 * A count: a whole number in plain decimal digits, from `min` to `max`.
 * @param flag the flag for the message, e.g. `--limit`
 * @throws UserError (exit 2) `--limit must be a whole number from 1, in plain decimal digits (e.g. 16), got '0x10'`
 */
export function parseCount(raw: string, flag: string, min = 1, max = Number.MAX_SAFE_INTEGER): number {
  const n = COUNT.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    const hint = COUNT.test(raw) ? undefined : 'write it in plain decimal digits, without sign, leading zeros, exponent or 0x';
    throw new UserError(`${flag} must be a whole number ${range(min, max)}, in plain decimal digits (e.g. ${Math.max(min, Math.min(max, 16))}), got '${raw}'`, hint);
  }
  return n;
}

/**
 * A decimal number such as `30` or `2.5` (plain decimal digits, an optional fraction; no sign, exponent or
 * leading zero), above `min` (or at least `min` with `inclusive`) and at most `max`. Used for seconds
 * (`--timeout`, `--wait`, `--interval`).
 * @param unit what the number counts, for the message: `seconds`
 * @throws UserError (exit 2) naming the flag, the range and the value
 */
export function parseDecimal(raw: string, flag: string, opts: { min: number; max: number; inclusive?: boolean; unit?: string }): number {
  const n = DECIMAL.test(raw) ? Number(raw) : NaN;
  const low = opts.inclusive ? n >= opts.min : n > opts.min;
  if (!Number.isFinite(n) || !low || n > opts.max) {
    const what = opts.unit ? `a number of ${opts.unit}` : 'a number';
    throw new UserError(`${flag} must be ${what} ${opts.inclusive ? 'from' : 'above'} ${opts.min} ${opts.inclusive ? 'to' : 'and at most'} ${opts.max}, in plain decimal digits (e.g. 30 or 2.5), got '${raw}'`);
  }
  return n;
}

/**
 * An amount of money: plain decimal digits with at most two decimal places (`45`, `45.5`, `45.50`), below
 * 10^12. Returned as the text given, which is how the platform's prices carry amounts.
 * @throws UserError (exit 2) `--price must be an amount like 45 or 45.50, got '4.5e1'`
 */
export function parseAmount(raw: string, flag: string): string {
  if (!AMOUNT.test(raw)) throw new UserError(`${flag} must be an amount like 45 or 45.50 (plain decimal digits, at most two decimals), got '${raw}'`);
  return raw;
}
