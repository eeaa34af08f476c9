import type { KeyboardEvent } from 'react';
import { cn } from '../../../lib/cn';

export type DashboardTab = 'overview' | 'import' | 'activity' | 'reports' | 'team';

const ALL_TABS: { value: DashboardTab; label: string }[] = [
  { value: 'overview', label: 'Overview' },
  { value: 'import', label: 'Import bank statement' },
  { value: 'activity', label: 'Activity' },
  { value: 'reports', label: 'Reports' },
  { value: 'team', label: 'Team' },
];

export const DASHBOARD_TABS = ALL_TABS.map((t) => t.value);

/**
 * WAI-ARIA tabs (arrow keys move between them) for the dashboard's views; `visible` leaves out
 * the ones the signed-in role may not use.
 */
export function DashboardTabs({
  value,
  onChange,
  visible,
}: {
  value: DashboardTab;
  onChange: (tab: DashboardTab) => void;
  visible: readonly DashboardTab[];
}) {
  const TABS = ALL_TABS.filter((t) => visible.includes(t.value));
  function onKeyDown(e: KeyboardEvent) {
    const at = TABS.findIndex((t) => t.value === value);
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    e.preventDefault();
    const next = TABS[(at + step + TABS.length) % TABS.length]!;
    onChange(next.value);
    document.getElementById(`admin-tab-${next.value}`)?.focus();
  }
  return (
    <div role="tablist" aria-label="Dashboard views" className="flex gap-1 border-b border-ink-200">
      {TABS.map((t) => (
        <button
          key={t.value}
          id={`admin-tab-${t.value}`}
          type="button"
          role="tab"
          aria-selected={value === t.value}
          aria-controls={`admin-panel-${t.value}`}
          tabIndex={value === t.value ? 0 : -1}
          onClick={() => onChange(t.value)}
          onKeyDown={onKeyDown}
          className={cn(
            '-mb-px rounded-t-lg border-b-2 px-4 py-2.5 text-sm font-semibold focus-visible:ring-3 focus-visible:ring-sun-400 focus-visible:outline-none',
            value === t.value
              ? 'border-brand-700 text-brand-800'
              : 'border-transparent text-ink-700 hover:text-ink-900',
          )}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
