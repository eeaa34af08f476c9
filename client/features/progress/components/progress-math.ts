import { PROGRESS_LABEL_INSIDE_ABOVE } from '@shared/constants';
import { goalOrDefault, percentComplete } from '@shared/containers';

export interface ProgressView {
  /** 0..100, for the bar's width. */
  percent: number;
  /** One decimal, capped at 100: "24.7%". */
  percentLabel: string;
  goal: number;
  remaining: number;
  /** Product rule: the label sits inside the bar above 8 percent, else outside it. */
  labelInside: boolean;
}

/** The numbers the progress bar shows, from currentAmount and goalAmount (default 500000). */
export function progressView(current: number, goalAmount?: number): ProgressView {
  const goal = goalOrDefault(goalAmount);
  const percent = percentComplete(current, goal);
  return {
    percent,
    percentLabel: `${percent.toFixed(1)}%`,
    goal,
    remaining: Math.max(0, goal - Math.max(0, current)),
    labelInside: percent > PROGRESS_LABEL_INSIDE_ABOVE,
  };
}

export interface ReceivedView {
  /** 0..percent: the received part of the bar (never wider than the whole fill). */
  receivedPercent: number;
  received: number;
  /**
   * Pledged but not yet received: the server's outstandingAmount, summed pledge by pledge, so an
   * overpayment never cancels another donor's debt. Without it (an older server), the difference.
   */
  awaiting: number;
}

/**
 * The bar's two tones (docs/decisions/013-statement-matching.md): confirmedAmount is the received
 * part, the rest of currentAmount is pledged but not yet received. currentAmount keeps its meaning
 * (containers pledged).
 */
export function receivedView(
  current: number,
  confirmed: number | undefined,
  goalAmount?: number,
  outstanding?: number,
): ReceivedView {
  const view = progressView(current, goalAmount);
  // What arrived, overpayments included (the text says so); the bar's received tone never wider
  // than the fill.
  const received = Math.max(0, confirmed ?? 0);
  const shown = Math.min(received, Math.max(0, current));
  return {
    receivedPercent: Math.min(view.percent, percentComplete(shown, view.goal)),
    received,
    awaiting: Math.max(0, outstanding ?? current - shown),
  };
}

/**
 * The third stage: containers delivered, the delivery updates' counts summed. Drawn as a
 * part of the received part (never wider than it); the text keeps the real number.
 */
export function deliveredView(
  current: number,
  confirmed: number | undefined,
  delivered: number | undefined,
  goalAmount?: number,
): { deliveredPercent: number; delivered: number } {
  const view = progressView(current, goalAmount);
  const { receivedPercent } = receivedView(current, confirmed, goalAmount);
  const count = Math.max(0, delivered ?? 0);
  return {
    deliveredPercent: Math.min(receivedPercent, percentComplete(count, view.goal)),
    delivered: count,
  };
}
