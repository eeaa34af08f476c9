import { randomBytes } from 'node:crypto';
import { NEWS_CONSENT_LABEL } from '@shared/news';
import { PAYMENT_STATE_LABEL } from '@shared/received';
import type { Campaign } from '@shared/schemas/campaign';
import type { Db, DbOrTx } from '../../db/client';
import { writeAudit } from '../audit/repo';
import type { AuditActor } from '../pledges/service';
import type { PledgeRow } from '../pledges/repo';
import { toAdminPledge } from '../pledges/views';
import * as repo from './repo';

/**
 * Donors' rights and retention (Jamaica's Data Protection Act 2020): a donor downloads
 * and erases their data from the status page, an admin erases every pledge of one address, and the
 * retention rule anonymises all pledges after the campaign. Routes and the daily job call these.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** Everything the site holds about one pledge, as the donor downloads it. */
export async function exportDonorData(
  db: DbOrTx,
  pledge: PledgeRow,
  link: { donorSaysSentAt: Date | null },
  now: Date,
  noticeVersion: string | null,
) {
  const [payments, messages] = await Promise.all([
    repo.paymentsOf(db, pledge.id),
    repo.outboxOf(db, pledge.id),
  ]);
  const view = toAdminPledge(pledge);
  const history: { at: string; event: string }[] = [
    { at: pledge.createdAt.toISOString(), event: 'Pledge made' },
  ];
  if (link.donorSaysSentAt)
    history.push({
      at: link.donorSaysSentAt.toISOString(),
      event: 'You said the transfer was sent',
    });
  for (const p of payments) {
    history.push({ at: p.recordedAt.toISOString(), event: 'Payment recorded' });
    if (p.reversedAt) history.push({ at: p.reversedAt.toISOString(), event: 'Payment reversed' });
  }
  history.sort((a, b) => a.at.localeCompare(b.at));
  return {
    exportedAt: now.toISOString(),
    pledge: {
      id: view.id,
      reference: view.reference,
      name: view.name,
      email: view.email,
      amount: view.amount,
      currency: view.currency,
      containers: view.containers,
      isAnonymous: view.isAnonymous,
      createdAt: view.createdAt,
      status: PAYMENT_STATE_LABEL[view.paymentState],
      amountReceived: view.amountReceived,
      currencyReceived: view.currencyReceived,
      paymentConfirmedAt: view.paymentConfirmedAt,
    },
    payments: payments.map((p) => ({
      amountMinor: p.amountMinor,
      currency: p.currency,
      bookedOn: p.bookedOn,
      recordedAt: p.recordedAt.toISOString(),
      reversedAt: p.reversedAt?.toISOString() ?? null,
    })),
    emails: messages.map((m) => ({
      kind: m.kind,
      to: view.email,
      queuedAt: m.createdAt.toISOString(),
      sentAt: m.sentAt?.toISOString() ?? null,
      status: m.sentAt ? 'sent' : m.failedAt ? 'failed' : 'waiting',
    })),
    consent: {
      /** The notice in force when this was downloaded. */
      privacyNoticeVersion: noticeVersion,
      /** "E-mail me when containers are delivered": whether it stands, since when, which wording. */
      deliveryNews: pledge.newsConsentAt !== null,
      deliveryNewsConsentAt: pledge.newsConsentAt?.toISOString() ?? null,
      deliveryNewsWording: pledge.newsConsentVersion
        ? { version: pledge.newsConsentVersion, text: NEWS_CONSENT_LABEL }
        : null,
      deliveryNewsWithdrawnAt: pledge.newsWithdrawnAt?.toISOString() ?? null,
    },
    statusHistory: history,
  };
}

/**
 * Erases the name and e-mail of these pledges (repo.erasePledges says what else), with one audit
 * entry per pledge that names it by id and reference only.
 */
export async function erasePledges(
  tx: DbOrTx,
  ids: string[],
  opts: { actor: AuditActor; now: Date; by: 'donor' | 'admin' | 'retention' },
): Promise<number> {
  const erased = await repo.erasePledges(tx, ids, randomBytes(8).toString('hex'), opts.now);
  await writeAudit(
    tx,
    opts.actor,
    erased.map((r) => ({
      action: 'pledge.erase' as const,
      targetType: 'pledge',
      targetId: r.id,
      pledgeId: r.id,
      pledgeReference: r.reference,
      details: { by: opts.by },
    })),
  );
  return erased.length;
}

/** The admin's erasure of every pledge of one address (a request by letter). */
export async function eraseEmail(
  tx: DbOrTx,
  email: string,
  opts: { actor: AuditActor; now: Date },
): Promise<number> {
  const ids = await repo.pledgeIdsOfEmail(tx, email);
  return erasePledges(tx, ids, { ...opts, by: 'admin' });
}

/** When the retention rule anonymises every pledge, or null without a rule in the config. */
export function anonymiseOn(campaign: Campaign): Date | null {
  const p = campaign.privacy;
  if (!p) return null;
  // retentionDays after the campaign's end date, at the start of that day in Jamaica (UTC-5, no DST).
  const end = Date.parse(`${p.campaignEndsOn}T00:00:00-05:00`);
  return new Date(end + p.retentionDays * DAY_MS);
}

/** The retention rule, run by the daily job: a no-op before the day and once everything is done. */
export async function anonymiseIfDue(
  db: Db,
  campaign: Campaign,
  now: Date,
): Promise<number | undefined> {
  const due = anonymiseOn(campaign);
  if (!due || now < due) return undefined;
  return db.transaction(async (tx) => {
    const ids = await repo.unerasedPledgeIds(tx);
    return erasePledges(tx, ids, { actor: { clientIp: null }, now, by: 'retention' });
  });
}
