import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { AdminEmailMessage } from '@shared/schemas/email';
import type { AppConfig } from '../../config';
import type { Database, DbOrTx } from '../../db/client';
import { AttemptLimit } from '../../lib/attempt-limit';
import { clientKey } from '../../lib/client-key';
import { notFound } from '../../lib/http-error';
import { siteBaseUrl } from '../../lib/site-url';
import * as adminRepo from '../admin/repo';
import { audited } from '../audit/repo';
import * as pledgeRepo from '../pledges/repo';
import { fileMailer, smtpMailer } from './mailer';
import * as repo from './repo';
import { hashToken, StatusLinks, tokenMatches } from './status-links';
import { EmailWorker } from './worker';

export interface EmailService {
  links: StatusLinks;
  /** Wrong status links per client key (page and API share it). */
  statusLimit: AttemptLimit;
  worker: EmailWorker;
  /** Inside the pledges' transaction: their links and instructions e-mails (within the caps). */
  enqueueNewPledges(
    tx: DbOrTx,
    rows: { id: string; email: string; clientKey?: string | null }[],
  ): Promise<void>;
  enqueue(tx: DbOrTx, pledgeId: string, kind: repo.OutboxKind): Promise<void>;
  /**
   * Inside the reminder scheduler's claim transaction (server/modules/reminders): step `step` of
   * the schedule, queued at `now` (the app's clock, which the per-recipient cap counts by).
   */
  enqueueReminder(tx: DbOrTx, pledgeId: string, step: number, now: Date): Promise<void>;
  /** Which of these addresses may get one more e-mail today (MAIL_PER_ADDRESS_PER_DAY). */
  underAddressCap(tx: DbOrTx, emails: string[], now: Date): Promise<Map<string, number>>;
  donorSaysSentFor: typeof repo.donorSaysSentFor;
  /** Messages neither sent nor given up (all instances): the metrics' outbox backlog. */
  countWaiting(): Promise<number>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Which new pledges get their instructions e-mail: anyone can pledge with
 * anyone's address, so at most `mailPerAddressPerDay` go to one address and
 * `mailPerClientPerDay` are caused by one client key in 24 hours (0: no cap). The pledges
 * themselves are all stored, and each donor sees the instructions on screen. Concurrent
 * transactions (PostgreSQL) may each see the same count, so a race can pass a cap by a few.
 */
async function withinMailCaps(
  tx: DbOrTx,
  config: Pick<AppConfig, 'mailPerAddressPerDay' | 'mailPerClientPerDay' | 'now'>,
  rows: { email: string; clientKey?: string | null }[],
): Promise<boolean[]> {
  const perAddress = config.mailPerAddressPerDay;
  const perClient = config.mailPerClientPerDay;
  if (perAddress <= 0 && perClient <= 0) return rows.map(() => true);
  // Only what a cap needs: with no per-client cap the client keys are not looked up at all.
  const emails = perAddress > 0 ? [...new Set(rows.map((r) => r.email.toLowerCase()))] : [];
  const keys =
    perClient > 0 ? [...new Set(rows.flatMap((r) => (r.clientKey ? [r.clientKey] : [])))] : [];
  const { byEmail, byClient } = await repo.recentInstructions(
    tx,
    emails,
    keys,
    new Date(config.now().getTime() - DAY_MS),
  );
  return rows.map((r) => {
    const email = r.email.toLowerCase();
    const sentTo = byEmail.get(email) ?? 0;
    const sentFor = r.clientKey ? (byClient.get(r.clientKey) ?? 0) : 0;
    if (perAddress > 0 && sentTo >= perAddress) return false;
    if (perClient > 0 && r.clientKey && sentFor >= perClient) return false;
    byEmail.set(email, sentTo + 1);
    if (r.clientKey) byClient.set(r.clientKey, sentFor + 1);
    return true;
  });
}

/**
 * Mailer, status links and the worker (not started) from the configuration
 * (docs/decisions/014-email-outbox.md).
 */
export async function createEmailService(
  config: AppConfig,
  database: Database,
  log: FastifyBaseLogger,
): Promise<EmailService> {
  const { value: key } = await adminRepo.getOrCreateSetting(database.db, 'status_link_key', () =>
    randomBytes(32).toString('base64url'),
  );
  const links = new StatusLinks(key, siteBaseUrl(config));
  const replyTo = config.campaign.payment.confirmationEmail;
  const outboxDir = path.join(config.dataDir, 'outbox');
  const mailer = config.smtpUrl
    ? smtpMailer(config.smtpUrl, config.mailFrom, replyTo)
    : fileMailer(outboxDir, config.mailFrom, replyTo);
  if (!config.smtpUrl)
    // Once per start, so a newcomer knows where the donors' e-mails went.
    log.warn(
      { outboxDir },
      `E-mail: SMTP_URL is not set, so e-mails are not sent: each one is written as an .eml file to ${outboxDir} (open it with any mail program). Set SMTP_URL and MAIL_FROM to send them.`,
    );
  const domain = /@([^>\s]+)>?\s*$/.exec(config.mailFrom)?.[1] ?? 'localhost';
  const worker = new EmailWorker({
    database,
    mailer,
    links,
    campaign: config.campaign,
    messageIdDomain: domain,
    retryBaseMs: config.mailRetryBaseMs,
    pollMs: config.mailPollMs,
    log,
  });
  return {
    links,
    statusLimit: new AttemptLimit(
      config.rateLimitStatusPerMinute,
      config.now,
      60_000,
      'Too many wrong status links from your network. Please wait a minute and open the link from your e-mail again.',
    ),
    worker,
    async enqueueNewPledges(tx, rows) {
      if (rows.length === 0) return;
      const mail = await withinMailCaps(tx, config, rows);
      const capped = mail.filter((m) => !m).length;
      if (capped > 0)
        log.warn(
          { capped },
          'instruction e-mails not sent: over the daily cap per address or per client (the donors see the instructions on screen)',
        );
      await repo.enqueueNewPledges(
        tx,
        rows.map((r, i) => ({ id: r.id, tokenHash: hashToken(links.token(r.id)), mail: mail[i]! })),
        config.now(),
      );
    },
    enqueue: (tx, pledgeId, kind) => repo.enqueue(tx, pledgeId, kind),
    enqueueReminder: (tx, pledgeId, step, now) =>
      repo.enqueue(tx, pledgeId, 'reminder', { step, at: now }),
    /** How many more e-mails each address may get today (Infinity when there is no cap). */
    async underAddressCap(tx, emails, now) {
      const cap = config.mailPerAddressPerDay;
      const lower = [...new Set(emails.map((e) => e.toLowerCase()))];
      if (cap <= 0) return new Map(lower.map((e) => [e, Infinity]));
      const sent = await repo.recentMailByAddress(tx, lower, new Date(now.getTime() - DAY_MS));
      return new Map(lower.map((e) => [e, Math.max(0, cap - (sent.get(e) ?? 0))]));
    },
    donorSaysSentFor: repo.donorSaysSentFor,
    countWaiting: () => repo.countWaiting(database.db),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The pledge behind a status link, or undefined for anything else (unknown id, wrong or missing
 * token). Used by the status API and by the page route, which answers the 404 page otherwise.
 */
async function pledgeForLink(db: DbOrTx, id: unknown, token: unknown) {
  if (typeof id !== 'string' || !UUID.test(id)) return undefined;
  const link = await repo.findLink(db, id.toLowerCase());
  if (!tokenMatches(token, link?.tokenHash)) return undefined;
  const pledge = await pledgeRepo.findPledge(db, id.toLowerCase());
  return pledge && link ? { pledge, link } : undefined;
}

/** What a wrong or unknown status link answers, on every route that takes one. */
export const PLEDGE_NOT_FOUND = 'Pledge not found';

/**
 * The pledge behind a donor's status link in a request (its id unless the route's own validation
 * failed, and its token), or a 404 that says no more: the one check of every status-link route.
 */
export async function linkedPledge(
  db: DbOrTx,
  email: Pick<EmailService, 'statusLimit'>,
  request: FastifyRequest,
  id: unknown,
  token: unknown,
) {
  const found = await pledgeForRequest(
    db,
    email,
    request,
    request.validationError ? undefined : id,
    token,
  );
  if (!found) throw notFound(PLEDGE_NOT_FOUND);
  return found;
}

/**
 * pledgeForLink for a request, within the client's limit of wrong links:
 * counted before the lookup, given back when the link is right.
 */
export async function pledgeForRequest(
  db: DbOrTx,
  email: Pick<EmailService, 'statusLimit'>,
  request: FastifyRequest,
  id: unknown,
  token: unknown,
) {
  const key = clientKey(request.ip);
  email.statusLimit.hit(key);
  const found = await pledgeForLink(db, id, token);
  if (found) email.statusLimit.undo(key);
  return found;
}

/**
 * "Resend instructions": a new message through the same outbox, queued and audited together so
 * the audit log never misses a resend. Undefined when there is no such pledge.
 */
export async function resendInstructions(
  db: DbOrTx,
  email: Pick<EmailService, 'enqueue' | 'worker'>,
  request: FastifyRequest,
  id: string,
): Promise<boolean> {
  const pledge = await pledgeRepo.findPledge(db, id);
  if (!pledge) return false;
  await audited(db, request, async (tx) => {
    await email.enqueue(tx, id, 'instructions');
    return {
      result: undefined,
      audit: {
        action: 'pledge.resend_instructions',
        targetType: 'pledge',
        targetId: id,
        pledgeId: id,
        pledgeReference: pledge.reference,
      },
    };
  });
  email.worker.kick();
  return true;
}

/**
 * "I've sent the transfer" from the donor's status page: the time is noted for the admin table
 * (it records no payment). Returns the status link as it is now.
 */
export async function donorSaysSent(
  db: DbOrTx,
  pledgeId: string,
  now: Date,
): Promise<NonNullable<Awaited<ReturnType<typeof repo.findLink>>>> {
  const link = await repo.markDonorSaysSent(db, pledgeId, now);
  // The caller found the pledge through this link: it exists.
  if (!link) throw new Error('donorSaysSent: the status link disappeared');
  return link;
}

function adminMessage(row: repo.OutboxRow): AdminEmailMessage {
  return {
    id: row.id,
    // A pledge's messages: never a team invitation (messagesOf reads one pledge's).
    kind: row.kind as AdminEmailMessage['kind'],
    status: row.sentAt ? 'sent' : row.failedAt ? 'failed' : 'waiting',
    attempts: row.attempts,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
    nextAttemptAt: row.sentAt || row.failedAt ? null : row.nextAttemptAt.toISOString(),
  };
}

/** A pledge's e-mails for the admin (oldest first), or undefined when there is no such pledge. */
export async function adminMessages(
  db: DbOrTx,
  pledgeId: string,
): Promise<AdminEmailMessage[] | undefined> {
  if (!(await pledgeRepo.findPledge(db, pledgeId))) return undefined;
  return (await repo.messagesOf(db, pledgeId)).map(adminMessage);
}
