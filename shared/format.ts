import { currencyPrefix, type Currency } from './prices';

/**
 * "1,234,567": what `new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })` prints for a
 * finite number (halves away from zero), without Intl. The browser's first Intl formatter loads its
 * locale data, 10–30 ms of main-thread time on a phone before the home can respond, to print
 * digits and commas (docs/decisions/017-server-rendering.md).
 */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const digits = String(Math.round(Math.abs(n)));
  const grouped = digits.replace(/\B(?=(\d{3})+$)/g, ',');
  return n < 0 || Object.is(n, -0) ? `-${grouped}` : grouped;
}

/** "US$1,250" / "J$15,200" (product rule). */
export function formatMoney(amount: number, currency: Currency | string): string {
  const prefix = currencyPrefix(currency);
  return `${prefix}${formatNumber(amount)}`;
}

/**
 * Money in minor units (cents): "J$12.34", and "US$30" when there are no cents, so whole amounts
 * read as everywhere else on the site.
 */
export function formatMinor(minor: number, currency: Currency | string): string {
  const prefix = currencyPrefix(currency);
  const whole = Math.round(minor);
  const sign = whole < 0 ? '-' : '';
  const abs = Math.abs(whole);
  const cents = abs % 100;
  const units = formatNumber((abs - cents) / 100);
  return `${sign}${prefix}${units}${cents ? `.${String(cents).padStart(2, '0')}` : ''}`;
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "3 minutes ago", "less than a minute ago" (the spec's "x ago"). */
export function timeAgo(iso: string | Date, now: Date = new Date()): string {
  const then = typeof iso === 'string' ? new Date(iso) : iso;
  const seconds = Math.max(0, Math.round((now.getTime() - then.getTime()) / 1000));
  for (const [unit, size] of UNITS) {
    const value = Math.floor(seconds / size);
    if (value >= 1) return `${value} ${unit}${value === 1 ? '' : 's'} ago`;
  }
  return 'less than a minute ago';
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "2025-01-05" -> "Jan 5, 2025", read as a calendar date (no time-zone shift). */
export function formatDeliveryDate(ymd: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(ymd);
  if (!m) return ymd;
  return `${MONTHS[Number(m[2]) - 1]} ${Number(m[3])}, ${m[1]}`;
}

/** The privacy rule: an anonymous pledge shows as "Anonymous" wherever the public sees it. */
export function pledgeDisplayName(pledge: { name: string; isAnonymous: boolean }): string {
  return pledge.isAnonymous ? 'Anonymous' : pledge.name;
}
