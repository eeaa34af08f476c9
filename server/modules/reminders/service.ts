import type { FastifyBaseLogger } from 'fastify';
import { paymentSummary } from '@shared/received';
import type { AppConfig } from '../../config';
import type { Database, DbOrTx } from '../../db/client';
import * as adminRepo from '../admin/repo';
import { writeAudit } from '../audit/repo';
import type { EmailService } from '../email/service';
import type { AuditActor } from '../pledges/service';
import * as repo from './repo';

/**
 * Reminders for unpaid pledges, and the lapse (docs/decisions/019-reminders-and-lapse.md).
 *
 * One `runOnce(now)` is the whole scheduler; an interval calls it with `config.now()` while the app
 * runs, and tests call it with a moved clock. Each run:
 *  - sends at most one reminder per pledge, and at most `maxPerRun` in all (oldest pledges first):
 *    a catch-up after downtime spreads over the following runs instead of bursting;
 *  - when several steps fell due while the app was down, sends only the latest of them, and never
 *    two reminders of a pledge less than MIN_GAP_DAYS apart;
 *  - skips paid pledges (pending and part-paid ones get reminders, the balance for part-paid),
 *    cancelled and lapsed ones, a pledge whose donor said "I've sent the transfer" in the last
 *    SENT_PAUSE_DAYS (the next reminder waits until then), paused pledges, the whole campaign when
 *    paused, and an address over its daily cap (MAIL_PER_ADDRESS_PER_DAY: tried again next run);
 *  - claims each step with a conditional upsert in the transaction that queues the outbox row, so
 *    two instances on one PostgreSQL send each reminder once;
 *  - marks Lapsed the open pledges with nothing received `lapseAfterDays` after they were made.
 */
const MIN_GAP_DAYS = 7;
const SENT_PAUSE_DAYS = 10;
const DAY_MS = 24 * 3600_000;
const SCHEDULER: AuditActor = { clientIp: null };

interface RunResult {
  sent: number;
  capped: number;
  lapsed: number;
  skipped: 'disabled' | 'paused' | null;
}

export interface ReminderDeps {
  config: Pick<AppConfig, 'campaign' | 'now'>;
  database: Database;
  email: Pick<EmailService, 'enqueueReminder' | 'underAddressCap' | 'worker'>;
  log: FastifyBaseLogger;
}

/** The latest step (1-based) due at `now` after `sentSteps`, or 0. */
function stepDue(createdAt: Date, sentSteps: number, days: number[], now: Date): number {
  let step = 0;
  for (let k = sentSteps + 1; k <= days.length; k++)
    if (createdAt.getTime() + days[k - 1]! * DAY_MS <= now.getTime()) step = k;
  return step;
}

/**
 * When the next reminder of a pledge is due, or null (all sent, paused, not owed). For the admin's
 * e-mails view; the scheduler's own test is repo.dueCandidates.
 */
export function nextDueAt(input: {
  createdAt: Date;
  sentSteps: number;
  lastSentAt: Date | null;
  donorSaysSentAt: Date | null;
  days: number[];
}): Date | null {
  const { createdAt, sentSteps, days } = input;
  if (sentSteps >= days.length) return null;
  let at = createdAt.getTime() + days[sentSteps]! * DAY_MS;
  if (input.lastSentAt) at = Math.max(at, input.lastSentAt.getTime() + MIN_GAP_DAYS * DAY_MS);
  if (input.donorSaysSentAt)
    at = Math.max(at, input.donorSaysSentAt.getTime() + SENT_PAUSE_DAYS * DAY_MS);
  return new Date(at);
}

/** Is the campaign-wide pause on? (settings: the date it was paused.) */
export async function campaignPausedAt(db: DbOrTx): Promise<Date | null> {
  const v = await adminRepo.getSetting(db, repo.PAUSE_SETTING);
  return v ? new Date(v) : null;
}

