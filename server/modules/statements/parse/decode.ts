import {
  STATEMENT_MAX_BYTES,
  STATEMENT_TOO_LARGE,
  type StatementFormat,
} from '@shared/schemas/statement';
import { badRequest } from '../../../lib/http-error';
import { NOT_CSV } from './csv';
import { Slicer } from './slicer';

const TOO_SHORT =
  'This file is too short to hold a statement. Export the statement again and choose that file.';
const CONTROL =
  'This file is not a CSV file: it holds control characters (such as NUL) that a text export never has. Export the statement again as CSV, OFX or CAMT.053.';

const SLICE = 512 * 1024;

/** Base64 to bytes in slices (a 5 MB file is ~7 MB of base64: ~100-200 ms in one go). */
export async function fromBase64(base64: string, slicer: Slicer): Promise<Buffer> {
  // Slices of 4-character groups decode on their own; line breaks would shift them.
  const content = /\s/.test(base64) ? base64.replace(/\s+/g, '') : base64;
  const parts: Buffer[] = [];
  for (let at = 0; at < content.length; at += SLICE) {
    parts.push(Buffer.from(content.slice(at, at + SLICE), 'base64'));
    await slicer.pause();
  }
  return Buffer.concat(parts);
}

async function decodeIn(bytes: Buffer, encoding: string, fatal: boolean, slicer: Slicer) {
  const decoder = new TextDecoder(encoding, { fatal });
  let text = '';
  for (let at = 0; at < bytes.length; at += SLICE) {
    text += decoder.decode(bytes.subarray(at, at + SLICE), { stream: true });
    await slicer.pause();
  }
  return text + decoder.decode();
}

/**
 * The text of a statement file: UTF-8 (with or without BOM), UTF-16 by BOM, else Windows-1252.
 * Decoded and checked in slices.
 */
export async function decodeStatement(
  bytes: Buffer,
  slicer: Slicer = new Slicer(),
): Promise<{ text: string; encoding: string }> {
  if (bytes.length === 0) throw badRequest('The file is empty');
  if (bytes.length > STATEMENT_MAX_BYTES) throw badRequest(STATEMENT_TOO_LARGE);
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
    decoded = {
      text: await decodeIn(bytes.subarray(2), 'utf-16le', false, slicer),
      encoding: 'UTF-16LE',
    };
  else if (bytes[0] === 0xfe && bytes[1] === 0xff)
    decoded = {
      text: await decodeIn(bytes.subarray(2), 'utf-16be', false, slicer),
      encoding: 'UTF-16BE',
    };
  else {
    // NUL bytes do not occur in text: a binary file (an image, a spreadsheet) renamed .csv.
    if (bytes.includes(0)) throw badRequest(NOT_CSV);
    const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
    try {
      decoded = {
        text: await decodeIn(bom ? bytes.subarray(3) : bytes, 'utf-8', true, slicer),
        encoding: 'UTF-8',
      };
    } catch {
      // Not valid UTF-8: older banking exports are Windows-1252 (a superset of Latin-1).
      decoded = {
        text: await decodeIn(bytes, 'windows-1252', false, slicer),
        encoding: 'Windows-1252',
      };
    }
  }
  // Tab, CR and LF are the only control characters a statement holds.
  for (let at = 0; at < decoded.text.length; at += SLICE) {
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(decoded.text.slice(at, at + SLICE)))
      throw badRequest(CONTROL);
    await slicer.pause();
  }
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
