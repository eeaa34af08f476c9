import { formatCents } from '@shared/format-cents';
import { REFERENCE_ALPHABET, checkCharacter } from '@shared/payment-reference';
import { describeDifference } from '@shared/statement-difference';
import type { Currency } from '@shared/constants';
import type { DuplicateOf, MatchConfidence, ProposedPledge } from '@shared/schemas/statement';

/**
 * The matching rules (docs/decisions/013-statement-matching.md), as pure functions. Nothing is
 * guessed silently: every proposal says why, and what differs.
 *
 * 1. certain: one well-formed reference (check character valid), written as a word of its own in
 *    the description or in the payer field, belonging to a pledge of the line's currency;
 * 2. needs a look (`review`): two references, a currency other than the pledge's, a possible
 *    duplicate line, or several pledges that fit equally well;
 * 3. likely: a reference with one wrong character that is one character away from exactly one
 *    pledge still owed money; or no reference, and one pending pledge of the same amount whose
 *    donor's first and last names are in one field of the line;
 * 4. otherwise unmatched (kept for later), with the reason.
 */

export type Field = 'description' | 'payer';
const FIELD_NAME: Record<Field, string> = { description: 'description', payer: 'payer field' };

export interface ScannedReferences {
  /** Well-formed references, each once, with the fields they are written in. */
  exact: { reference: string; fields: Field[] }[];
  /** Reference-shaped words with one wrong character, and the valid references one character away. */
  near: { written: string; field: Field; candidates: string[] }[];
}

// What people and banks put between a reference's groups; nothing else may split it.
const SEP = '[\\s\\-_.:#/]*';
const patterns = new Map<string, RegExp>();
function tokenPattern(prefix: string): RegExp {
  let p = patterns.get(prefix);
  if (!p) {
    // A word boundary on both sides (no letter or digit touches it), separators only between the
    // prefix, the body and the check character: "MRJ 7K4Q 2", "mrj-7k4q-2", "MRJ7K4Q2".
    p = new RegExp(`(?<![A-Z0-9])${prefix}${SEP}([A-Z0-9]{4,5})${SEP}([A-Z0-9])(?![A-Z0-9])`, 'g');
    patterns.set(prefix, p);
  }
  return p;
}

const inAlphabet = (c: string) => REFERENCE_ALPHABET.includes(c);

/**
 * The valid references one substitution away from `body`+`check` (which is not valid): at most
 * one per position, since the check character catches every single wrong character.
 */
export function oneCharacterAway(prefix: string, body: string, check: string): string[] {
  const chars = [...body, check];
  const bad = chars.map((c, i) => (inAlphabet(c) ? -1 : i)).filter((i) => i >= 0);
  if (bad.length > 1) return [];
  const positions = bad.length === 1 ? bad : chars.map((_, i) => i);
  const out: string[] = [];
  for (const i of positions) {
    if (i === body.length) {
      out.push(`${prefix}-${body}-${checkCharacter(body)}`);
      continue;
    }
    for (const c of REFERENCE_ALPHABET) {
      if (c === body[i]) continue;
      const b = body.slice(0, i) + c + body.slice(i + 1);
      if (checkCharacter(b) === check) out.push(`${prefix}-${b}-${check}`);
    }
  }
  return out;
}

/**
 * References in each field on its own (a reference is never "found" across the description and
 * the payer field joined together), as whole words.
 */
export function scanReferences(
  fields: Record<Field, string>,
  prefixes: readonly string[],
): ScannedReferences {
  const exact = new Map<string, Field[]>();
  const near: ScannedReferences['near'] = [];
  for (const field of ['description', 'payer'] as const) {
    const text = fields[field].toUpperCase();
    for (const prefix of prefixes) {
      for (const m of text.matchAll(tokenPattern(prefix))) {
        const body = m[1]!;
        const check = m[2]!;
        if ([...body, check].every(inAlphabet) && checkCharacter(body) === check) {
          const ref = `${prefix}-${body}-${check}`;
          const at = exact.get(ref) ?? [];
          if (!at.includes(field)) at.push(field);
          exact.set(ref, at);
        } else {
          const candidates = oneCharacterAway(prefix, body, check);
          if (candidates.length > 0)
            near.push({ written: `${prefix}-${body}-${check}`, field, candidates });
        }
      }
    }
  }
  return { exact: [...exact].map(([reference, f]) => ({ reference, fields: f })), near };
}

const TITLES = /\b(MR|MRS|MS|MISS|DR|REV|AND|THE|LTD|LIMITED|INC)\b/g;

const nameWords = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9 ]/g, ' ')
    .replace(TITLES, ' ')
    .split(/\s+/)
    .filter(Boolean);

