/**
 * Flag values that are one of a fixed set (`--status`, `--type`, `--format`, `--at`, ...): checked before any
 * request, the one way for every flag (docs/architecture.md "Safety rules"), with the same "did you mean" a misspelt `--where` field or
 * enumeration value gets (`--status CONFIRMD`: `did you mean "CONFIRMED"?`) and the values listed.
 */
import { currencyCodes, isCurrency } from '../../api/currencies.js';
import { suggest } from '../../api/schemas/introspect.js';
import { UserError } from '../../core/errors.js';

/** How a value is compared with the allowed ones (default: upper-cased, as the platform's enumerations). */
export type Fold = (value: string) => string;
const UPPER: Fold = (v) => v.trim().toUpperCase();

/**
 * `raw` as one of `allowed` (after `fold`).
 * @param flag the flag for the message, e.g. `--status`
 * @param opts.fold how the user's text is normalised before comparing (default: trimmed, upper-cased)
 * @throws UserError (exit 2) `--type: unknown value 'CLAS'; did you mean "CLASS"?`, with the values in the hint
 */
export function choiceOf<T extends string>(raw: string, allowed: readonly T[], flag: string, opts: { fold?: Fold } = {}): T {
  const value = (opts.fold ?? UPPER)(raw);
  if ((allowed as readonly string[]).includes(value)) return value as T;
  const guess = suggest(value, allowed);
  throw new UserError(`${flag}: unknown value '${raw}'${guess ? `; did you mean "${guess}"?` : ''}`, `use ${allowed.join(', ')}`);
}

/**
 * A comma-separated list of values, each one of `allowed` (blanks dropped, duplicates kept once).
 * @throws UserError (exit 2) for an empty list or an unknown value, as {@link choiceOf}
 */
export function choicesOf<T extends string>(raw: string, allowed: readonly T[], flag: string, opts: { fold?: Fold } = {}): T[] {
  const parts = raw.split(',').filter((s) => s.trim() !== '');
  if (parts.length === 0) throw new UserError(`${flag} is empty`, `use ${allowed.join(', ')} (comma-separated)`);
  return [...new Set(parts.map((p) => choiceOf(p, allowed, flag, opts)))];
}

/**
 * `raw` as an ISO 4217 currency code (upper-cased), from the bundled table of api/currencies.ts.
 * @param flag how the user gave it, for the message: `--currency`, `catalogue.yaml: services[2].price.currency`
 * @throws UserError (exit 2) `--currency: 'XXQ' is not an ISO 4217 currency code; did you mean "XXX"?`
 */
export function currencyOf(raw: string, flag: string): string {
  const code = raw.trim().toUpperCase();
  if (isCurrency(code)) return code;
  const guess = suggest(code, [...currencyCodes()]);
  throw new UserError(`${flag}: '${raw}' is not an ISO 4217 currency code${guess ? `; did you mean "${guess}"?` : ''}`, 'e.g. USD, EUR, GBP');
}
