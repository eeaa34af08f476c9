import { maskEmail, seesDonorEmails, type AdminRole } from '@shared/admin-roles';
import { pledgeDisplayName } from '@shared/format';
import { convertAmount, PAYMENT_STATE_LABEL, paymentSummary } from '@shared/received';
import type { DonorPledgeView } from '@shared/schemas/email';
import type { AdminPledge, PublicPledge } from '@shared/schemas/pledge';
import type { ProposedPledge } from '@shared/schemas/statement';
import type { RecentPledge } from '../../read-model/snapshot';
import type { EmailData } from '../email/templates/layout';
import type { PledgeRow, TimedPledgeRow } from './repo';

/**
 * Every view of a pledge row in one file: what admins, the public, the donor, the e-mails, the
 * statement review and the CSV export see. A field added to a pledge is shown (or kept private)
 * here, not in six mappers that drift apart.
 */

/**
 * What arrived, as the API shows it: whole units of the spec era, with cents when cents arrived
 * (12.34). A paid row written without received fields (older code, direct SQL) counts as paid in
 * full.
 */
function receivedOf(r: PledgeRow) {
  if (!r.isPaid) return { amountReceived: null, currencyReceived: null, amountReceivedMinor: null };
  const currencyReceived = r.currencyReceived ?? r.currency;
  const amountReceivedMinor =
    r.amountReceivedMinor ??
    (r.amountReceived ?? convertAmount(r.amount, r.currency, currencyReceived)) * 100;
  return { amountReceived: amountReceivedMinor / 100, currencyReceived, amountReceivedMinor };
}

/** The payment state and balances of a row (shared/received.ts), in cents. */
function summaryOf(r: PledgeRow) {
  return paymentSummary({
    amount: r.amount,
    currency: r.currency,
    isPaid: r.isPaid,
    amountReceived: r.amountReceived,
    currencyReceived: r.currencyReceived,
    receivedMinor: r.receivedMinor,
  });
}

export function toAdminPledge(r: PledgeRow): AdminPledge {
  const received = receivedOf(r);
  const summary = summaryOf(r);
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    amount: r.amount,
    currency: r.currency,
    containers: r.containers,
    isAnonymous: r.isAnonymous,
    isPaid: r.isPaid,
    paymentConfirmedAt: r.paymentConfirmedAt ? r.paymentConfirmedAt.toISOString() : null,
    createdAt: r.createdAt.toISOString(),
    reference: r.reference,
    ...received,
    receivedMinor: summary.receivedMinor,
    outstandingAmount: summary.outstandingMinor / 100,
    outstandingMinor: summary.outstandingMinor,
    overpaidMinor: summary.overpaidMinor,
    paymentState: summary.state,
    pledgeStatus: r.status,
  };
}

/** The personal fields of a pledge: never copied into the audit log. */
const PERSONAL_FIELDS = ['name', 'email'] as const;

/**
 * A pledge as the audit log keeps it: the admin view without name and e-mail. The entry names the
 * pledge by id and reference, so deleting or erasing the pledge leaves no copy of who gave.
 */
export function toAuditPledge(r: PledgeRow): Omit<AdminPledge, 'name' | 'email'> {
  const { name: _name, email: _email, ...rest } = toAdminPledge(r);
  return rest;
}

/**
 * The details of a pledge.edit entry: before and after of amounts; a changed name or e-mail only
 * by its field name.
 */
export function auditEditDetails(
  keys: readonly (keyof AdminPledge)[],
  before: AdminPledge,
  after: AdminPledge,
): Record<string, unknown> {
  const isPersonal = (k: keyof AdminPledge) => (PERSONAL_FIELDS as readonly string[]).includes(k);
  const plain = keys.filter((k) => !isPersonal(k));
  const personal = keys.filter(isPersonal);
  return {
    before: Object.fromEntries(plain.map((k) => [k, before[k]])),
    after: Object.fromEntries(plain.map((k) => [k, after[k]])),
    ...(personal.length > 0 ? { personalDataChanged: personal } : {}),
  };
}

/** The admin row as a role may see it: the viewer's has the donor's e-mail masked. */
export function forRole(p: AdminPledge, role: AdminRole): AdminPledge {
  return seesDonorEmails(role) ? p : { ...p, email: maskEmail(p.email) };
}

/**
 * The public view (privacy rule, docs/decisions/010-product-rules.md): an allow-list of keys, and
 * no real name behind "Anonymous".
 */
