import { useSyncExternalStore } from 'react';
import type { ProposedPledge, ReviewLine } from '@shared/schemas/statement';

/**
 * The treasurer's side of the statement review: the page shown, the ticks, the pledges chosen for
 * lines and the last import's counts. It lives here, above the dashboard's tabs, so leaving the
 * Import tab and coming back finds the review as it was (the lines themselves are in TanStack
 * Query's cache, statementKeys in api.ts).
 *
 * A line the treasurer has not touched follows the server's rule (`preTicked`), so a fresh
 * proposal is ticked or not the same way in every tab and test.
 */
export interface ImportSummary {
  fileName: string;
  credits: number;
  newLines: number;
  alreadyImported: number;
  skipped: number;
}

export interface ReviewState {
  page: number;
  /** Ticks the treasurer set or cleared, by line id. */
  ticks: Readonly<Record<string, boolean>>;
  /** Pledges the treasurer chose for lines (from the search or the listed candidates). */
  chosen: Readonly<Record<string, ProposedPledge>>;
  lastImport: ImportSummary | null;
}

const INITIAL: ReviewState = { page: 1, ticks: {}, chosen: {}, lastImport: null };
let state: ReviewState = INITIAL;
const listeners = new Set<() => void>();

function set(next: Partial<ReviewState>) {
  state = { ...state, ...next };
  for (const l of listeners) l();
}

function without<T>(record: Readonly<Record<string, T>>, ids: readonly string[]) {
  const copy = { ...record };
  for (const id of ids) delete copy[id];
  return copy;
}

export const reviewStore = {
  get: (): ReviewState => state,
  setPage: (page: number) => set({ page }),
  setTick: (id: string, on: boolean) => set({ ticks: { ...state.ticks, [id]: on } }),
  /** A pledge chosen for a line is ticked with it. */
  choose: (id: string, pledge: ProposedPledge) =>
    set({ chosen: { ...state.chosen, [id]: pledge }, ticks: { ...state.ticks, [id]: true } }),
  unchoose: (id: string) =>
    set({ chosen: without(state.chosen, [id]), ticks: without(state.ticks, [id]) }),
  /** Lines that left the review (confirmed, dismissed): their ticks and choices go with them. */
  forget: (ids: readonly string[]) =>
    set({ chosen: without(state.chosen, ids), ticks: without(state.ticks, ids) }),
  imported: (summary: ImportSummary) => set({ lastImport: summary, page: 1 }),
  reset: () => set(INITIAL),
};

function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function useReviewState(): ReviewState {
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => INITIAL,
  );
}

/** The pledge a line would confirm: the treasurer's choice, else the proposal. */
export const pledgeOf = (s: ReviewState, line: ReviewLine): ProposedPledge | null =>
  s.chosen[line.id] ?? line.pledge;

export const isTicked = (s: ReviewState, line: ReviewLine): boolean =>
  pledgeOf(s, line) !== null && (s.ticks[line.id] ?? line.preTicked);