type WordHit = 'word' | 'initial' | null;

/** Full word (or a bank's truncation of a long one), an initial for a word, or nothing. */
function wordHit(payerWord: string, nameWord: string): WordHit {
  if (payerWord === nameWord) return payerWord.length === 1 ? 'initial' : 'word';
  if (payerWord.length >= 4 && nameWord.length >= 4)
    if (payerWord.startsWith(nameWord) || nameWord.startsWith(payerWord)) return 'word';
  if (payerWord.length === 1 && nameWord.startsWith(payerWord)) return 'initial';
  if (nameWord.length === 1 && payerWord.startsWith(nameWord)) return 'initial';
  return null;
}

export interface NameMatch {
  /** Words of the donor's name found: a whole word counts 2, an initial 1. */
  score: number;
  /** Words of the name found, of how many. */
  hits: number;
  words: number;
  /**
   * Enough to propose the pledge on its own: the first and the last name are both there and one
   * of them as a whole word. A one-word or initials-only name never is ("J" would fit anyone).
   */
  enough: boolean;
}

/**
 * How one field of a line (the payer, or the description) fits a donor's name: order, titles,
 * accents and case do not matter; "J BROWN" fits "Jane Brown" by its initial.
 */
export function nameMatch(text: string, name: string): NameMatch {
  const payer = nameWords(text);
  const n = nameWords(name);
  const used = new Set<number>();
  const kinds: WordHit[] = n.map(() => null);
  // Whole words first, so an initial does not take a payer word a whole word needs.
  for (const pass of ['word', 'initial'] as const) {
    n.forEach((word, i) => {
      if (kinds[i]) return;
      const j = payer.findIndex((w, k) => !used.has(k) && wordHit(w, word) === pass);
      if (j >= 0) {
        used.add(j);
        kinds[i] = pass;
      }
    });
  }
  const hits = kinds.filter(Boolean).length;
  const score = kinds.reduce((s, k) => s + (k === 'word' ? 2 : k === 'initial' ? 1 : 0), 0);
  const realName = n.length >= 2 && n.some((w) => w.length > 1);
  const enough =
    realName &&
    kinds[0] !== null &&
    kinds[n.length - 1] !== null &&
    (kinds[0] === 'word' || kinds[n.length - 1] === 'word');
  return { score, hits, words: n.length, enough };
}

/** Share of the donor's name words found in the payer text, 0..1. */
export function nameCloseness(payer: string, name: string): number {
  const m = nameMatch(payer, name);
  return m.words === 0 ? 0 : m.hits / m.words;
}

/** A statement line as matching sees it. */
export interface LineToMatch {
  amountCents: number;
  currency: Currency;
  description: string;
  payer: string;
  duplicateOf: DuplicateOf | null;
}

export interface Proposal {
  confidence: MatchConfidence;
  why: string;
  pledge: ProposedPledge | null;
  /** Pledges that fit equally well (or were all named): the treasurer chooses one. */
  candidates: ProposedPledge[];
  /** Ticked when the review opens: certain, owed money, no doubt about the line itself. */
  preTicked: boolean;
}

export interface MatchLookups {
  /** Pledges by reference (all the line's references and their one-character neighbours). */
  byReference: ReadonlyMap<string, ProposedPledge>;
  /** Pending pledges that could be this line's by amount. */
  pending: readonly ProposedPledge[];
}

const list = (items: string[]) =>
  items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

const named = (p: ProposedPledge) => `${p.name} ${p.reference}`;

const whereFound = (fields: Field[]) =>
  `in the ${fields.map((f) => FIELD_NAME[f]).join(' and the ')}`;

/** The proposal for one line, from what the database knows (pure; review.ts does the reading). */
export function proposeMatch(
  line: LineToMatch,
  refs: ScannedReferences,
  lookups: MatchLookups,
): Proposal {
  const p = proposeIgnoringDuplicate(line, refs, lookups);
  if (!line.duplicateOf) return p;
  const d = line.duplicateOf;
  const first = `Possible duplicate of the line of ${d.bookedOn} (${formatCents(d.amountCents, d.currency)}${d.payer ? `, ${d.payer}` : ''})`;
  return {
    ...p,
    confidence: p.confidence === 'unmatched' ? 'unmatched' : 'review',
    why: `${first}. ${p.why}`,
    preTicked: false,
  };
}

