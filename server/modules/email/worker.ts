import type { FastifyBaseLogger } from 'fastify';
import type { Campaign } from '@shared/schemas/campaign';
import { paymentSummary } from '@shared/received';
import type { Database, DbOrTx } from '../../db/client';
import { toEmailPledge } from '../pledges/views';
import { SEND_LANES, type Mailer } from './mailer';
import * as repo from './repo';
import { hashToken, type StatusLinks } from './status-links';
import type { EmailData, RenderedEmail } from './templates/layout';
import { instructionsEmail } from './templates/instructions';
import { receiptEmail } from './templates/receipt';
import { teamInvitationEmail } from './templates/team-invitation';
import { ROLE_LABELS, type AdminRole } from '@shared/admin-roles';
import { reminderEmail } from './templates/reminder';
import { deliveryNewsEmail } from './templates/delivery-news';
import { SERVER_PAGE_PATHS } from '@shared/pages';

const TEMPLATES: Record<
  Exclude<repo.OutboxKind, 'team_invitation' | 'delivery_news'>,
  (data: EmailData) => RenderedEmail
> = {
  instructions: instructionsEmail,
  receipt: receiptEmail,
  reminder: reminderEmail,
};

/** A refused message is retried with growing delays (base, 2×, 4×… at most an hour) for a day. */
const MAX_RETRY_DELAY_MS = 3600_000;
const GIVE_UP_AFTER_MS = 24 * 3600_000;
/** Messages read per query on PGlite, and batches per wake-up before the worker yields. */
const BATCH = 30;
const MAX_BATCHES = 10;
/**
 * The pause between wake-ups while a backlog lasts: on PGlite's one connection the pledge writes
 * are queued behind the worker's queries, so it steps aside for a moment after each 300 messages.
 */
const BACKLOG_PAUSE_MS = 20;
/**
 * While pledges are arriving (one was written in the last BURST_QUIET_MS), the worker sends only a
 * trickle: one message per lane, then BURST_PAUSE_MS aside. In a spike the e-mails' rendering, MIME
 * and file or SMTP work took the CPU and PGlite's one connection from the pledges themselves
 * (206 pledges/s with every e-mail sent at once, against 2,000 with none); the donors see their
 * instructions on screen, and the backlog goes out at full speed when the burst is over.
 */
const BURST_QUIET_MS = 300;
const BURST_PAUSE_MS = 250;

export interface EmailWorkerOptions {
  database: Database;
  mailer: Mailer;
  links: StatusLinks;
  campaign: Campaign;
  /** The Message-ID's domain (MAIL_FROM's). */
  messageIdDomain: string;
  retryBaseMs: number;
  pollMs: number;
  log: FastifyBaseLogger;
}

function retryDelayMs(baseMs: number, attemptsSoFar: number): number {
  return Math.min(MAX_RETRY_DELAY_MS, baseMs * 2 ** Math.min(attemptsSoFar, 30));
}

/**
 * Sends the outbox (docs/decisions/014-email-outbox.md). One loop per process. A message is
 * marked sent only after the SMTP server accepted it: a crash in between sends it again after the
 * restart (at most a duplicate, with the same Message-ID), never loses it. On PostgreSQL each
 * message is sent inside a transaction that holds its row `FOR UPDATE SKIP LOCKED`, so another
 * instance skips it; on PGlite one process owns the data folder, so this loop is the only sender.
 */