function toPublicPledge(r: PledgeRow): PublicPledge {
  return {
    id: r.id,
    name: pledgeDisplayName(r),
    amount: r.amount,
    currency: r.currency,
    containers: r.containers,
    isAnonymous: r.isAnonymous,
    createdAt: r.createdAt.toISOString(),
  };
}

/** A new or listed row as the snapshot keeps it among the newest. */
export function toRecentPledge(r: TimedPledgeRow): RecentPledge {
  return { micros: r.createdMicros, id: r.id, pledge: toPublicPledge(r) };
}

/** The answer to POST /api/pledges: the public view, and the donor's own reference and link. */
export function toCreatedPledge(r: PledgeRow, statusUrl: string | undefined) {
  return {
    ...toPublicPledge(r),
    isPaid: r.isPaid,
    reference: r.reference,
    ...(statusUrl !== undefined ? { statusUrl } : {}),
  };
}

/** The donor's own view on the status page: never the e-mail address. */
export function toDonorView(
  pledge: PledgeRow,
  link: { donorSaysSentAt: Date | null },
): DonorPledgeView {
  const admin = toAdminPledge(pledge);
  return {
    id: pledge.id,
    name: pledge.name,
    amount: pledge.amount,
    currency: pledge.currency,
    containers: pledge.containers,
    createdAt: admin.createdAt,
    status: admin.paymentState,
    reference: admin.reference,
    amountReceived: admin.amountReceived,
    currencyReceived: admin.currencyReceived,
    outstandingAmount: admin.outstandingAmount,
    amountReceivedMinor: admin.amountReceivedMinor,
    receivedMinor: admin.receivedMinor,
    outstandingMinor: admin.outstandingMinor,
    overpaidMinor: admin.overpaidMinor,
    paymentConfirmedAt: admin.paymentConfirmedAt,
    donorSaysSentAt: link.donorSaysSentAt?.toISOString() ?? null,
    pledgeStatus: pledge.status,
    deliveryNews: pledge.newsConsentAt !== null,
  };
}

/** The e-mail templates' view of a pledge, with the payment reference and what arrived. */
export function toEmailPledge(row: PledgeRow): EmailData['pledge'] {
  const admin = toAdminPledge(row);
  return {
    name: row.name,
    amount: row.amount,
    currency: row.currency,
    containers: row.containers,
    createdAt: row.createdAt,
    reference: row.reference,
    amountReceived: admin.amountReceived,
    currencyReceived: admin.currencyReceived,
    outstandingAmount: admin.outstandingAmount,
    amountReceivedMinor: admin.amountReceivedMinor,
    outstandingMinor: admin.outstandingMinor,
    overpaidMinor: admin.overpaidMinor,
    paymentConfirmedAt: row.paymentConfirmedAt,
  };
}

/** The statement review's view of a proposed pledge: what is still owed. */
export function toProposedPledge(p: PledgeRow): ProposedPledge {
  const a = toAdminPledge(p);
  // Any state past "part paid" (paid, over paid) owes nothing more.
  const state =
    a.paymentState === 'pending' || a.paymentState === 'part-paid' ? a.paymentState : 'paid';
  return {
    id: p.id,
    name: p.name,
    reference: p.reference,
    amount: p.amount,
    currency: p.currency,
    paymentState: state,
    outstandingAmount: a.outstandingAmount,
  };
}

/**
 * Spreadsheets run a cell that starts with = + - @ (or a tab/CR before one) as a formula:
 * prefix it with ' so it is shown as text (OWASP "CSV injection").
 */
function neutraliseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** 1234 cents -> "12.34": a plain number a spreadsheet reads, without a currency sign. */
function decimal(minor: number): string {
  return `${Math.trunc(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
}

/** One CSV record, in the order of CSV_COLUMNS (csv.ts). */
export function toCsvRecord(r: PledgeRow & { dateReceived: string | null }): string[] {
  const p = toAdminPledge(r);
  return [
    r.id,
    neutraliseFormula(r.name),
    neutraliseFormula(r.email),
    String(r.amount),
    r.currency,
    String(r.containers),
    r.isAnonymous ? 'yes' : 'no',
    PAYMENT_STATE_LABEL[p.paymentState],
    r.paymentConfirmedAt ? r.paymentConfirmedAt.toISOString() : '',
    r.createdAt.toISOString(),
    r.reference,
    p.amountReceivedMinor !== null && p.amountReceivedMinor !== undefined
      ? decimal(p.amountReceivedMinor)
      : '',
    p.currencyReceived ?? '',
    decimal(p.outstandingMinor ?? 0),
    r.dateReceived ?? '',
  ];
}
