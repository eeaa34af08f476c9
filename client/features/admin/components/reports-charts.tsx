import { nice, ticks } from 'd3-array';
import { curveStepAfter, line } from 'd3-shape';
import { formatNumber } from '@shared/format';

/**
 * The report's charts: small SVGs drawn with d3-shape's paths and d3-array's axis ticks (5.6 KB
 * gzipped, measured against uPlot and Chart.js in docs/decisions/022-fulfilment-report.md). Each
 * is a picture only: the numbers are in the table next to it, which screen readers and keyboard
 * users read instead.
 */

const W = 640;
const H = 220;
const PAD = { top: 12, right: 12, bottom: 28, left: 64 };
const innerW = W - PAD.left - PAD.right;
const innerH = H - PAD.top - PAD.bottom;

function yAxis(max: number, format: (v: number) => string) {
  const [, top] = nice(0, max > 0 ? max : 1, 4);
  const scale = (v: number) => PAD.top + innerH - (v / top) * innerH;
  // Every plotted number is a count, containers or a whole percent: no tick between integers.
  const marks = ticks(0, top, 4).filter((t) => Number.isInteger(t));
  return {
    scale,
    node: (
      <g className="text-ink-600">
        {marks.map((t) => (
          <g key={t}>
            <line
              x1={PAD.left}
              x2={W - PAD.right}
              y1={scale(t)}
              y2={scale(t)}
              className="stroke-ink-200"
              strokeWidth={1}
            />
            <text
              x={PAD.left - 6}
              y={scale(t)}
              textAnchor="end"
              dominantBaseline="middle"
              className="fill-current text-[11px]"
            >
              {format(t)}
            </text>
          </g>
        ))}
      </g>
    ),
  };
}

export interface LineSeries {
  label: string;
  values: number[];
  /** Tailwind stroke class. */
  className: string;
  dashed?: boolean;
}

/** Cumulative lines over days (a step per day: the totals change on a day, not between days). */
export function StepLineChart({
  title,
  labels,
  series,
  format = formatNumber,
}: {
  title: string;
  labels: string[];
  series: LineSeries[];
  format?: (v: number) => string;
}) {
  const max = Math.max(0, ...series.flatMap((s) => s.values));
  const y = yAxis(max, format);
  const x = (i: number) => PAD.left + (labels.length > 1 ? (i / (labels.length - 1)) * innerW : 0);
  const path = line<number>()
    .x((_, i) => x(i))
    .y((v) => y.scale(v))
    .curve(curveStepAfter);
  const every = Math.max(1, Math.ceil(labels.length / 6));
  return (
    <figure className="grid gap-2">
      <svg viewBox={`0 0 ${W} ${H}`} className="h-auto w-full" role="img" aria-label={title}>
        {y.node}
        {labels.map((l, i) =>
          i % every === 0 || i === labels.length - 1 ? (
            <text
              key={l}
              x={x(i)}
              y={H - 8}
              textAnchor={i === 0 ? 'start' : i === labels.length - 1 ? 'end' : 'middle'}
              className="fill-ink-600 text-[11px]"
            >
              {l}
            </text>
          ) : null,
        )}
        {series.map((s) => (
          <path
            key={s.label}
            d={path(s.values) ?? ''}
            fill="none"
            strokeWidth={2.5}
            strokeDasharray={s.dashed ? '6 4' : undefined}
            className={s.className}
          />
        ))}
      </svg>
      <figcaption className="flex flex-wrap gap-4 text-sm text-ink-700">
        {series.map((s) => (
          <span key={s.label} className="inline-flex items-center gap-2">
            <svg width="24" height="8" aria-hidden="true">
              <line
                x1="0"
                x2="24"
                y1="4"
                y2="4"
                strokeWidth={3}
                strokeDasharray={s.dashed ? '6 4' : undefined}
                className={s.className}
              />
            </svg>
            {s.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

/** One bar per row (a week, an age, a reminder), labelled under it. */
export function BarChart({
  title,
  bars,
  format = formatNumber,
  className = 'fill-brand-600',
}: {
  title: string;
  bars: { label: string; value: number }[];
  format?: (v: number) => string;
  className?: string;
}) {
  const max = Math.max(0, ...bars.map((b) => b.value));
  const y = yAxis(max, format);
  const slot = innerW / Math.max(1, bars.length);
  const width = Math.min(56, slot * 0.7);
  const every = Math.max(1, Math.ceil(bars.length / 8));
  return (
    <svg viewBox={`0 0 ${W} ${H}`} className="h-auto w-full" role="img" aria-label={title}>
      {y.node}
      {bars.map((b, i) => {
        const cx = PAD.left + slot * (i + 0.5);
        const top = y.scale(b.value);
        return (
          <g key={b.label}>
            <rect
              x={cx - width / 2}
              y={top}
              width={width}
              height={Math.max(0, PAD.top + innerH - top)}
              rx={3}
              className={className}
            />
            {i % every === 0 ? (
              <text x={cx} y={H - 8} textAnchor="middle" className="fill-ink-600 text-[11px]">
                {b.label}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}
