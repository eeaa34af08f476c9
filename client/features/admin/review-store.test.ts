import { afterEach, describe, expect, it } from 'vitest';
import type { ProposedPledge, ReviewLine } from '@shared/schemas/statement';
import { isTicked, pledgeOf, reviewStore } from './review-store';

const pledge = (id: string): ProposedPledge => ({
  id,
  name: `Donor ${id}`,
  reference: 'MRJ-QAR7-T',
  amount: 100,
  currency: 'USD',
  paymentState: 'pending',
  outstandingAmount: 100,
});

function line(id: string, over: Partial<ReviewLine> = {}): ReviewLine {
  return {
    id,
    bookedOn: '2025-01-03',
    amount: 100,
    amountCents: 10_000,
    currency: 'USD',
    description: '',
    payer: '',
    status: 'open',
    confidence: 'certain',
    why: '',
    pledge: pledge('p1'),
    candidates: [],
    preTicked: true,
    duplicateOf: null,
    ...over,
  };
}

afterEach(() => reviewStore.reset());

describe('the review store', () => {
  it('follows the server rule until the treasurer ticks or unticks', () => {
    const certain = line('a');
    const likely = line('b', { confidence: 'likely', preTicked: false });
    const none = line('c', { confidence: 'unmatched', pledge: null, preTicked: false });
    const s = reviewStore.get;
    expect([certain, likely, none].map((l) => isTicked(s(), l))).toEqual([true, false, false]);
    reviewStore.setTick('a', false);
    reviewStore.setTick('b', true);
    // A line with no pledge cannot be ticked, whatever was clicked.
    reviewStore.setTick('c', true);
    expect([certain, likely, none].map((l) => isTicked(s(), l))).toEqual([false, true, false]);
  });

  it('a chosen pledge replaces the proposal and is ticked; forget and undo clear it', () => {
    const none = line('c', { confidence: 'unmatched', pledge: null, preTicked: false });
    reviewStore.choose('c', pledge('p9'));
    expect(pledgeOf(reviewStore.get(), none)?.id).toBe('p9');
    expect(isTicked(reviewStore.get(), none)).toBe(true);
    reviewStore.unchoose('c');
    expect(pledgeOf(reviewStore.get(), none)).toBeNull();
    reviewStore.choose('c', pledge('p9'));
    reviewStore.forget(['c']);
    expect(isTicked(reviewStore.get(), none)).toBe(false);
  });

  it('an import starts the review at its first page', () => {
    reviewStore.setPage(3);
    reviewStore.imported({
      fileName: 'x.csv',
      credits: 1,
      newLines: 1,
      alreadyImported: 0,
      skipped: 0,
    });
    expect(reviewStore.get()).toMatchObject({ page: 1, lastImport: { fileName: 'x.csv' } });
  });
});