export class EmailWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private lastWriteAt = 0;
  private lastTrickleAt = 0;
  private burstTimer: NodeJS.Timeout | undefined;

  constructor(private readonly opts: EmailWorkerOptions) {}

  start(): void {
    this.timer = setInterval(() => this.kick(), this.opts.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Something was queued (or time passed): run now, or once more after the current run. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.run().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }

  /** Waits for the message being sent, then stops. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.burstTimer);
    await this.running;
    this.opts.mailer.close();
  }

  /**
   * New pledges were committed with their e-mails queued: send them, but step aside while more
   * keep coming (BURST_QUIET_MS), so that a spike of pledges is not slowed by its own e-mail.
   */
  pledgesWritten(): void {
    this.lastWriteAt = Date.now();
    this.kick();
  }

  private inBurst(): boolean {
    return Date.now() - this.lastWriteAt < BURST_QUIET_MS;
  }

  private async run(): Promise<void> {
    try {
      if (this.inBurst()) {
        // A trickle: one message per lane at most every BURST_PAUSE_MS, however often the
        // pledges' commits wake the worker; then a look again once the pause is over (the last
        // pledge of the burst wakes nothing else: this timer is what sends the backlog).
        if (Date.now() - this.lastTrickleAt >= BURST_PAUSE_MS) {
          this.lastTrickleAt = Date.now();
          await this.sendBatch(SEND_LANES);
        }
        if (!this.burstTimer && !this.stopped) {
          this.burstTimer = setTimeout(() => {
            this.burstTimer = undefined;
            this.kick();
          }, BURST_PAUSE_MS);
          this.burstTimer.unref();
        }
        return;
      }
      for (let i = 0; i < MAX_BATCHES && !this.stopped; i++) {
        if (!(await this.sendBatch())) return;
      }
      // More may be due (a backlog after a restart): continue after a pause, so that on PGlite's
      // one connection the pledge writes are not queued behind a long run of e-mail.
      setTimeout(() => this.kick(), BACKLOG_PAUSE_MS).unref();
    } catch (err) {
      // The database is unreachable (or closing): the next poll tries again.
      this.opts.log.warn(
        { err: { message: (err as Error).message } },
        'e-mail worker: cannot read the outbox',
      );
    }
  }

  /** Sends the messages due now, up to `limit`; false when none was due. */
  private async sendBatch(limit = BATCH): Promise<boolean> {
    const { database } = this.opts;
    if (database.kind === 'postgres') {
      // One message per transaction in each lane: its lock is held while it is sent, and "sent"
      // is committed right after, so a crash can repeat only the messages on the wire. Each lane
      // holds one pooled connection while it sends.
      const sent = await Promise.all(
        Array.from({ length: SEND_LANES }, async () => {
          let n = 0;
          for (; n < Math.ceil(limit / SEND_LANES) && !this.stopped; n++) {
            const found = await database.db.transaction(async (tx) => {
              const [due] = await repo.nextDue(tx, 1, true);
              if (due) await this.deliver(tx, due);
              return due !== undefined;
            });
            if (!found) break;
          }
          return n;
        }),
      );
      return sent.some((n) => n > 0);
    }
    // PGlite is one connection: a transaction open during the SMTP exchange would stall every
    // request, and no other process can open this data folder anyway. The batch is shared out
    // to the lanes; each message is marked sent on its own as soon as it is accepted.
    const due = await repo.nextDue(database.db, limit, false);
    let next = 0;
    await Promise.all(
      Array.from({ length: SEND_LANES }, async () => {
        while (next < due.length && !this.stopped) await this.deliver(database.db, due[next++]!);
      }),
    );
    return due.length > 0;
  }

  /** The message's recipient and text: a donor's (from the pledge now) or a team invitation. */
  private async render(db: DbOrTx, due: repo.DueMessage) {
    const { links, campaign } = this.opts;
    const { message, pledge, invitation } = due;
    if (message.kind === 'team_invitation') {
      if (!invitation?.email) return undefined;
      return {
        to: invitation.email,
        email: teamInvitationEmail({
          campaign,
          name: invitation.name,
          roleLabel: ROLE_LABELS[invitation.role as AdminRole] ?? invitation.role,
          url: links.invitationUrl(invitation.id),
          expiresAt: invitation.expiresAt,
          reset: invitation.reset,
        }),
      };
    }
    if (!pledge) return undefined;
    if (message.kind === 'delivery_news') {
      // Consent is read when the message goes, not when it was queued: an address that
      // unsubscribed (or was erased) in between gets nothing.
      if (!pledge.newsConsentAt || pledge.erasedAt || !due.update)
        return { notNeeded: 'Not sent: the address unsubscribed before it went' };
      const email = deliveryNewsEmail({
        campaign,
        name: pledge.name,
        update: due.update,
        ledgerUrl: links.siteUrl(SERVER_PAGE_PATHS.whereTheMoneyGoes),
        unsubscribeUrl: links.newsUnsubscribeUrl(pledge.id),
      });
      return { to: pledge.email, email };
    }
    if (!due.hasLink) await repo.ensureLink(db, pledge.id, hashToken(links.token(pledge.id)));
    // A reminder of a pledge paid or cancelled since it was queued is not sent.
    if (message.kind === 'reminder') {
      const state = paymentSummary(pledge).state;
      if (pledge.status !== 'open' || (state !== 'pending' && state !== 'part-paid'))
        return { notNeeded: undefined };
    }
    const email = TEMPLATES[message.kind]({
      campaign,
      pledge: toEmailPledge(pledge),
      statusUrl: links.url(pledge.id),
    });
    return { to: pledge.email, email };
  }

  private async deliver(db: DbOrTx, due: repo.DueMessage): Promise<void> {
    const { mailer, log } = this.opts;
    const { message } = due;
    const rendered = await this.render(db, due);
    if (rendered && 'notNeeded' in rendered)
      return repo.markNotNeeded(db, message.id, rendered.notNeeded);
    // Its pledge or invitation is gone (deleted in between): nothing to send.
    if (!rendered) return repo.markSent(db, message.id);
    const { to, email } = rendered;
    try {
      await mailer.send({
        to,
        ...email,
        messageId: `<${message.id}@${this.opts.messageIdDomain}>`,
      });
    } catch (err) {
      const error = (err as Error).message || String(err);
      const delay = retryDelayMs(this.opts.retryBaseMs, message.attempts);
      await repo.markFailedAttempt(db, message.id, error, delay, GIVE_UP_AFTER_MS);
      const gaveUp = Date.now() + delay > message.createdAt.getTime() + GIVE_UP_AFTER_MS;
      log[gaveUp ? 'error' : 'warn'](
        {
          outboxId: message.id,
          kind: message.kind,
          attempts: message.attempts + 1,
          err: { message: error },
        },
        gaveUp ? 'e-mail refused for 24 hours: giving up' : 'e-mail not sent; will retry',
      );
      return;
    }
    await repo.markSent(db, message.id);
  }
}
