import { parseSync } from 'ofx-js';
import { badRequest } from '../../../lib/http-error';
import {
  currencyOf,
  emptyRead,
  Fingerprints,
  skipLine,
  type ReadLines,
  type StatementLine,
} from '../parse';
import { parseAmount } from './amount';
import { Slicer } from './slicer';

type Fields = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
const oneSpace = (s: string) => s.replace(/\s+/g, ' ').trim();

/** 1-based line of each offset in text, for offsets in increasing order. */
function lineCounter(text: string) {
  let at = 0;
  let line = 1;
  return (offset: number) => {
    for (; at < offset; at++) if (text.charCodeAt(at) === 10) line++;
    return line;
  };
}

function parseOfx(fragment: string): Fields {
  try {
    return parseSync(`OFXHEADER:100\n<OFX>${fragment}</OFX>`).OFX as Fields;
  } catch {
    throw badRequest('This OFX file could not be read. Export the statement again.');
  }
}

/**
 * OFX/QFX statements (SGML OFX 1.x and XML OFX 2.x) through ofx-js. Each statement's envelope
 * (account, currency) and then each <STMTTRN> is parsed on its own, in slices, so a large file
 * never holds the event loop. A credit is TRNAMT > 0; the fingerprint is the account and FITID,
 * the bank's own id of the transaction.
 */
export async function readOfx(text: string, slicer = new Slicer()): Promise<ReadLines> {
  const out = emptyRead();
  const prints = new Fingerprints();
  const lineOf = lineCounter(text);
  const statements = [...text.matchAll(/<(CC)?STMTRS>[\s\S]*?<\/(CC)?STMTRS>/gi)];
  if (statements.length === 0) {
    if (!/<OFX>/i.test(text)) throw badRequest('This OFX file holds no bank statement.');
    return out;
  }
  let position = 0;
  for (const statement of statements) {
    const body = statement[0];
    const trnPattern = /<STMTTRN>[\s\S]*?<\/STMTTRN>/gi;
    const envelope = parseOfx(body.replace(trnPattern, ''));
    const rs = (envelope.STMTRS ?? envelope.CCSTMTRS ?? {}) as Fields;
    const account = (rs.BANKACCTFROM ?? rs.CCACCTFROM ?? {}) as Fields;
    const accountId = `${str(account.BANKID)}/${str(account.ACCTID)}`;
    const curdef = str(rs.CURDEF);
    for (const m of body.matchAll(trnPattern)) {
      await slicer.pause();
      out.fileLines++;
      const line = lineOf(statement.index + m.index);
      const at = position++;
      const t = (parseOfx(m[0]).STMTTRN ?? {}) as Fields;
      const refuse = (reason: string) => out.refused.push({ line, reason });
      const amount = parseAmount(str(t.TRNAMT), '.');
      if (amount.kind !== 'amount') {
        refuse(amount.kind === 'refused' ? `Amount ${amount.reason}.` : 'No amount (TRNAMT).');
        continue;
      }
      if (amount.cents < 0) {
        skipLine(out, line, 'moneyOut');
        continue;
      }
      if (amount.cents === 0) {
        skipLine(out, line, 'other');
        continue;
      }
      const posted = /^(\d{4})(\d{2})(\d{2})/.exec(str(t.DTPOSTED));
      const bookedOn = posted ? `${posted[1]}-${posted[2]}-${posted[3]}` : '';
      if (!posted || Number.isNaN(Date.parse(bookedOn))) {
        refuse(`"${str(t.DTPOSTED)}" is not a date (DTPOSTED).`);
        continue;
      }
      const code = str((t.CURRENCY as Fields | undefined)?.CURSYM) || curdef;
      const currency = currencyOf(code);
      if (!currency) {
        refuse(`Currency "${code}" is neither USD nor JMD.`);
        continue;
      }
      const fitid = str(t.FITID);
      const name = oneSpace(str(t.NAME) || str((t.PAYEE as Fields | undefined)?.NAME));
      const memo = oneSpace(str(t.MEMO));
      const raw = Object.fromEntries(
        Object.entries(t).filter(([, v]) => typeof v === 'string'),
      ) as Record<string, string>;
      const statementLine: StatementLine = {
        fingerprint: prints.of('ofx', fitid ? [accountId, fitid] : [accountId, oneSpace(m[0])]),
        bookedOn,
        amountCents: amount.cents,
        currency,
        description: memo || name,
        payer: name,
        position: at,
        line,
        raw,
      };
      out.lines.push(statementLine);
    }
  }
  return out;
}
