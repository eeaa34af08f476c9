import { useEffect, useState } from 'react';
import { PROGRESS_FILL_DELAY_MS } from '../../../../shared/constants';
import { formatNumber } from '../../../../shared/format';
import { Skeleton } from '../../../components/ui/skeleton';
import { progressView } from './progress-math';

interface ProgressBarProps {
  currentAmount?: number;
  goalAmount?: number;
  isLoading?: boolean;
}

/**
 * Containers pledged against the goal (SPEC 2, "Progress bar component"). The fill starts empty
 * and grows after ~100 ms, so a visitor sees the campaign move.
 */
export function ProgressBar({ currentAmount, goalAmount, isLoading }: ProgressBarProps) {
  if (isLoading || currentAmount === undefined) return <ProgressBarSkeleton />;
  return <LoadedProgressBar current={currentAmount} goalAmount={goalAmount} />;
}

function LoadedProgressBar({ current, goalAmount }: { current: number; goalAmount?: number }) {
  const view = progressView(current, goalAmount);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const timer = setTimeout(() => setWidth(view.percent), PROGRESS_FILL_DELAY_MS);
    return () => clearTimeout(timer);
  }, [view.percent]);

  const label = (
    <span
      data-testid="progress-label"
      className={
        view.labelInside
          ? 'px-3 text-sm font-bold text-white tabular-nums'
          : 'shrink-0 text-sm font-bold text-brand-800 tabular-nums'
      }
    >
      {view.percentLabel}
    </span>
  );

  return (
    <div data-label-position={view.labelInside ? 'inside' : 'outside'}>
      <p className="flex flex-wrap items-baseline gap-x-2">
        <span className="text-4xl font-extrabold tracking-tight text-ink-900 tabular-nums sm:text-5xl">
          {formatNumber(Math.max(0, current))}
        </span>
        <span className="text-base font-semibold text-ink-700">containers pledged</span>
      </p>
      <p className="mt-1 text-sm text-ink-600">
        of a <strong className="font-semibold text-ink-800">{formatNumber(view.goal)}</strong>{' '}
        container goal
      </p>

      <div className="mt-4 flex items-center gap-3">
        <div
          role="progressbar"
          aria-label="Campaign progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Number(view.percent.toFixed(1))}
          aria-valuetext={`${view.percentLabel} of the goal`}
          className="h-7 flex-1 overflow-hidden rounded-full bg-brand-100 ring-1 ring-brand-200 ring-inset"
        >
          {/* Moved, not resized: a transform animates on the compositor without re-layout. */}
          <div
            data-testid="progress-fill"
            data-percent={width}
            className="flex h-full w-full items-center justify-end rounded-full bg-gradient-to-r from-brand-600 to-brand-700 transition-transform duration-1000 ease-out"
            style={{ transform: `translateX(${width - 100}%)` }}
          >
            {view.labelInside ? label : null}
          </div>
        </div>
        {view.labelInside ? null : label}
      </div>

      <p className="mt-3 text-sm text-ink-700">
        <strong className="font-semibold text-ink-900 tabular-nums">
          {formatNumber(view.remaining)}
        </strong>{' '}
        containers remaining ·{' '}
        <strong className="font-semibold text-ink-900 tabular-nums">
          {formatNumber(view.remaining)}
        </strong>{' '}
        meals still to serve
      </p>
    </div>
  );
}

function ProgressBarSkeleton() {
  return (
    <div data-testid="progress-skeleton" aria-busy="true" aria-label="Loading campaign progress">
      <Skeleton className="h-12 w-56" />
      <Skeleton className="mt-2 h-4 w-40" />
      <Skeleton className="mt-4 h-7 w-full rounded-full" />
      <Skeleton className="mt-3 h-4 w-64" />
    </div>
  );
}
