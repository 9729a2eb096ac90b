/**
 * How the hosted checkout pages write amounts and moments (src/emulator/checkout-page/html.ts): one format for
 * every amount (the currency's minor digits, grouped, then the code), days and times in the site's time zone,
 * the zone named. Fixed instants: the same verdict at any hour and in any zone of the machine.
 */
import { describe, expect, it } from 'vitest';
import { currencyDigits } from '../../../src/api/currencies.js';
import { dayText, momentText, moneyText, termsText, trialDue, trialDueText } from '../../../src/emulator/checkout-page/html.js';

describe('checkout page text', () => {
  it('writes every amount with the minor digits of its currency, grouped, then the code', () => {
    expect(moneyText('49', 'USD')).toBe('49.00 USD');
    expect(moneyText('44.1', 'USD')).toBe('44.10 USD');
    expect(moneyText(0, 'USD')).toBe('0.00 USD');
    expect(moneyText('1200.5', 'EUR')).toBe('1,200.50 EUR');
    expect(moneyText('4900', 'JPY')).toBe('4,900 JPY');
    expect(moneyText('1.5', 'KWD')).toBe('1.500 KWD');
    expect([currencyDigits('USD'), currencyDigits('JPY'), currencyDigits('KWD'), currencyDigits('ZZZ')]).toEqual([2, 0, 3, 2]);
    expect(termsText({ subscription: { cycleDuration: { count: 1, unit: 'MONTH' }, cycleCount: 0 }, freeTrialDays: 7 }, '49', 'USD')).toBe('49.00 USD every month until canceled; 7-day free trial first');
    expect(termsText({ singlePaymentForDuration: { count: 3, unit: 'MONTH' } }, '120', 'USD')).toBe('120.00 USD once, for 3 months');
  });

  it("writes days and moments on the site's clock, the zone named", () => {
    // 05:00 UTC on Nov 25 is still Nov 24 in San Francisco.
    const late = Date.parse('2026-11-25T05:00:00Z');
    expect(dayText(late, 'America/Los_Angeles')).toBe('Nov 24, 2026');
    expect(dayText(late, 'UTC')).toBe('Nov 25, 2026');
    expect(momentText(late, 'America/Los_Angeles')).toMatch(/^Nov 24, 2026, 9:00\sPM Pacific Standard Time$/);
    expect(momentText(Date.parse('2026-07-01T12:30:00Z'), 'Europe/London')).toMatch(/^Jul 1, 2026, 1:30\sPM British Summer Time$/);
  });

  it("words a free trial's prices from the trial's end, in the site's days, each amount in the one format", () => {
    const price = (total: string) => ({ subtotal: total, discount: '0', total, currency: 'USD' });
    const due = trialDue([{ duration: { cycleFrom: 1, numberOfCycles: 1 }, price: price('24.5') }, { duration: { cycleFrom: 2 }, price: price('49') }] as never, { count: 1, unit: 'MONTH' }, Date.parse('2026-12-02T06:00:00Z'), 'America/Los_Angeles');
    expect(trialDueText(due)).toBe('Due today 0.00 USD, then 24.50 USD on Dec 1, 2026, then 49.00 USD every month');
  });
});
