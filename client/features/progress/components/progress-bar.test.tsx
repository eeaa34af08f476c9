// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReactElement } from 'react';
import { TooltipProvider } from '../../../components/ui/tooltip';
import { ProgressBar } from './progress-bar';
import { progressView } from './progress-math';
import { ProgressTiles } from './progress-tiles';

afterEach(cleanup);

/** The app renders everything inside a TooltipProvider (main.tsx). */
const renderBar = (ui: ReactElement) => render(<TooltipProvider>{ui}</TooltipProvider>);

describe('progressView', () => {
  it('shows one decimal and caps at 100', () => {
    expect(progressView(123_456, 500_000).percentLabel).toBe('24.7%');
    expect(progressView(0, 500_000).percentLabel).toBe('0.0%');
    expect(progressView(750_000, 500_000)).toMatchObject({ percent: 100, percentLabel: '100.0%' });
    expect(progressView(750_000, 500_000).remaining).toBe(0);
  });

  it('floors a negative total at 0 and uses the 500000 goal when none is given', () => {
    expect(progressView(-500)).toMatchObject({ percent: 0, goal: 500_000, remaining: 500_000 });
    expect(progressView(1000, 0).goal).toBe(500_000);
  });

  it('puts the label inside only above 8 percent', () => {
    expect(progressView(40_000, 500_000).labelInside).toBe(false); // exactly 8.0
    expect(progressView(40_500, 500_000).labelInside).toBe(true); // 8.1
    expect(progressView(39_999, 500_000).labelInside).toBe(false);
  });
});

describe('ProgressBar', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('renders pledged, goal, remaining and meals', () => {
    renderBar(<ProgressBar currentAmount={123_456} goalAmount={500_000} />);
    const text = document.body.textContent!;
    expect(text).toContain('123,456');
    expect(text).toContain('containers pledged');
    expect(text).toContain('500,000');
    expect(text).toMatch(/376,544\s*containers remaining/);
    expect(text).toMatch(/376,544\s*meals/);
    expect(screen.getByTestId('progress-label').textContent).toBe('24.7%');
  });

  it('animates the fill from 0 after about 100 ms', () => {
    renderBar(<ProgressBar currentAmount={250_000} goalAmount={500_000} />);
    const fill = screen.getByTestId('progress-fill');
    expect(fill.dataset.percent).toBe('0');
    expect(fill.style.transform).toBe('translateX(-100%)');
    act(() => vi.advanceTimersByTime(99));
    expect(fill.dataset.percent).toBe('0');
    act(() => vi.advanceTimersByTime(1));
    expect(fill.dataset.percent).toBe('50');
    expect(fill.style.transform).toBe('translateX(-50%)');
  });

  it('places the label inside the fill above 8 percent, outside otherwise', () => {
    const { unmount } = renderBar(<ProgressBar currentAmount={50_000} goalAmount={500_000} />);
    let label = screen.getByTestId('progress-label');
    expect(screen.getByTestId('progress-fill').contains(label)).toBe(true);
    expect(label.textContent).toBe('10.0%');
    unmount();

    renderBar(<ProgressBar currentAmount={40_000} goalAmount={500_000} />);
    label = screen.getByTestId('progress-label');
    expect(screen.getByTestId('progress-fill').contains(label)).toBe(false);
    expect(screen.getByRole('progressbar').contains(label)).toBe(false);
    expect(label.textContent).toBe('8.0%');
  });

  it('caps the bar at 100 percent', () => {
    renderBar(<ProgressBar currentAmount={600_000} goalAmount={500_000} />);
    act(() => vi.advanceTimersByTime(100));
    expect(screen.getByTestId('progress-fill').dataset.percent).toBe('100');
    expect(screen.getByTestId('progress-fill').style.transform).toBe('translateX(0%)');
    expect(screen.getByTestId('progress-label').textContent).toBe('100.0%');
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
  });

  it('shows a skeleton while loading', () => {
    renderBar(<ProgressBar isLoading />);
    expect(screen.getByTestId('progress-skeleton').getAttribute('aria-busy')).toBe('true');
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});

describe('ProgressTiles', () => {
  it('shows the donor count and the percent complete', () => {
    render(<ProgressTiles donorCount={1234} currentAmount={123_456} goalAmount={500_000} />);
    const donors = screen.getByTestId('tile-donors');
    expect(donors.querySelector('dt')!.textContent).toBe('Donors');
    expect(donors.querySelector('dd')!.textContent).toBe('1,234');
    const complete = screen.getByTestId('tile-complete');
    expect(complete.querySelector('dt')!.textContent).toBe('Complete');
    expect(complete.querySelector('dd')!.textContent).toBe('24.7%');
  });

  it('shows received and pledged-not-yet-received in two tones, with the numbers as text', () => {
    vi.useFakeTimers();
    renderBar(
      <ProgressBar currentAmount={200_000} confirmedAmount={50_000} goalAmount={500_000} />,
    );
    act(() => {
      vi.advanceTimersByTime(150);
    });
    expect(screen.getByTestId('progress-fill').getAttribute('data-percent')).toBe('40');
    expect(screen.getByTestId('progress-received').getAttribute('data-percent')).toBe('10');
    const bar = screen.getByRole('progressbar', { name: 'Campaign progress' });
    const described = document.getElementById(bar.getAttribute('aria-describedby')!)!;
    expect(described.textContent).toContain('50,000 received');
    expect(described.textContent).toContain('150,000 pledged, not yet received');
    vi.useRealTimers();
  });

  it('shows the third stage, delivered, as a part of what was received, with the number as text', () => {
    vi.useFakeTimers();
    renderBar(
      <ProgressBar
        currentAmount={200_000}
        confirmedAmount={50_000}
        deliveredAmount={41_200}
        goalAmount={500_000}
      />,
    );
    act(() => {
      vi.advanceTimersByTime(150);
    });
    expect(screen.getByTestId('progress-delivered').getAttribute('data-percent')).toBe('8.24');
    const bar = screen.getByRole('progressbar', { name: 'Campaign progress' });
    const described = document.getElementById(bar.getAttribute('aria-describedby')!)!;
    expect(described.textContent).toContain('41,200 delivered');
    expect(described.textContent).toContain('50,000 received');
    vi.useRealTimers();
  });

  it('never lets an overpayment cancel another donor’s debt (the server sums what is owed)', () => {
    // 32,195 containers received (one donor paid far more than pledged) while another still owes
    // 454: the difference would say 0; the server's per-pledge sum says 454.
    renderBar(
      <ProgressBar
        currentAmount={30_000}
        confirmedAmount={32_195}
        outstandingAmount={454}
        goalAmount={500_000}
      />,
    );
    const bar = screen.getByRole('progressbar', { name: 'Campaign progress' });
    const described = document.getElementById(bar.getAttribute('aria-describedby')!)!;
    expect(described.textContent).toContain('32,195 received');
    expect(described.textContent).toContain('454 pledged, not yet received');
  });
});
