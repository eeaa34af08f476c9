import type { Currency } from '@shared/constants';

/**
 * Amounts as banks write them (docs/decisions/013-statement-matching.md): currency symbols and
 * codes, both thousands styles, parentheses, a leading, trailing or Unicode minus and CR/DR
 * markers. Whatever could mean two different sums is refused with the reason, never guessed.
 */
export type Amount =
  | { kind: 'empty' }
  | { kind: 'amount'; cents: number; currency?: Currency }
  | { kind: 'refused'; reason: string };

/** Which character is the decimal point, when the rest of the file says so. */
export type DecimalStyle = '.' | ',';

const CURRENCY_TOKENS: [RegExp, RegExp, Currency | null][] = [
  // Longest first: "US$" before "$"; "$" alone could be either dollar, it tells nothing.
  [/^US\$/i, /US\$$/i, 'USD'],
  [/^J\$/i, /J\$$/i, 'JMD'],
  [/^USD(?![A-Z])/i, /(?<![A-Z])USD$/i, 'USD'],
  [/^JMD(?![A-Z])/i, /(?<![A-Z])JMD$/i, 'JMD'],
  [/^\$/, /\$$/, null],
];
// A marker is a word of its own: "10.00 Cr.", "10.00CR", "DR 10.00"; never the D of "JMD".
const LEADING_MARKER = /^(CR|DR|C|D)\.?(?=[\s\d$(+-]|$)/i;
const TRAILING_MARKER = /(?<=[\s\d)]|^)(CR|DR|C|D)\.?$/i;
const MINUSES = /[\u2212\u2012\u2013\u2014\uFE63\uFF0D]/g;
const SPACES = /[\s\u00a0\u2007\u202f]+/g;

