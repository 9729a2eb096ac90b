/**
 * ISO 4217 currency codes, from a bundled table (the `currency-codes` package, the ISO list of 2024-06-25), not
 * the runtime's ICU list (`Intl.supportedValuesOf('currency')`), which differs between Node versions and
 * builds. Used by the CLI (plans, prices, catalogue files) and the emulator alike, so both accept the same codes.
 */
import { code as lookup, codes } from 'currency-codes';

let table: ReadonlySet<string> | undefined;

/** Every active ISO 4217 code (`USD`, `EUR`, `XAU`, ...), upper case. */
export function currencyCodes(): ReadonlySet<string> {
  table ??= new Set(codes());
  return table;
}

/** True when `code` is an ISO 4217 code, exactly as written (upper case). */
export function isCurrency(code: string): boolean {
  return currencyCodes().has(code);
}

/**
 * The digits of `code`'s minor unit, from the same table: 2 for USD and EUR, 0 for JPY (and units without a minor
 * unit, such as XAU), 3 for KWD; 2 for a code the table does not know.
 */
export function currencyDigits(code: string): number {
  const digits = lookup(code)?.digits;
  return typeof digits === 'number' && Number.isInteger(digits) && digits >= 0 ? digits : 2;
}
