import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../../config';
import type { Database, DbOrTx } from '../../db/client';
import { AttemptLimit } from '../../lib/attempt-limit';
import { siteBaseUrl } from '../../lib/site-url';
import * as adminRepo from '../admin/repo';
import { fileMailer, smtpMailer } from './mailer';
import * as repo from './repo';
import { hashToken, StatusLinks } from './status-links';
import { EmailWorker } from './worker';

export interface EmailService {
  links: StatusLinks;
  /** Wrong status links per client key (page and API share it). */
  statusLimit: AttemptLimit;
  worker: EmailWorker;
  /** Inside the pledges' transaction: their links and instructions e-mails. */
  enqueueNewPledges(tx: DbOrTx, rows: { id: string }[]): Promise<void>;
  enqueue(tx: DbOrTx, pledgeId: string, kind: repo.OutboxKind): Promise<void>;
  donorSaysSentFor: typeof repo.donorSaysSentFor;
  /** Messages neither sent nor given up (all instances): the metrics' outbox backlog. */
  countWaiting(): Promise<number>;
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
    enqueueNewPledges: (tx, rows) =>
      repo.enqueueNewPledges(
        tx,
        rows.map((r) => ({ id: r.id, tokenHash: hashToken(links.token(r.id)) })),
      ),
    enqueue: (tx, pledgeId, kind) => repo.enqueue(tx, pledgeId, kind),
    donorSaysSentFor: repo.donorSaysSentFor,
    countWaiting: () => repo.countWaiting(database.db),
  };
}