/** Reads one amount cell. */
export function parseAmount(raw: string, style?: DecimalStyle): Amount {
  let s = raw.replace(MINUSES, '-').replace(SPACES, ' ').trim();
  if (!s) return { kind: 'empty' };
  const refuse = (reason: string): Amount => ({
    kind: 'refused',
    reason: `"${raw.trim()}": ${reason}`,
  });
  let signs = 0;
  let negative = false;
  let marker: 'CR' | 'DR' | null = null;
  let currency: Currency | null = null;
  let currencies = 0;
  const paren = /^\((.*)\)$/.exec(s);
  if (paren) {
    s = paren[1]!.trim();
    signs++;
    negative = true;
  }
  for (let changed = true; changed && s;) {
    changed = false;
    for (const [lead, trail, code] of CURRENCY_TOKENS) {
      const m = lead.exec(s) ?? trail.exec(s);
      if (m) {
        s = (m.index === 0 ? s.slice(m[0].length) : s.slice(0, m.index)).trim();
        if (code && currency && code !== currency) return refuse('two currencies');
        if (code) currency = code;
        currencies++;
        changed = true;
        break;
      }
    }
    if (changed) continue;
    const m = LEADING_MARKER.exec(s) ?? TRAILING_MARKER.exec(s);
    if (m) {
      if (marker) return refuse('two credit/debit markers');
      marker = m[1]!.toUpperCase().startsWith('C') ? 'CR' : 'DR';
      s = (m.index === 0 ? s.slice(m[0].length) : s.slice(0, m.index)).trim();
      changed = true;
      continue;
    }
    const sign = /^[-+]/.exec(s) ?? /[-+]$/.exec(s);
    if (sign) {
      signs++;
      if (sign[0] === '-') negative = true;
      s = (sign.index === 0 ? s.slice(1) : s.slice(0, -1)).trim();
      changed = true;
      continue;
    }
    const inner = /^\((.*)\)$/.exec(s);
    if (inner) {
      s = inner[1]!.trim();
      signs++;
      negative = true;
      changed = true;
    }
  }
  if (currencies > 2) return refuse('more than one currency');
  if (signs > 1) return refuse('more than one sign');
  if ((marker && negative) || (marker === 'DR' && signs > 0))
    return refuse(`both a sign and ${marker}: is it money in or out?`);
  if (marker === 'DR') negative = true;
  if (!s) return refuse('no number');
  // Thousands written with spaces or apostrophes (1 234,56; 1'234.56).
  s = s.replace(/(?<=(?:^|[ '])\d{1,3})[ '](?=\d{3}(?![\d]))/g, '');
  if (/\d\s+\d/.test(s)) return refuse('two numbers');
  if (!/^[\d.,]+$/.test(s))
    return /\d/.test(s) ? refuse('not one number') : refuse('not an amount');
  const cents = toCents(s, style);
  if (typeof cents === 'string') return refuse(cents);
  if (!Number.isSafeInteger(cents)) return refuse('too large');
  return {
    kind: 'amount',
    cents: negative && cents !== 0 ? -cents : cents,
    ...(currency ? { currency } : {}),
  };
}

/** Digits with separators to cents, or the reason it cannot be read for certain. */
function toCents(s: string, style: DecimalStyle | undefined): number | string {
  const dots = s.split('.').length - 1;
  const commas = s.split(',').length - 1;
  let decimal: DecimalStyle | null = null;
  if (dots && commas) {
    decimal = s.lastIndexOf('.') > s.lastIndexOf(',') ? '.' : ',';
  } else if (dots + commas === 1) {
    const sep = dots ? '.' : ',';
    const after = s.length - s.indexOf(sep) - 1;
    if (after === 1 || after === 2) decimal = sep;
    else if (after === 3) {
      // 1,234 is 1234 in one style and 1.234 in the other: only the file's other amounts can say.
      if (!style)
        return `could be ${s.replace(/[.,]/g, '')} or ${s.replace(/[.,]/, '.')}; export amounts with two decimals`;
      if (style === sep) return 'three decimals';
    } else return after === 0 ? 'ends with a separator' : 'not a valid amount';
  } else if (dots + commas > 1) {
    // 1,234,567 or 1.234.567: thousands only (checked below).
    decimal = null;
  }
  let whole = s;
  let frac = '';
  if (decimal) {
    const at = s.lastIndexOf(decimal);
    whole = s.slice(0, at);
    frac = s.slice(at + 1);
    if (whole.includes(decimal)) return 'two decimal points';
    if (frac.length > 2) return 'more than two decimals';
    if (frac.length === 0) return 'ends with a separator';
  }
  const thousands = whole.replace(/\d/g, '');
  if (thousands) {
    if (new Set(thousands).size > 1) return 'mixed separators';
    const sep = thousands[0] === '.' ? '\\.' : ',';
    if (!new RegExp(`^\\d{1,3}(${sep}\\d{3})+$`).test(whole))
      return 'separators in the wrong places';
  }
  const digits = whole.replace(/[.,]/g, '');
  if (!digits) return 'no digits before the decimal point';
  return Number(digits) * 100 + Number((frac + '00').slice(0, 2));
}

/**
 * The decimal point the file uses, from its amounts that say it for certain (1,234.56, 12.50,
 * 75,00); undefined when they say nothing or disagree. Cells that do not read as an amount on
 * their own (a malformed 1.234.5) say nothing. Sliced: a file has up to 60,000 amount cells.
 */
export async function decimalStyleOf(
  cells: Iterable<string>,
  slicer?: { pause(): Promise<void> },
): Promise<DecimalStyle | undefined> {
  let dot = 0;
  let comma = 0;
  let n = 0;
  for (const cell of cells) {
    if (++n % 500 === 0) await slicer?.pause();
    const m = /([.,])\d{1,2}(?!\d)(?=[^\d.,]*$)/.exec(cell);
    if (!m || parseAmount(cell).kind !== 'amount') continue;
    if (m[1] === '.') dot++;
    else comma++;
  }
  if (dot && !comma) return '.';
  if (comma && !dot) return ',';
  return undefined;
}
