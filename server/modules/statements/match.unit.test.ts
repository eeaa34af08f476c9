import { describe, expect, it } from 'vitest';
import {
  keyedReferenceFor,
  REFERENCE_ALPHABET,
  type ReferenceKey,
} from '@shared/payment-reference';
import type { DuplicateOf, ProposedPledge } from '@shared/schemas/statement';
import { describeDifference } from '@shared/statement-difference';
import {
  nameMatch,
  oneCharacterAway,
  proposeMatch,
  scanReferences,
  type LineToMatch,
} from './match';

const PREFIXES = ['MRJ'];
/** An install's key: references as the app hands them out (second review 2.9). */
const INSTALL_KEY: ReferenceKey = { key: '3141592653589793238', from: 1 };
const referenceOf = (n: number) => keyedReferenceFor(n, INSTALL_KEY);
let seq = 0;
function pledge(over: Partial<ProposedPledge> = {}): ProposedPledge {
  seq += 1;
  return {
    id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    name: 'Jane Brown',
    reference: referenceOf(seq),
    amount: 100,
    currency: 'USD',
    paymentState: 'pending',
    outstandingAmount: over.amount ?? 100,
    ...over,
  };
}

function line(over: Partial<LineToMatch> = {}): LineToMatch {
  return {
    amountCents: 10_000,
    currency: 'USD',
    description: '',
    payer: '',
    duplicateOf: null,
    ...over,
  };
}

/** The proposal for a line, given the pledges the database holds. */
function propose(l: LineToMatch, pledges: ProposedPledge[]) {
  const refs = scanReferences({ description: l.description, payer: l.payer }, PREFIXES);
  return proposeMatch(l, refs, {
    byReference: new Map(pledges.map((p) => [p.reference, p])),
    pending: pledges.filter((p) => p.paymentState === 'pending'),
  });
}

/** `ref` with its character at `i` (body 0-3, 4 = check) replaced by another. */
function typo(ref: string, i: number, by?: string): string {
  const chars = ref.replace(/-/g, '').slice(3).split('');
  chars[i] = by ?? REFERENCE_ALPHABET[(REFERENCE_ALPHABET.indexOf(chars[i]!) + 1) % 31]!;
  return `MRJ-${chars.slice(0, 4).join('')}-${chars[4]}`;
}

describe('references, each field on its own, as whole words', () => {
  it('finds a reference however it is spaced, in either field', () => {
    const ref = referenceOf(7);
    const [body, check] = ref.split('-').slice(1);
    for (const written of [ref, ref.toLowerCase(), `mrj ${body} ${check}`, `MRJ${body}${check}`]) {
      const s = scanReferences({ description: `TRF ${written} THANKS`, payer: '' }, PREFIXES);
      expect(s.exact, written).toEqual([{ reference: ref, fields: ['description'] }]);
    }
    const inPayer = scanReferences({ description: 'GIFT', payer: `REF:${ref}` }, PREFIXES);
    expect(inPayer.exact).toEqual([{ reference: ref, fields: ['payer'] }]);
  });

  it('never joins the description and the payer field, nor reads inside a word', () => {
    // "MRJ-G7DB-A" is well formed, but split across the two fields here.
    expect(checkIsValid('MRJ-G7DB-A')).toBe(true);
    const s = scanReferences({ description: 'gift MRJG7', payer: 'DB A' }, PREFIXES);
    expect(s.exact).toEqual([]);
    // Nor split by spaces inside the body, nor glued to other letters.
    expect(scanReferences({ description: 'MRJG7 DB A', payer: '' }, PREFIXES).exact).toEqual([]);
    expect(scanReferences({ description: 'XMRJG7DBA', payer: '' }, PREFIXES).exact).toEqual([]);
    expect(scanReferences({ description: 'MRJG7DBAX', payer: '' }, PREFIXES).exact).toEqual([]);
  });

  it('lists the valid references one character away from a mistyped one', () => {
    const ref = referenceOf(3);
    const [body, check] = ref.split('-').slice(1) as [string, string];
    const wrong = typo(ref, 1);
    const [wb, wc] = wrong.split('-').slice(1) as [string, string];
    const near = oneCharacterAway('MRJ', wb, wc);
    expect(near).toContain(ref);
    expect(near.length).toBeLessThanOrEqual(5);
    for (const r of near) expect(checkIsValid(r)).toBe(true);
    // A character outside the alphabet (O for 0) can only be that one.
    expect(oneCharacterAway('MRJ', `O${body.slice(1)}`, check)).toEqual([ref]);
  });
});

