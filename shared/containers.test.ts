import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { containersFor, percentComplete, pledgeEstimate } from './containers';

describe('containersFor (integer cents, never floats)', () => {
  it.each([
    [110, 'USD', 1000],
    [1, 'USD', 9],
    [11, 'USD', 100],
    [100, 'USD', 909],
    [0.11 * 100, 'USD', 100],
    [1672, 'JMD', 100],
    [16, 'JMD', 0],
    [17, 'JMD', 1],
    [15200, 'JMD', 909],
    [1_000_000_000, 'USD', 9_090_909_090],
    [1_000_000_000, 'JMD', 59_808_612],
  ] as const)('%d %s -> %d', (amount, currency, containers) => {
    expect(containersFor(amount, currency)).toBe(containers);
  });

  it('answers 0 for nothing, negatives and non-numbers', () => {
    for (const v of [0, -1, -110, NaN, Infinity, -Infinity]) {
      expect(containersFor(v, 'USD')).toBe(0);
      expect(containersFor(v, 'JMD')).toBe(0);
    }
  });

  it('equals floor(amount * 100 / cents) for every whole amount up to the maximum', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000_000 }), (amount) => {
        expect(containersFor(amount, 'USD')).toBe(Number((BigInt(amount) * 100n) / 11n));
        expect(containersFor(amount, 'JMD')).toBe(Number((BigInt(amount) * 100n) / 1672n));
      }),
    );
  });

  it('never decreases as the amount grows', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999_999_999 }), (a) => {
        expect(containersFor(a + 1, 'USD')).toBeGreaterThanOrEqual(containersFor(a, 'USD'));
        expect(containersFor(a + 1, 'JMD')).toBeGreaterThanOrEqual(containersFor(a, 'JMD'));
      }),
    );
  });
});

describe('percentComplete (floored at 0, capped at 100)', () => {
  it.each([
    [0, 500_000, 0],
    [250_000, 500_000, 50],
    [500_000, 500_000, 100],
    [750_000, 500_000, 100],
    [-5, 500_000, 0],
    [1000, undefined, 0.2],
    [5, 10, 50],
  ])('%d of %s -> %d', (current, goal, pct) => {
    expect(percentComplete(current, goal)).toBeCloseTo(pct, 10);
  });

  it('falls back to the 500,000 goal for a goal of 0 or below', () => {
    expect(percentComplete(250_000, 0)).toBe(50);
    expect(percentComplete(250_000, -1)).toBe(50);
  });

  it('always lies in [0, 100]', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer(), (current, goal) => {
        const p = percentComplete(current, goal);
        expect(p).toBeGreaterThanOrEqual(0);
        expect(p).toBeLessThanOrEqual(100);
      }),
    );
  });
});

describe('pledgeEstimate (the pledge dialog)', () => {
  it('gives containers and the share of the goal with 3 decimals', () => {
    expect(pledgeEstimate(100, 'USD')).toEqual({ containers: 909, percent: '0.182' });
    expect(pledgeEstimate(15200, 'JMD')).toEqual({ containers: 909, percent: '0.182' });
    expect(pledgeEstimate(0, 'USD')).toEqual({ containers: 0, percent: '0.000' });
    expect(pledgeEstimate(55_000, 'USD')).toEqual({ containers: 500_000, percent: '100.000' });
  });
});