async function runOnce(deps: ReminderDeps, now: Date): Promise<RunResult> {
  const { config, database, email } = deps;
  const { db } = database;
  const schedule = config.campaign.reminders;
  const result: RunResult = { sent: 0, capped: 0, lapsed: 0, skipped: null };
  if (!schedule.enabled) return { ...result, skipped: 'disabled' };
  if (await campaignPausedAt(db)) return { ...result, skipped: 'paused' };

  const candidates = (
    await repo.dueCandidates(db, {
      now,
      days: schedule.days,
      minGapDays: MIN_GAP_DAYS,
      sentPauseDays: SENT_PAUSE_DAYS,
      limit: schedule.maxPerRun,
    })
  ).filter(({ pledge }) => {
    const state = paymentSummary(pledge).state;
    return state === 'pending' || state === 'part-paid';
  });
  const room = await email.underAddressCap(
    db,
    candidates.map((c) => c.pledge.email),
    now,
  );
  for (const { pledge, sentSteps } of candidates) {
    const address = pledge.email.toLowerCase();
    if ((room.get(address) ?? 0) <= 0) {
      result.capped += 1;
      continue;
    }
    const step = stepDue(pledge.createdAt, sentSteps, schedule.days, now);
    if (step === 0) continue;
    const claimed = await db.transaction(async (tx) => {
      if (!(await repo.claimStep(tx, pledge.id, sentSteps, step, now))) return false;
      await email.enqueueReminder(tx, pledge.id, step, now);
      return true;
    });
    if (claimed) {
      result.sent += 1;
      room.set(address, (room.get(address) ?? 0) - 1);
    }
  }
  if (result.sent > 0) email.worker.kick();

  // Lapse: the status changes, the totals do not (lapsed pledges still count); audited.
  const lapsed = await db.transaction(async (tx) => {
    const rows = await repo.lapseDue(tx, {
      now,
      lapseAfterDays: schedule.lapseAfterDays,
      limit: schedule.maxPerRun,
    });
    if (rows.length > 0)
      await writeAudit(
        tx,
        SCHEDULER,
        rows.map((r) => ({
          action: 'pledge.lapse' as const,
          targetType: 'pledge',
          targetId: r.id,
          pledgeId: r.id,
          pledgeReference: r.reference,
          details: {
            lapseAfterDays: schedule.lapseAfterDays,
            amount: r.amount,
            currency: r.currency,
          },
        })),
      );
    return rows.length;
  });
  result.lapsed = lapsed;
  if (result.sent || result.capped || result.lapsed)
    deps.log.info({ reminders: result }, 'reminders: run done');
  return result;
}

export interface ReminderScheduler {
  runOnce(now?: Date): Promise<RunResult>;
  start(): void;
  stop(): Promise<void>;
}

/** The interval that calls runOnce, started and stopped with the app. One run at a time. */
export function createReminderScheduler(deps: ReminderDeps): ReminderScheduler {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<RunResult> | undefined;
  let stopped = false;
  // Runs never overlap in one process: a second waits for the first.
  const run = async (now: Date) => {
    const before = running;
    const mine = (async () => {
      await before?.catch(() => undefined);
      return runOnce(deps, now);
    })();
    running = mine;
    try {
      return await mine;
    } finally {
      if (running === mine) running = undefined;
    }
  };
  return {
    runOnce: (now = deps.config.now()) => run(now),
    start() {
      const everyMs = deps.config.campaign.reminders.checkEveryMinutes * 60_000;
      timer = setInterval(() => {
        if (stopped || running) return;
        run(deps.config.now()).catch((err: Error) =>
          deps.log.warn({ err: { message: err.message } }, 'reminders: run failed'),
        );
      }, everyMs);
      timer.unref();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}

/** The admin's one bulk action: every lapsed pledge is released (no longer counted), audited. */
export async function releaseLapsed(tx: DbOrTx, actor: AuditActor, now: Date) {
  const rows = await repo.releaseLapsed(tx, now);
  if (rows.length > 0)
    await writeAudit(tx, actor, {
      action: 'pledges.release_lapsed',
      targetType: 'pledge',
      details: {
        count: rows.length,
        usd: rows.filter((r) => r.currency === 'USD').reduce((s, r) => s + r.amount, 0),
        jmd: rows.filter((r) => r.currency === 'JMD').reduce((s, r) => s + r.amount, 0),
        references: rows.map((r) => r.reference),
      },
    });
  return rows.length;
}

/** Pause or resume one pledge's reminders, audited. False when the pledge was already so. */
export async function setPledgePaused(
  tx: DbOrTx,
  input: { pledgeId: string; reference: string; paused: boolean; actor: AuditActor; now: Date },
) {
  const changed = await repo.setPaused(tx, input.pledgeId, input.paused ? input.now : null);
  if (changed)
    await writeAudit(tx, input.actor, {
      action: input.paused ? 'reminders.pause' : 'reminders.resume',
      targetType: 'pledge',
      targetId: input.pledgeId,
      pledgeId: input.pledgeId,
      pledgeReference: input.reference,
    });
  return changed;
}

/** Pause or resume every reminder of the campaign, audited. */
export async function setCampaignPaused(
  tx: DbOrTx,
  input: { paused: boolean; actor: AuditActor; now: Date },
) {
  const before = await campaignPausedAt(tx);
  if (Boolean(before) === input.paused) return false;
  await adminRepo.setSetting(tx, repo.PAUSE_SETTING, input.paused ? input.now.toISOString() : '');
  await writeAudit(tx, input.actor, {
    action: input.paused ? 'reminders.pause' : 'reminders.resume',
    targetType: 'campaign',
    details: { scope: 'campaign' },
  });
  return true;
}
