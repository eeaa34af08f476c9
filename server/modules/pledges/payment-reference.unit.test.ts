import { describe, expect, it } from 'vitest';
import {
  checkCharacter,
  findReferences,
  keyedReferenceFor,
  parseReference,
  REFERENCE_ALPHABET,
  referenceFor,
} from '@shared/payment-reference';
import type { ReferenceKey } from '@shared/payment-reference';

// The references' arithmetic, apart from payment-reference.test.ts so that it runs once (unit
// project), not once per database: about 100,000-iteration loops with no database.
const FORMAT = /^MRJ-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]$/;

describe('payment reference (pure)', () => {
  it('has the MRJ-XXXX-C shape, without 0/O/1/I/L', () => {
    expect(REFERENCE_ALPHABET).toHaveLength(31);
    expect(REFERENCE_ALPHABET).not.toMatch(/[01OIL]/);
    for (let n = 1; n < 2000; n++) expect(referenceFor(n)).toMatch(FORMAT);
    expect(referenceFor(5, 'ABC')).toMatch(/^ABC-/);
  });

  it('never repeats: the first 100,000 pledges get 100,000 references', () => {
    const seen = new Set<string>();
    for (let n = 1; n <= 100_000; n++) seen.add(referenceFor(n));
    expect(seen.size).toBe(100_000);
    // Past 31^4 the body grows instead of wrapping around.
    expect(referenceFor(31 ** 4)).toMatch(/^MRJ-[2-9A-Z]{5}-[2-9A-Z]$/);
  });

  it('detects every single wrong character and every swap of neighbours', () => {
    for (const n of [1, 2, 77, 4242, 99_999]) {
      const ref = referenceFor(n);
      const [prefix, body, check] = ref.split('-') as [string, string, string];
      expect(parseReference(ref)).toBe(ref);
      for (let i = 0; i < body.length; i++) {
        for (const c of REFERENCE_ALPHABET) {
          if (c === body[i]) continue;
          const typo = body.slice(0, i) + c + body.slice(i + 1);
          expect(parseReference(`${prefix}-${typo}-${check}`), typo).toBeNull();
        }
        if (i < body.length - 1 && body[i] !== body[i + 1]) {
          const swapped = body.slice(0, i) + body[i + 1] + body[i] + body.slice(i + 2);
          expect(parseReference(`${prefix}-${swapped}-${check}`)).toBeNull();
        }
      }
      for (const c of REFERENCE_ALPHABET)
        if (c !== check) expect(parseReference(`${prefix}-${body}-${c}`)).toBeNull();
    }
  });

  it('reads references typed with spaces, lower case or no dashes', () => {
    const ref = referenceFor(321);
    const [prefix, body, check] = ref.split('-') as [string, string, string];
    expect(parseReference(`${prefix} ${body} ${check}`.toLowerCase())).toBe(ref);
    expect(parseReference(prefix + body + check)).toBe(ref);
    expect(parseReference('MRJ-0000-0')).toBeNull();
    expect(parseReference('hello')).toBeNull();
    expect(checkCharacter(body)).toBe(check);
    expect(
      findReferences(`TRF FROM J BROWN ref ${prefix.toLowerCase()} ${body}-${check} thanks`, [
        'MRJ',
      ]),
    ).toEqual([ref]);
    expect(findReferences(`INV${prefix}${body}X`, ['MRJ'])).toEqual(
      checkCharacter(body) === 'X' ? [ref] : [],
    );
  });
});

describe('keyed payment references (pure, second review 2.9)', () => {
  const key: ReferenceKey = { key: '5146919071236785119', from: 1 };
  it('is a bijection that never repeats a reference, and still validates', () => {
    const seen = new Set<string>();
    for (let n = 1; n <= 100_000; n++) {
      const ref = keyedReferenceFor(n, key);
      seen.add(ref);
      if (n <= 2000) {
        expect(ref).toMatch(FORMAT);
        expect(parseReference(ref)).toBe(ref);
      }
    }
    expect(seen.size).toBe(100_000);
    expect(keyedReferenceFor(1, key)).not.toBe(referenceFor(1));
    expect(keyedReferenceFor(31 ** 4, key)).toMatch(/^MRJ-[2-9A-Z]{5}-[2-9A-Z]$/);
  });

  it('leaves the numbers before the key as they were and never repeats one of them', () => {
    const upgraded: ReferenceKey = { key: key.key, from: 501 };
    const old = new Set(Array.from({ length: 500 }, (_, i) => referenceFor(i + 1)));
    for (let n = 1; n <= 500; n++) expect(keyedReferenceFor(n, upgraded)).toBe(referenceFor(n));
    const keyed = new Set<string>();
    for (let n = 501; n <= 20_000; n++) keyed.add(keyedReferenceFor(n, upgraded));
    expect(keyed.size).toBe(20_000 - 500);
    for (const r of keyed) expect(old.has(r)).toBe(false);
  });

  it('differs from key to key', () => {
    const other: ReferenceKey = { key: '77', from: 1 };
    const a = Array.from({ length: 50 }, (_, i) => keyedReferenceFor(i + 1, key));
    const b = Array.from({ length: 50 }, (_, i) => keyedReferenceFor(i + 1, other));
    expect(a.filter((r, i) => r === b[i]).length).toBeLessThan(3);
  });
});
