import { campaignGoal, unitPriceCents, type Currency } from './prices';

/** The goal to show and compute with: the stored one, or the campaign's configured one when unset. */
export function goalOrDefault(goal: number | null | undefined): number {
  return goal && goal > 0 ? goal : campaignGoal();
}

/**
 * Containers bought by one pledge: floor(amount / unit price), at the campaign's configured price.
 * Integer cents, never floats: 110 / 0.11 is 999.99… in floating point, the right answer is 1000.
 */
export function containersFor(amount: number, currency: Currency): number {
  if (!Number.isFinite(amount) || amount <= 0) return 0;
  return Math.floor((Math.floor(amount) * 100) / unitPriceCents(currency));
}

/** Share of the goal, floored at 0 and capped at 100 (product rule). */
export function percentComplete(current: number, goal?: number): number {
  const pct = (current / goalOrDefault(goal)) * 100;
  if (!Number.isFinite(pct) || pct < 0) return 0;
  return Math.min(100, pct);
}

/** The pledge dialog's estimate: containers and their share of the goal with 3 decimals. */
export function pledgeEstimate(amount: number, currency: Currency, goal?: number) {
  const containers = containersFor(amount, currency);
  return { containers, percent: ((containers / goalOrDefault(goal)) * 100).toFixed(3) };
}
