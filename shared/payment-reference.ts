/**
 * Payment references: `MRJ-7K4Q-2` = campaign prefix, a body from an alphabet without
 * the look-alikes 0/O, 1/I/L, and one check character. docs/decisions/012-payment-reference.md.
 *
 * The body is the pledge's sequence number pushed through a fixed permutation of 31^4 values:
 * unique by construction (the sequence never goes back, so a reference is never reused) while
 * consecutive pledges do not get consecutive references. The database computes the same function
 * (`pledge_reference()` in migration 0009) when a pledge is inserted; a test keeps both equal.
 * That permutation is public, so new pledges go through the install's keyed shuffle first
 * (`keyedReferenceFor`, migration 0018's `pledge_reference_keyed()`).
 */
export const REFERENCE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const BASE = REFERENCE_ALPHABET.length; // 31, a prime: every weight below has an inverse mod 31.
const REFERENCE_BODY_LENGTH = 4;
export const DEFAULT_REFERENCE_PREFIX = 'MRJ';
export const REFERENCE_PREFIX_PATTERN = /^[A-Z]{2,5}$/;
const MULTIPLIER = 510_529; // not a multiple of 31, so n -> n * M + O (mod 31^k) is a bijection
const OFFSET = 123_457;

/**
 * Check character: sum of (position + 2) x value, mod 31. With a prime modulus and distinct
 * non-zero weights, any single wrong character and any swap of two neighbours in the body change
 * the sum, so they are always detected.
 */
export function checkCharacter(body: string): string {
  let total = 0;
  for (let i = 0; i < body.length; i++) {
    const v = REFERENCE_ALPHABET.indexOf(body[i]!);
    if (v < 0) throw new Error(`"${body[i]}" is not a reference character`);
    total += (i + 2) * v;
  }
  return REFERENCE_ALPHABET[total % BASE]!;
}

/** The reference of the n-th pledge (n >= 1); past 31^4 pledges the body grows a character. */
export function referenceFor(n: number, prefix: string = DEFAULT_REFERENCE_PREFIX): string {
  let length = REFERENCE_BODY_LENGTH;
  let space = BASE ** length;
  while (n >= space) {
    length += 1;
    space *= BASE;
  }
  let m = (n * MULTIPLIER + OFFSET) % space;
  let body = '';
  for (let i = 0; i < length; i++) {
    body = REFERENCE_ALPHABET[m % BASE]! + body;
    m = Math.floor(m / BASE);
  }
  return `${prefix}-${body}-${checkCharacter(body)}`;
}

/**
 * The install's secret for references: without it the permutation above is
 * public, so `MRJ-QAR7-T` is pledge #1 on every install and the next references are predictable.
 * `key` is a random 63-bit integer (decimal, as a bigint travels to SQL); pledges numbered below
 * `from` (those of the install before it had a key) keep their public references.
 * Kept in `settings` (`payment_reference_key`, so in backups), made at the first start.
 */
export interface ReferenceKey {
  key: string;
  from: number;
}
export const REFERENCE_KEY_SETTING = 'payment_reference_key';

const ROUNDS = 8;
const MASK = 0xffff_ffff;

/** A 32-bit integer hash (SQL: `pledge_reference_mix`); `Math.imul` keeps the low 32 bits. */
function mix32(h: number): number {
  h = Math.imul(((h >>> 16) ^ h) >>> 0, 0x45d9f3b) >>> 0;
  h = Math.imul(((h >>> 16) ^ h) >>> 0, 0x45d9f3b) >>> 0;
  return ((h >>> 16) ^ h) >>> 0;
}

/**
 * A keyed permutation of 0..31^length-1: the number as two halves (31^a and 31^b values), each of
 * 8 rounds adds a keyed hash of one half to the other, modulo its size. Every round can be undone
 * (subtract the same hash), so the whole is a bijection, whatever the key.
 */
function keyedShuffle(x: number, length: number, key: bigint): number {
  const a = Math.floor(length / 2);
  const sizeL = BASE ** a;
  const sizeR = BASE ** (length - a);
  const words = [Number(key & BigInt(MASK)), Number((key >> 32n) & BigInt(MASK))];
  let left = Math.floor(x / sizeR);
  let right = x % sizeR;
  for (let i = 0; i < ROUNDS; i++) {
    const roundKey = mix32((words[i % 2]! ^ Math.imul(i + 1, 0x9e3779b9)) >>> 0);
    if (i % 2 === 0) left = (left + (mix32((right ^ roundKey) >>> 0) % sizeL)) % sizeL;
    else right = (right + (mix32((left ^ roundKey) >>> 0) % sizeR)) % sizeR;
  }
  return left * sizeR + right;
}

