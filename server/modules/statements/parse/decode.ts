import { STATEMENT_MAX_BYTES, type StatementFormat } from '@shared/schemas/statement';
import { badRequest } from '../../../lib/http-error';
import { NOT_CSV } from './csv';

export const TOO_SHORT =
  'This file is too short to hold a statement. Export the statement again and choose that file.';
const CONTROL =
  'This file is not a CSV file: it holds control characters (such as NUL) that a text export never has. Export the statement again as CSV, OFX or CAMT.053.';

/** The text of a statement file: UTF-8 (with or without BOM), UTF-16 by BOM, else Windows-1252. */
export function decodeStatement(bytes: Buffer): { text: string; encoding: string } {
  if (bytes.length === 0) throw badRequest('The file is empty');
  if (bytes.length > STATEMENT_MAX_BYTES)
    throw badRequest('The file is larger than 5 MB. Export a shorter period.');
  if (bytes.length >= 4) {
    const head = bytes.subarray(0, 8);
    if (
      head.subarray(0, 4).toString('latin1') === '%PDF' ||
      head.subarray(0, 2).toString('latin1') === 'PK' ||
      head.readUInt32BE(0) === 0xd0cf11e0
    )
      throw badRequest(NOT_CSV);
  }
  let decoded: { text: string; encoding: string };
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    decoded = { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), encoding: 'UTF-16LE' };
  else if (bytes[0] === 0xfe && bytes[1] === 0xff)
    decoded = { text: new TextDecoder('utf-16be').decode(bytes.subarray(2)), encoding: 'UTF-16BE' };
  else {
    // NUL bytes do not occur in text: a binary file (an image, a spreadsheet) renamed .csv.
    if (bytes.includes(0)) throw badRequest(NOT_CSV);
    const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
    try {
      decoded = {
        text: new TextDecoder('utf-8', { fatal: true }).decode(bom ? bytes.subarray(3) : bytes),
        encoding: 'UTF-8',
      };
    } catch {
      // Not valid UTF-8: older banking exports are Windows-1252 (a superset of Latin-1).
      decoded = { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'Windows-1252' };
    }
  }
  // Tab, CR and LF are the only control characters a statement holds.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(decoded.text))
    throw badRequest(CONTROL);
  if (decoded.text.replace(/^\uFEFF/, '').trim().length < 8) throw badRequest(TOO_SHORT);
  return decoded;
}

/** OFX/QFX (SGML 1.x or XML 2.x), ISO 20022 CAMT.053, else CSV: from the content, not the name. */
export function detectFormat(text: string): StatementFormat {
  const head = text
    .slice(0, 4096)
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (/^OFXHEADER\s*:/i.test(head) || /<\?OFX\b/i.test(head) || /^<OFX>/i.test(head)) return 'ofx';
  if (head.startsWith('<')) {
    if (/<OFX>/i.test(text.slice(0, 64 * 1024))) return 'ofx';
    if (/camt\.053|<BkToCstmrStmt\b/.test(text.slice(0, 64 * 1024))) return 'camt053';
    throw badRequest(
      'This XML file is not a bank statement this page reads. Export the statement as CSV, OFX or CAMT.053.',
    );
  }
  return 'csv';
}
