import { currencyPrefix, type Currency } from './prices';
import { formatNumber } from './format';

/**
 * "J$12.34" / "US$1,250": an amount in cents (a bank line's), with its cents when it has any, so a
 * transfer of J$12.34 is never shown as J$12.
 */
export function formatCents(cents: number, currency: Currency): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  const whole = formatNumber(Math.floor(abs / 100));
  const rest = abs % 100;
  return `${sign}${currencyPrefix(currency)}${whole}${rest ? `.${String(rest).padStart(2, '0')}` : ''}`;
}