function proposeIgnoringDuplicate(
  line: LineToMatch,
  refs: ScannedReferences,
  { byReference, pending }: MatchLookups,
): Proposal {
  const none = { pledge: null, candidates: [], preTicked: false };
  const withPledge = (
    confidence: MatchConfidence,
    reason: string,
    pledge: ProposedPledge,
  ): Proposal => {
    const otherCurrency = pledge.currency !== line.currency;
    const c = otherCurrency && confidence !== 'unmatched' ? 'review' : confidence;
    return {
      confidence: c,
      why: `${reason}; ${describeDifference(line, pledge)}`,
      pledge,
      candidates: [],
      preTicked: c === 'certain' && pledge.paymentState !== 'paid',
    };
  };

  // Two or more references: the treasurer says which (or splits the money by hand).
  if (refs.exact.length > 1) {
    const field = refs.exact[0]!.fields[0]!;
    const oneField = refs.exact.every((r) => r.fields.length === 1 && r.fields[0] === field);
    const names = list(refs.exact.map((r) => r.reference));
    const found = oneField
      ? `References ${names} are ${refs.exact.length > 2 ? 'all' : 'both'} in the ${FIELD_NAME[field]}`
      : `References ${list(refs.exact.map((r) => `${r.reference} (${r.fields.map((f) => FIELD_NAME[f]).join(' and ')})`))} are in this line`;
    const pledges = refs.exact
      .map((r) => byReference.get(r.reference))
      .filter((x) => x !== undefined);
    const unknown = refs.exact.filter((r) => !byReference.has(r.reference)).map((r) => r.reference);
    const why =
      found +
      (unknown.length
        ? `; ${list(unknown)} belong${unknown.length === 1 ? 's' : ''} to no pledge`
        : '') +
      (pledges.length > 1 ? '; choose one' : '');
    if (pledges.length === 1) return withPledge('review', why, pledges[0]!);
    return {
      confidence: pledges.length ? 'review' : 'unmatched',
      why,
      ...none,
      candidates: pledges,
    };
  }

  if (refs.exact.length === 1) {
    const { reference, fields } = refs.exact[0]!;
    const pledge = byReference.get(reference);
    if (pledge)
      return withPledge('certain', `Reference ${reference} is ${whereFound(fields)}`, pledge);
    return { confidence: 'unmatched', why: `Reference ${reference} belongs to no pledge`, ...none };
  }

  // One wrong character: proposed only when exactly one pledge still owed money is that close.
  const nearNotes: string[] = [];
  for (const n of refs.near) {
    const close = [
      ...new Map(
        n.candidates
          .map((ref) => byReference.get(ref))
          .filter((x) => x !== undefined && x.paymentState !== 'paid')
          .map((x) => [x!.id, x!]),
      ).values(),
    ];
    if (close.length === 1) {
      const pledge = close[0]!;
      return withPledge(
        'likely',
        `${n.written} in the ${FIELD_NAME[n.field]} is not a valid reference; it looks like ${pledge.reference} (one character differs)`,
        pledge,
      );
    }
    nearNotes.push(
      close.length === 0
        ? `${n.written} in the ${FIELD_NAME[n.field]} is not a valid reference, and no pledge owed money is one character away`
        : `${n.written} in the ${FIELD_NAME[n.field]} is not a valid reference; ${close.length} pledges are one character away (${list(close.map(named))})`,
    );
  }

  // By name: one pending pledge of the same amount whose donor's first and last names are in one
  // field of the line; equal fits are listed, never broken by age.
  const whole = Math.floor(line.amountCents / 100);
  const sameAmount = pending.filter(
    (p) => p.amount === whole && p.currency === line.currency && p.paymentState === 'pending',
  );
  const fits = sameAmount
    .map((p) => {
      const m = [line.payer, line.description]
        .map((text) => ({ text, ...nameMatch(text, p.name) }))
        .filter((x) => x.enough)
        .sort((a, b) => b.score - a.score)[0];
      return { p, score: m?.score ?? 0, text: m?.text ?? '' };
    })
    .filter((f) => f.score > 0)
    .sort((a, b) => b.score - a.score);
  const who = line.payer || line.description;
  const amount = formatCents(whole * 100, line.currency);
  if (fits.length > 0) {
    const best = fits.filter((f) => f.score === fits[0]!.score).map((f) => f.p);
    if (best.length === 1)
      return withPledge(
        'likely',
        `Same amount (${amount}) and "${fits[0]!.text}" has the first and last name of ${best[0]!.name}`,
        best[0]!,
      );
    return {
      confidence: 'review',
      why: `${best.length} pledges fit: ${list(best.map(named))}; choose one`,
      ...none,
      candidates: best,
    };
  }
  const why = [
    ...nearNotes,
    sameAmount.length > 0
      ? `${sameAmount.length} pending pledge${sameAmount.length === 1 ? '' : 's'} of ${amount}, but none in the name of "${who}"`
      : `No reference, and no pending pledge of ${amount}`,
  ].join('; ');
  return { confidence: 'unmatched', why, ...none };
}
