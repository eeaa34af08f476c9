import { findReferences } from '@shared/payment-reference';

/**
 * The matching rules (docs/decisions/013-statement-matching.md), as pure functions:
 * 1. certain: a payment reference (check character valid) in the description or payer field;
 * 2. likely: no reference, but a pending pledge of the same amount and currency whose donor name
 *    is close to the payer's;
 * 3. otherwise unmatched (kept for later).
 */
export function referencesIn(text: string, prefixes: readonly string[]): string[] {
  return findReferences(text, prefixes);
}

const normalise = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/\b(MR|MRS|MS|MISS|DR|REV|AND|THE|LTD|LIMITED|INC)\b/g, ' ')
    .replace(/[^A-Z0-9 ]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);

/**
 * How close a payer text is to a donor's name, 0..1: the share of the name's words found in the
 * payer text, where a single letter matches a word's initial ("J BROWN" ~ "Jane Brown") and the
 * order does not matter ("BROWN JANE").
 */
export function nameCloseness(payer: string, name: string): number {
  const p = normalise(payer);
  const n = normalise(name);
  if (p.length === 0 || n.length === 0) return 0;
  let hits = 0;
  for (const word of n) {
    const hit = p.some(
      (w) =>
        w === word ||
        (w.length === 1 && word.startsWith(w)) ||
        (word.length === 1 && w.startsWith(word)) ||
        (w.length >= 4 && word.length >= 4 && (w.startsWith(word) || word.startsWith(w))),
    );
    if (hit) hits++;
  }
  return hits / n.length;
}

export const CLOSE_NAME = 0.6;
