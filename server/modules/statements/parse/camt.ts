import { XMLParser } from 'fast-xml-parser';
import { badRequest } from '../../../lib/http-error';
import { currencyOf, emptyRead, Fingerprints, skipLine, type ReadLines } from '../parse';
import { parseAmount } from './amount';
import { Slicer } from './slicer';

type Node = Record<string, unknown>;
const str = (v: unknown): string =>
  typeof v === 'string'
    ? v.trim()
    : v && typeof v === 'object' && '#text' in v
      ? str((v as Node)['#text'])
      : '';
const node = (v: unknown): Node => (v && typeof v === 'object' ? (v as Node) : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
const oneSpace = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * No DOCTYPE (so no entity definitions to expand, no external entities); fast-xml-parser never
 * fetches anything and its own entity limits stay on.
 */
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: { enabled: true, maxEntityCount: 0, maxTotalExpansions: 10_000 },
  isArray: (name) => ['Stmt', 'Ntry', 'NtryDtls', 'TxDtls', 'Ustrd'].includes(name),
});

function parseXml(fragment: string): Node {
  try {
    return node(parser.parse(fragment));
  } catch {
    throw badRequest('This CAMT.053 file could not be read. Export the statement again.');
  }
}

/** 1-based line of each offset in text, for offsets in increasing order. */
function lineCounter(text: string) {
  let at = 0;
  let line = 1;
  return (offset: number) => {
    for (; at < offset; at++) if (text.charCodeAt(at) === 10) line++;
    return line;
  };
}

/**
 * ISO 20022 CAMT.053 (bank-to-customer statement) through fast-xml-parser: each <Stmt>'s account
 * and then each <Ntry> parsed on its own, in slices. Kept: CRDT entries with status BOOK; the
 * amount with its Ccy; the reference from RmtInf/Ustrd (or EndToEndId), the payer from
 * RltdPties/Dbtr/Nm. An entry batching several transfers gives one line per TxDtls with its own
 * amount. The fingerprint is the bank's entry reference (AcctSvcrRef, else NtryRef), else the
 * entry's content.
 */
export async function readCamt(text: string, slicer = new Slicer()): Promise<ReadLines> {
  if (/<!DOCTYPE|<!ENTITY/i.test(text))
    throw badRequest('This XML file declares a DOCTYPE, which a CAMT.053 statement never has.');
  const out = emptyRead();
  const prints = new Fingerprints();
  const lineOf = lineCounter(text);
  const stmtPattern = /<((?:[\w-]+:)?)Stmt\b[^>]*>[\s\S]*?<\/\1Stmt>/g;
  const statements = [...text.matchAll(stmtPattern)];
  if (statements.length === 0) throw badRequest('This CAMT.053 file holds no statement (Stmt).');
  let position = 0;
  for (const statement of statements) {
    const body = statement[0];
    const ntryPattern = /<((?:[\w-]+:)?)Ntry\b[^>]*>[\s\S]*?<\/\1Ntry>/g;
    const stmt = node(list(parseXml(body.replace(ntryPattern, '')).Stmt)[0]);
    const acct = node(stmt.Acct);
    const id = node(acct.Id);
    const account = str(id.IBAN) || str(node(id.Othr).Id);
    for (const m of body.matchAll(ntryPattern)) {
      await slicer.pause();
      const line = lineOf(statement.index + m.index);
      const entry = node(list(parseXml(m[0]).Ntry)[0]);
      const refuse = (reason: string) => out.refused.push({ line, reason });
      const details = list(entry.NtryDtls).flatMap((d) => list(node(d).TxDtls).map(node));
      const status = str(entry.Sts) || str(node(entry.Sts).Cd);
      const credit = str(entry.CdtDbtInd) === 'CRDT';
      const entryRef = str(entry.AcctSvcrRef) || str(entry.NtryRef);
      const booked = node(entry.BookgDt);
      const bookedOn = (str(booked.Dt) || str(booked.DtTm)).slice(0, 10);
      // A batch: one line per transfer with its own amount; else the entry is the line.
      const parts: { amount: unknown; tx: Node }[] =
        details.length > 1 && details.every((d) => d.Amt !== undefined)
          ? details.map((tx) => ({ amount: tx.Amt, tx }))
          : [{ amount: entry.Amt, tx: details[0] ?? {} }];
      for (const [i, { amount: amt, tx }] of parts.entries()) {
        out.fileLines++;
        const at = position++;
        if (!credit) {
          skipLine(out, line, 'moneyOut');
          continue;
        }
        if (status !== 'BOOK') {
          skipLine(out, line, 'notCompleted');
          continue;
        }
        const amount = parseAmount(str(amt), '.');
        if (amount.kind !== 'amount') {
          refuse(amount.kind === 'refused' ? `Amount ${amount.reason}.` : 'No amount (Amt).');
          continue;
        }
        if (amount.cents <= 0) {
          skipLine(out, line, 'other');
          continue;
        }
        const code = str(node(amt)['@Ccy']);
        const currency = currencyOf(code);
        if (!currency) {
          refuse(`Currency "${code}" is neither USD nor JMD.`);
          continue;
        }
        if (!/^\d{4}-\d{2}-\d{2}$/.test(bookedOn) || Number.isNaN(Date.parse(bookedOn))) {
          refuse(`"${bookedOn}" is not a booking date (BookgDt).`);
          continue;
        }
        const refs = node(tx.Refs);
        const endToEnd = str(refs.EndToEndId);
        const rmt = node(tx.RmtInf);
        const remittance = oneSpace(
          [...list(rmt.Ustrd).map(str), str(node(node(node(rmt.Strd).CdtrRefInf)).Ref)].join(' '),
        );
        const parties = node(tx.RltdPties);
        const debtor = node(parties.Dbtr);
        const payer = oneSpace(str(debtor.Nm) || str(node(debtor.Pty).Nm));
        const description =
          remittance ||
          (endToEnd && endToEnd !== 'NOTPROVIDED' ? endToEnd : '') ||
          oneSpace(str(entry.AddtlNtryInf));
        out.lines.push({
          fingerprint: prints.of(
            'camt',
            entryRef ? [account, entryRef, String(i)] : [account, oneSpace(m[0]), String(i)],
          ),
          bookedOn,
          amountCents: amount.cents,
          currency,
          description,
          payer,
          position: at,
          line,
          raw: {
            account,
            entryRef,
            endToEnd,
            amount: str(amt),
            currency: code,
            bookedOn,
            description,
            payer,
          },
        });
      }
    }
  }
  return out;
}
