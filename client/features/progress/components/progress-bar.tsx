import { useEffect, useState, type CSSProperties } from 'react';
import { PROGRESS_FILL_DELAY_MS } from '@shared/constants';
import { formatNumber } from '@shared/format';
import { Skeleton } from '../../../components/ui/skeleton';
import { Tooltip } from '../../../components/ui/tooltip';
import { deliveredView, progressView, receivedView } from './progress-math';

interface ProgressBarProps {
  currentAmount?: number;
  goalAmount?: number;
  /** Containers of the money received (confirmed payments): the bar's darker part. */
  confirmedAmount?: number;
  /** Containers pledged and not yet received, summed pledge by pledge (the server's). */
  outstandingAmount?: number;
  /** Containers delivered (the delivery updates' counts summed): the received part's darkest part. */
  deliveredAmount?: number;
  isLoading?: boolean;
}

/**
 * Containers pledged against the goal. The fill starts empty
 * and grows after ~100 ms, so a visitor sees the campaign move.
 */
export function ProgressBar({
  currentAmount,
  goalAmount,
  confirmedAmount,
  outstandingAmount,
  deliveredAmount,
  isLoading,
}: ProgressBarProps) {
  if (isLoading || currentAmount === undefined) return <ProgressBarSkeleton />;
  return (
    <LoadedProgressBar
      current={currentAmount}
      goalAmount={goalAmount}
      confirmed={confirmedAmount}
      outstanding={outstandingAmount}
      delivered={deliveredAmount}
    />
  );
}

/** The bar's height (h-7): the narrowest a fill above 0 is drawn. */
const PROGRESS_BAR_HEIGHT = '1.75rem';

function LoadedProgressBar({
  current,
  goalAmount,
  confirmed,
  outstanding,
  delivered,
}: {
  current: number;
  goalAmount?: number;
  confirmed?: number;
  outstanding?: number;
  delivered?: number;
}) {
  const view = progressView(current, goalAmount);
  const money = receivedView(current, confirmed, goalAmount, outstanding);
  const meals = deliveredView(current, confirmed, delivered, goalAmount);
  const [width, setWidth] = useState(0);
  const [receivedWidth, setReceivedWidth] = useState(0);
  const [deliveredWidth, setDeliveredWidth] = useState(0);
  useEffect(() => {
    const timer = setTimeout(() => {
      setWidth(view.percent);
      setReceivedWidth(money.receivedPercent);
      setDeliveredWidth(meals.deliveredPercent);
    }, PROGRESS_FILL_DELAY_MS);
    return () => clearTimeout(timer);
  }, [view.percent, money.receivedPercent, meals.deliveredPercent]);
  const split = `${formatNumber(meals.delivered)} containers delivered · ${formatNumber(money.received)} received · ${formatNumber(money.awaiting)} pledged, not yet received`;

  const label = (
    <span
      data-testid="progress-label"
      className={
        view.labelInside
          ? 'relative px-3 text-sm font-bold text-ink-900 tabular-nums'
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
        <Tooltip content={split}>
          <div
            tabIndex={0}
            aria-describedby="progress-received-text"
            role="progressbar"
            aria-label="Campaign progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Number(view.percent.toFixed(1))}
            aria-valuetext={`${view.percentLabel} of the goal`}
            className="h-7 flex-1 overflow-hidden rounded-full bg-brand-100 ring-1 ring-brand-200 ring-inset"
          >
            {/* Moved, not resized: a transform animates on the compositor without re-layout. The
              whole fill is what was pledged (light); its received part (dark) moves inside it,
              by the difference, so it ends at receivedWidth on the track. */}
            <div
              data-testid="progress-fill"
              data-percent={width}
              className="fill-end relative flex h-full w-full items-center justify-end rounded-full bg-sun-300 transition-transform duration-1000 ease-out"
              style={fill(endAt(width), endAt(view.percent))}
            >
              <div
                data-testid="progress-received"
                data-percent={receivedWidth}
                aria-hidden="true"
                className="fill-end absolute inset-0 rounded-full bg-gradient-to-r from-brand-600 to-brand-700 transition-transform duration-1000 ease-out"
                style={fill(
                  `calc(${endAt(receivedWidth)} - ${endAt(width)})`,
                  `calc(${endAt(money.receivedPercent)} - ${endAt(view.percent)})`,
                )}
              >
                {/* The third stage: what was delivered, a part of what was received. */}
                <div
                  data-testid="progress-delivered"
                  data-percent={deliveredWidth}
                  className="fill-end absolute inset-0 rounded-full bg-brand-900 transition-transform duration-1000 ease-out"
                  style={fill(
                    `calc(${endAt(deliveredWidth)} - ${endAt(receivedWidth)})`,
                    `calc(${endAt(meals.deliveredPercent)} - ${endAt(money.receivedPercent)})`,
                  )}
                />
              </div>
              {view.labelInside ? label : null}
            </div>
          </div>
        </Tooltip>
        {view.labelInside ? null : label}
      </div>

      {/* On phones the legend is for screen readers only (the bar's tooltip has the numbers):
          it would push the Pledge Now button below the first screen at 360 x 740. */}
      <p
        id="progress-received-text"
        className="sr-only flex flex-wrap gap-x-4 gap-y-1 text-xs text-ink-700 sm:not-sr-only sm:mt-2"
      >
        <span className="inline-flex items-center gap-1.5">
          <span aria-hidden="true" className="h-2.5 w-2.5 rounded-full bg-brand-900" />
          {formatNumber(meals.delivered)} delivered
        </span>
        <span className="inline-flex items-center gap-1.5">
          <span aria-hidden="true" className="h-2.5 w-2.5 rounded-full bg-brand-700" />
          {formatNumber(money.received)} received
        </span>
        <span className="inline-flex items-center gap-1.5">
          <span
            aria-hidden="true"
            className="h-2.5 w-2.5 rounded-full bg-sun-300 ring-1 ring-sun-500"
          />
          {formatNumber(money.awaiting)} pledged, not yet received
        </span>
      </p>

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

/** Below this percentage a fill may be narrower than the bar is high (a 280 px bar at 10 %). */
const SMALL_FILL_PERCENT = 10;

/**
 * Where a fill ends, as the translateX of an element as wide as the bar: -100% is empty, 0% full.
 * A campaign's first days are a fraction of a percent: a fill of a few pixels, inside the bar's
 * rounded end, showed nothing at all, as if no one had pledged. So a small fill ends at least a
 * round dot's width (the bar's height) in. The numbers (the label, aria-valuenow, data-percent)
 * stay exact.
 */
function endAt(percent: number): string {
  if (percent <= 0) return '-100%';
  const end = `${percent - 100}%`;
  return percent < SMALL_FILL_PERCENT ? `max(${end}, -100% + ${PROGRESS_BAR_HEIGHT})` : end;
}

/**
 * A fill's position now, and where it ends (`--fill-end`): without JavaScript the fill cannot grow
 * in, and styles.css shows it at its end instead of empty.
 */
function fill(now: string, end: string): CSSProperties {
  return { transform: `translateX(${now})`, ['--fill-end' as string]: end };
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
