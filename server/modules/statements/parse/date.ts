import type { StatementMapping } from '@shared/schemas/statement';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** A booking date as YYYY-MM-DD; null when it is not a real date. */
export function parseDate(raw: string, order: StatementMapping['dateOrder']): string | null {
  const s = raw.trim().toLowerCase();
  let y: number, m: number, d: number;
  // ISO (2025-01-03, 2025/01/03) or compact (20250103, as OFX writes it).
  let match =
    /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)/.exec(s) ??
    /^(\d{4})(\d{2})(\d{2})(?![\d.,])/.exec(s);
  if (match) [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  else if ((match = /^(\d{1,2})[-/. ]([a-z]{3})[a-z]*[-/. ,]+(\d{2,4})/.exec(s))) {
    d = Number(match[1]);
    m = MONTHS.indexOf(match[2]!) + 1;
    y = Number(match[3]);
  } else if ((match = /^([a-z]{3})[a-z]* (\d{1,2}),? (\d{4})/.exec(s))) {
    m = MONTHS.indexOf(match[1]!) + 1;
    d = Number(match[2]);
    y = Number(match[3]);
  } else if ((match = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{2,4})(?!\d)/.exec(s))) {
    const [a, b] = [Number(match[1]), Number(match[2])];
    y = Number(match[3]);
    [d, m] = order === 'MDY' ? [b, a] : [a, b];
  } else return null;
  if (y < 100) y += 2000;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (m < 1 || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return date.toISOString().slice(0, 10);
}

/** Whether a cell reads as a date in any order (header detection). */
export const isDateLike = (cell: string) =>
  parseDate(cell, 'DMY') !== null || parseDate(cell, 'MDY') !== null;
