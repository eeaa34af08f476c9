import { PROGRESS_LABEL_INSIDE_ABOVE } from '../../../../shared/constants';
import { goalOrDefault, percentComplete } from '../../../../shared/containers';

export interface ProgressView {
  /** 0..100, for the bar's width. */
  percent: number;
  /** One decimal, capped at 100: "24.7%". */
  percentLabel: string;
  goal: number;
  remaining: number;
  /** SPEC 9: the label sits inside the bar above 8 percent, else outside it. */
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