/**
 * The reference of the n-th pledge on an install with `key` (SQL: `pledge_reference_keyed()`,
 * migration 0018). Numbers from `key.from` on go through the keyed shuffle, walked until it lands
 * on a number not below `from` (cycle walking), so the keyed numbers are a permutation of the
 * numbers not yet used; the public map then turns the number into the body as before. Hence no
 * keyed reference repeats an older one, the format and check character are unchanged, and the
 * numbers below `from` keep `referenceFor(n)`.
 */
export function keyedReferenceFor(
  n: number,
  referenceKey: ReferenceKey,
  prefix: string = DEFAULT_REFERENCE_PREFIX,
): string {
  if (n < referenceKey.from || n < 1) return referenceFor(n, prefix);
  let length = REFERENCE_BODY_LENGTH;
  let space = BASE ** length;
  while (n >= space) {
    length += 1;
    space *= BASE;
  }
  // Each half must fit the 32-bit hash: 12 characters at most (31^12 pledges).
  if (length > 12) throw new Error(`pledge number ${n} is out of range`);
  const lowest = Math.max(referenceKey.from, length === REFERENCE_BODY_LENGTH ? 1 : space / BASE);
  const key = BigInt(referenceKey.key);
  let x = keyedShuffle(n, length, key);
  while (x < lowest) x = keyedShuffle(x, length, key);
  return referenceFor(x, prefix);
}

const ALL_BODY_CHARS = new RegExp(`^[${REFERENCE_ALPHABET}]+$`);

/**
 * Reads what a person typed ("mrj 7k4q 2", "MRJ7K4Q2", "MRJ-7K4Q-2") as a reference in canonical
 * form, or null when it is not one: wrong characters, wrong length or a failed check character.
 */
export function parseReference(input: string): string | null {
  const groups = input
    .toUpperCase()
    .split(/[\s\-_.]+/)
    .filter(Boolean);
  // Typed in its three groups ("mrj 7k4q 2"): the groups say where the body is. Typed in one
  // piece ("MRJ7K4Q2"): the usual 4-character body (a 5-character one needs its groups).
  const [prefix, body, check] =
    groups.length === 3
      ? groups
      : groups.length === 1 && groups[0]!.length > REFERENCE_BODY_LENGTH + 1
        ? [
            groups[0]!.slice(0, -(REFERENCE_BODY_LENGTH + 1)),
            groups[0]!.slice(-(REFERENCE_BODY_LENGTH + 1), -1),
            groups[0]!.slice(-1),
          ]
        : [];
  if (prefix === undefined || body === undefined || check === undefined) return null;
  if (!REFERENCE_PREFIX_PATTERN.test(prefix) || check.length !== 1) return null;
  if (body.length < REFERENCE_BODY_LENGTH || !ALL_BODY_CHARS.test(body + check)) return null;
  return checkCharacter(body) === check ? `${prefix}-${body}-${check}` : null;
}

/**
 * Every well-formed reference with one of `prefixes` inside free text (a bank statement's
 * description): spaces, dashes and case do not matter, and the text around it may be anything.
 */
export function findReferences(text: string, prefixes: readonly string[]): string[] {
  const compact = text.toUpperCase().replace(/[\s\-_.:#/]/g, '');
  const found = new Set<string>();
  for (const prefix of prefixes) {
    let at = compact.indexOf(prefix);
    while (at >= 0) {
      for (const length of [REFERENCE_BODY_LENGTH, REFERENCE_BODY_LENGTH + 1]) {
        const candidate = compact.slice(at, at + prefix.length + length + 1);
        const body = candidate.slice(prefix.length, prefix.length + length);
        const check = candidate.slice(prefix.length + length);
        if (
          check.length === 1 &&
          ALL_BODY_CHARS.test(body + check) &&
          checkCharacter(body) === check
        )
          found.add(`${prefix}-${body}-${check}`);
      }
      at = compact.indexOf(prefix, at + 1);
    }
  }
  return [...found];
}