function checkIsValid(ref: string) {
  return scanReferences({ description: ref, payer: '' }, PREFIXES).exact.length === 1;
}

describe('proposals', () => {
  it('certain: one reference of a pledge in the same currency, ticked, with the difference', () => {
    const p = pledge();
    const r = propose(line({ description: `TRF ${p.reference}`, payer: 'J BROWN' }), [p]);
    expect(r).toMatchObject({ confidence: 'certain', pledge: p, preTicked: true });
    expect(r.why).toBe(`Reference ${p.reference} is in the description; exact amount`);
    const short = propose(line({ amountCents: 9_750, payer: p.reference }), [p]);
    expect(short.why).toBe(`Reference ${p.reference} is in the payer field; short by US$2.50`);
  });

  it('certain on a pledge paid in full is not ticked', () => {
    const p = pledge({ paymentState: 'paid', outstandingAmount: 0 });
    const r = propose(line({ description: p.reference }), [p]);
    expect(r).toMatchObject({ confidence: 'certain', preTicked: false });
    expect(r.why).toContain('already paid in full');
  });

  it('two references: needs a look, nothing ticked, both named', () => {
    const a = pledge({ name: 'Ann Able' });
    const c = pledge({ name: 'Cy Cole' });
    const r = propose(line({ description: `${a.reference} ${c.reference}` }), [a, c]);
    expect(r).toMatchObject({ confidence: 'review', pledge: null, preTicked: false });
    expect(r.why).toBe(
      `References ${a.reference} and ${c.reference} are both in the description; choose one`,
    );
    expect(r.candidates.map((x) => x.id)).toEqual([a.id, c.id]);
    // One in each field, one of them unknown: the known one is proposed, unticked.
    const unknown = referenceOf(9999);
    const split = propose(line({ description: a.reference, payer: unknown }), [a]);
    expect(split).toMatchObject({ confidence: 'review', pledge: a, preTicked: false });
    expect(split.why).toContain(`${unknown} belongs to no pledge`);
    expect(split.candidates).toEqual([]);
  });

  it('another currency: needs a look, with the conversion at the campaign rate', () => {
    const p = pledge({ amount: 200, outstandingAmount: 200 });
    const r = propose(line({ amountCents: 20_000, currency: 'JMD', description: p.reference }), [
      p,
    ]);
    expect(r).toMatchObject({ confidence: 'review', pledge: p, preTicked: false });
    expect(r.why).toContain(
      'J$200 paid on a US$200 pledge: J$200 ≈ US$1.31 at the campaign rate; short by US$198.69',
    );
    const exact = pledge({ amount: 20, outstandingAmount: 20 });
    const e = propose(
      line({ amountCents: 304_000, currency: 'JMD', description: exact.reference }),
      [exact],
    );
    expect(e.why).toContain('J$3,040 ≈ US$20 at the campaign rate; exact amount');
  });

  it('one wrong character: never certain; proposed when exactly one pledge owed money is that close', () => {
    const p = pledge();
    const other = pledge();
    for (const i of [0, 2, 4]) {
      const written = typo(p.reference, i);
      const r = propose(line({ description: `PLEDGE ${written}` }), [p, other]);
      expect(r.confidence, written).toBe('likely');
      expect(r.pledge?.id).toBe(p.id);
      expect(r.preTicked).toBe(false);
      expect(r.why).toContain(`looks like ${p.reference} (one character differs)`);
    }
    // The close pledge is paid in full: nothing is proposed.
    const paid = { ...p, paymentState: 'paid' as const, outstandingAmount: 0 };
    const none = propose(line({ description: typo(p.reference, 1) }), [paid]);
    expect(none).toMatchObject({ confidence: 'unmatched', pledge: null });
    expect(none.why).toContain('is not a valid reference');
  });

  it('a mistyped reference close to two pledges proposes neither', () => {
    // Two pledges whose references differ in their check... find two valid refs one character
    // from the same invalid text: change the check of one, then look for its other neighbours.
    const p = pledge();
    const wrong = typo(p.reference, 4);
    const [wb, wc] = wrong.split('-').slice(1) as [string, string];
    const neighbours = oneCharacterAway('MRJ', wb, wc);
    expect(neighbours.length).toBeGreaterThan(1);
    const twin = pledge({ reference: neighbours.find((n) => n !== p.reference)! });
    const r = propose(line({ description: wrong }), [p, twin]);
    expect(r).toMatchObject({ confidence: 'unmatched', pledge: null });
    expect(r.why).toContain('2 pledges are one character away');
  });

  it('likely by name: first and last name, same amount; initials and one-word names alone never', () => {
    const jane = pledge({ name: 'Jane Brown' });
    const r = propose(line({ payer: 'BROWN J', description: 'DONATION' }), [jane]);
    expect(r).toMatchObject({ confidence: 'likely', pledge: jane, preTicked: false });
    expect(r.why).toBe(
      'Same amount (US$100) and "BROWN J" has the first and last name of Jane Brown; exact amount',
    );
    // The field that holds the name is the one quoted.
    const inDescription = propose(line({ payer: 'NCB', description: 'GIFT JANE BROWN' }), [jane]);
    expect(inDescription.why).toContain('"GIFT JANE BROWN" has the first and last name');
    // A pledge named "J" (or "J B", or just "Brown") fits no transfer by name.
    for (const name of ['J', 'J B', 'Brown']) {
      const weak = pledge({ name });
      const w = propose(line({ payer: 'J BROWN' }), [weak]);
      expect(w, name).toMatchObject({ confidence: 'unmatched', pledge: null });
    }
    // Only the initials of a real name: not enough either.
    expect(propose(line({ payer: 'J B' }), [jane]).confidence).toBe('unmatched');
    // The better fit wins: full first name over an initial.
    const john = pledge({ name: 'John Brown' });
    const better = propose(line({ payer: 'JANE BROWN' }), [john, jane]);
    expect(better.pledge?.id).toBe(jane.id);
  });

  it('names are read in one field at a time', () => {
    const jane = pledge({ name: 'Jane Brown' });
    const r = propose(line({ description: 'JANE', payer: 'BROWN' }), [jane]);
    expect(r.confidence).toBe('unmatched');
  });

  it('equal fits are listed, not broken by age', () => {
    const a = pledge({ name: 'Jane Brown' });
    const b = pledge({ name: 'Jane Brown' });
    const r = propose(line({ payer: 'JANE BROWN' }), [a, b]);
    expect(r).toMatchObject({ confidence: 'review', pledge: null, preTicked: false });
    expect(r.why).toBe(
      `2 pledges fit: Jane Brown ${a.reference} and Jane Brown ${b.reference}; choose one`,
    );
    expect(r.candidates).toHaveLength(2);
  });

  it('a possible duplicate says of which line, and is never ticked', () => {
    const p = pledge();
    const first: DuplicateOf = {
      id: '11111111-1111-4111-8111-111111111111',
      bookedOn: '2025-01-07',
      amountCents: 10_000,
      currency: 'USD',
      payer: 'J BROWN',
      status: 'matched',
    };
    const r = propose(line({ description: p.reference, duplicateOf: first }), [p]);
    expect(r).toMatchObject({ confidence: 'review', pledge: p, preTicked: false });
    expect(r.why).toMatch(
      /^Possible duplicate of the line of 2025-01-07 \(US\$100, J BROWN\)\. Reference /,
    );
  });

  it('states every difference in words, cents included', () => {
    const jmd = pledge({ amount: 15_200, currency: 'JMD', outstandingAmount: 15_200 });
    expect(describeDifference({ amountCents: 1_220_000, currency: 'JMD' }, jmd)).toBe(
      'short by J$3,000',
    );
    expect(describeDifference({ amountCents: 1_520_034, currency: 'JMD' }, jmd)).toBe(
      'over by J$0.34',
    );
    const usd = pledge({ amount: 50, outstandingAmount: 50 });
    expect(describeDifference({ amountCents: 5_500, currency: 'USD' }, usd)).toBe('over by US$5');
    const part = pledge({ amount: 250, paymentState: 'part-paid', outstandingAmount: 10 });
    expect(describeDifference({ amountCents: 1_000, currency: 'USD' }, part)).toBe(
      'exact amount of the US$10 still owed',
    );
  });
});

describe('name matching', () => {
  it('reads initials, order, titles and accents', () => {
    expect(nameMatch('MRS RENEE DUPONT', 'Renée Dupont')).toMatchObject({ enough: true, hits: 2 });
    expect(nameMatch('BROWN JANE', 'Jane Brown').enough).toBe(true);
    expect(nameMatch('KEMAR LEWIS', 'Jane Brown')).toMatchObject({ enough: false, hits: 0 });
    // A middle name is not required, but first and last are.
    expect(nameMatch('MARY SMITH', 'Mary Ann Smith').enough).toBe(true);
    expect(nameMatch('MARY ANN', 'Mary Ann Smith').enough).toBe(false);
  });
});
