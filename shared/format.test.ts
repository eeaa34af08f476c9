import { describe, expect, it } from 'vitest';
import { formatDeliveryDate, formatMoney, formatNumber, timeAgo } from './format';

describe('formatMoney (thousands separators, US$ or J$)', () => {
  it.each([
    [1250, 'USD', 'US$1,250'],
    [15200, 'JMD', 'J$15,200'],
    [1, 'USD', 'US$1'],
    [1_000_000_000, 'JMD', 'J$1,000,000,000'],
    [0, 'USD', 'US$0'],
  ] as const)('%d %s -> %s', (amount, currency, text) => {
    expect(formatMoney(amount, currency)).toBe(text);
  });

  it('uses J$ for anything that is not USD (product rule: "US$ for USD, otherwise J$")', () => {
    expect(formatMoney(5, 'XYZ')).toBe('J$5');
  });
});

describe('formatNumber', () => {
  it('groups thousands', () => {
    expect(formatNumber(500_000)).toBe('500,000');
    expect(formatNumber(-1234)).toBe('-1,234');
  });

  it('prints what Intl en-US with no fraction digits prints, without loading Intl', () => {
    const intl = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
    const values = [0, 1, 9, 10, 999, 1000, 1001, 12_345.5, 99_999.49, 100_000, 1_000_000_000];
    for (const v of [...values, ...values.map((x) => -x), 0.4, -0.4, 2.5, -2.5, 1e15 + 2])
      expect(formatNumber(v), String(v)).toBe(intl.format(v));
  });
});

describe('timeAgo', () => {
  const now = new Date('2025-06-01T12:00:00Z');
  const ago = (ms: number) => timeAgo(new Date(now.getTime() - ms).toISOString(), now);
  it.each([
    [0, 'less than a minute ago'],
    [59_000, 'less than a minute ago'],
    [60_000, '1 minute ago'],
    [3 * 60_000, '3 minutes ago'],
    [3600_000, '1 hour ago'],
    [5 * 3600_000, '5 hours ago'],
    [24 * 3600_000, '1 day ago'],
    [8 * 24 * 3600_000, '1 week ago'],
    [31 * 24 * 3600_000, '1 month ago'],
    [400 * 24 * 3600_000, '1 year ago'],
  ])('%d ms -> %s', (ms, text) => {
    expect(ago(ms)).toBe(text);
  });

  it('never says "in the future" for a clock slightly ahead', () => {
    expect(timeAgo(new Date(now.getTime() + 5000), now)).toBe('less than a minute ago');
  });
});

describe('formatDeliveryDate', () => {
  it.each([
    ['2025-01-05', 'Jan 5, 2025'],
    ['2024-12-31', 'Dec 31, 2024'],
    ['2025-02-01', 'Feb 1, 2025'],
  ])('%s -> %s', (ymd, text) => {
    expect(formatDeliveryDate(ymd)).toBe(text);
  });

  it('reads the date as a calendar date whatever the time zone', () => {
    // new Date('2025-01-01') is midnight UTC, the evening before in Jamaica (UTC-5).
    expect(formatDeliveryDate('2025-01-01')).toBe('Jan 1, 2025');
  });

  it('leaves anything else as it is', () => {
    expect(formatDeliveryDate('soon')).toBe('soon');
  });
});
