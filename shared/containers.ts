import { CAMPAIGN_GOAL, UNIT_PRICE_CENTS, type Currency } from './constants';

/**
 * Containers bought by one pledge: floor(amount / unit price).
 * Integer cents, never floats: 110 / 0.11 is 999.99… in floating point, the right answer is 1000.
 */
export function containersFor(amount: number, currency: Currency): number {
  if (!Number.isFinite(amount) || amount <= 0) return 0;
  return Math.floor((Math.floor(amount) * 100) / UNIT_PRICE_CENTS[currency]);
}

/** Share of the goal, floored at 0 and capped at 100 (DECISIONS 4). */
export function percentComplete(current: number, goal: number = CAMPAIGN_GOAL): number {
  const safeGoal = goal > 0 ? goal : CAMPAIGN_GOAL;
  const pct = (current / safeGoal) * 100;
  if (!Number.isFinite(pct) || pct < 0) return 0;
  return Math.min(100, pct);
}

/** The pledge dialog's estimate: containers and their share of the goal with 3 decimals. */
export function pledgeEstimate(amount: number, currency: Currency, goal: number = CAMPAIGN_GOAL) {
  const containers = containersFor(amount, currency);
  return { containers, percent: ((containers / goal) * 100).toFixed(3) };
}
