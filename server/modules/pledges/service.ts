/**
 * Recording a payment: the one use case behind the confirm call (PUT /api/pledges/:id/confirm),
 * "Record payment" (the confirm call's body, or PATCH updates.amountReceived on a paid pledge) and
 * the bank-statement batch confirm (docs/decisions/013-statement-matching.md). A second copy of it
 * drifted once (the statement path sent no receipt and lost money under concurrency); keep every
 * path here.
 *
 * For other modules (statement review, assign, undo of an import), inside their own transaction:
 *
 *   recordPayment(tx, { pledgeId, amountMinor, currency, source, actor, now,
 *                       bookedOn?, statementLineId?, auditDetails?, onlyIfPending? })
 *     -> { row, changed, payment } | undefined (no such pledge)
 *   Locks the pledge row (SELECT ... FOR UPDATE), inserts a `payments` row (amount in cents of
 *   `currency`, credited in cents of the pledge's currency at the campaign's rate, booked_on = the
 *   bank's booking date for a statement line, else the day in the campaign's time zone), adds the
 *   money to the pledge in one UPDATE (received = received + x), writes the audit entry
 *   (pledge.confirm) and queues the receipt e-mail (outbox). `changed` is false when nothing was
 *   recorded (onlyIfPending on a paid pledge: a repeated confirm). A statement line can carry one
 *   payment only (payments.statement_line_id is unique): a second insert fails the transaction.
 *
 *   reversePaymentsOfLines(tx, lineIds, { actor, now }) -> the pledges changed
 *
 *   lockPledges(tx, pledgeIds) (./repo.ts): a caller that records payments for SEVERAL pledges in
 *   one transaction locks them all first (id order), or two such batches can deadlock on the
 *   totals row; the statement batch does.
 *   Reverses the active payments recorded from these lines (an undone import): each payment keeps
 *   its row with reversed_at set, its money is taken off its pledge atomically, a pledge left with
 *   no payment is pending again; one audit entry (payment.reverse) per payment. No e-mail.
 *
 * New pledges (POST /api/pledges) go through `createPledgeCreator(ctx)`, which owns the
 * group-commit writer (./pledge-writer.ts) and the Idempotency-Key replays; a deletion through
 * `deletePledge(db, request, id)`.
 *
 * The caller commits, then kicks the e-mail worker (`ctx.email.worker.kick()`) when anything
 * changed, and updates the snapshot once per request (the routes wrap their transaction in
 * `snapshot.write`). No trigger on `payments` touches `pledges`: a backup restores table by table.
 */
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { CAMPAIGN_TIME_ZONE, type Currency } from '@shared/constants';
import { convertMinor, paymentSummary } from '@shared/received';
import type { PledgeCreate } from '@shared/schemas/pledge';
import type { AppContext } from '../../context';
import type { Db, DbOrTx } from '../../db/client';
import type { PAYMENT_SOURCES } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { audited, writeAudit, type AuditInput } from '../audit/repo';
import { enqueue } from '../email/repo';
import { PledgeWriter } from './pledge-writer';
import * as repo from './repo';
import { toAdminPledge, toAuditPledge } from './views';

type PaymentSource = (typeof PAYMENT_SOURCES)[number];
/** Who recorded it, for the audit log's client address. */
export type AuditActor = FastifyRequest | { clientIp: string | null };

export interface RecordPaymentInput {
  pledgeId: string;
  /** What arrived, in cents of `currency` (at least 1). */
  amountMinor: number;
  currency: Currency;
  source: PaymentSource;
  actor: AuditActor;
  /** config.now() of the caller. */
  now: Date;
  /** The bank's booking date (YYYY-MM-DD) of a statement line; default: today, campaign time. */
  bookedOn?: string;
  statementLineId?: string;
  /** Extra details for the audit entry (the statement line, ...). */
  auditDetails?: Record<string, unknown>;
  /** Only a pending pledge takes it (the confirm call: a repeated confirm records nothing). */
  onlyIfPending?: boolean;
  /** No receipt e-mail (a correction that replaces earlier payments, see setReceivedTotal). */
  noReceipt?: boolean;
}

export interface RecordPaymentResult {
  row: repo.PledgeRow;
  changed: boolean;
  payment?: repo.PaymentRow;
}

/** YYYY-MM-DD of `at` in the campaign's time zone. */
function campaignDay(at: Date): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: CAMPAIGN_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}

/** The audit entry of a recorded payment: the pledge after it, and the payment itself. */
function paymentAudit(
  row: repo.PledgeRow,
  payment: repo.PaymentRow,
  extra: Record<string, unknown> = {},
): AuditInput {
  const p = toAdminPledge(row);
  return {
    action: 'pledge.confirm',
    targetType: 'pledge',
    targetId: row.id,
    pledgeId: row.id,
    pledgeReference: row.reference,
    details: {
      source: payment.source,
      amount: p.amount,
      currency: p.currency,
      amountReceived: p.amountReceived,
      currencyReceived: p.currencyReceived,
      paymentState: p.paymentState,
      outstandingMinor: p.outstandingMinor,
      payment: {
        id: payment.id,
        amountMinor: payment.amountMinor,
        currency: payment.currency,
        creditedMinor: payment.creditedMinor,
        bookedOn: payment.bookedOn,
        // The conversion, shown when the money came in the other currency.
        ...(payment.currency !== row.currency
          ? { rate: 'campaign (J$16.72 = US$0.11)', creditedCurrency: row.currency }
          : {}),
      },
      ...extra,
    },
  };
}

export async function recordPayment(
  tx: DbOrTx,
  input: RecordPaymentInput,
): Promise<RecordPaymentResult | undefined> {
  if (!Number.isSafeInteger(input.amountMinor) || input.amountMinor < 1)
    throw new Error(`recordPayment: amountMinor must be a whole number of cents >= 1`);
  const current = await repo.lockPledge(tx, input.pledgeId);
  if (!current) return undefined;
  if (input.onlyIfPending && current.isPaid) return { row: current, changed: false };
  // Money arrived for a cancelled or lapsed pledge: it is open again and counts (record 019).
  if (current.status !== 'open')
    await repo.setStatus(tx, current.id, ['cancelled', 'lapsed', 'released'], 'open', input.now);
  await repo.fillLegacyMinor(tx, current.id);
  const creditedMinor = convertMinor(input.amountMinor, input.currency, current.currency);
  const payment = await repo.insertPayment(tx, {
    pledgeId: current.id,
    amountMinor: input.amountMinor,
    currency: input.currency,
    creditedMinor,
    bookedOn: input.bookedOn ?? campaignDay(input.now),
    source: input.source,
    statementLineId: input.statementLineId ?? null,
    recordedAt: input.now,
  });
  const row = await repo.addReceived(
    tx,
    current.id,
    { amountMinor: input.amountMinor, currency: input.currency, creditedMinor },
    input.now,
  );
  if (!row) throw new Error('recordPayment: the locked pledge disappeared');
  await writeAudit(tx, input.actor, paymentAudit(row, payment, input.auditDetails));
  // The receipt is rendered when sent, from the pledge as it is then (record 014).
  if (!input.noReceipt) await enqueue(tx, row.id, 'receipt');
  return { row, changed: true, payment };
}

/**
 * Reverses payments (already locked pledge) and takes their money off; a pledge left without an
 * active payment is pending again. Returns the pledge after it.
 */
async function reverse(
  tx: DbOrTx,
  pledgeId: string,
  paymentIds: string[],
  opts: { actor: AuditActor; now: Date; reason: string; audit: boolean },
) {
  const reversed = await repo.markReversed(tx, paymentIds, opts.now);
  if (reversed.length === 0) return undefined;
  let row = await repo.subtractReceived(
    tx,
    pledgeId,
    reversed.map((p) => ({
      amountMinor: p.amountMinor,
      currency: p.currency,
      creditedMinor: p.creditedMinor,
    })),
  );
  const left = await repo.activePayments(tx, pledgeId);
  if (left.length === 0) row = (await repo.resetToPending(tx, pledgeId)) ?? row;
  if (opts.audit && row) {
    await writeAudit(
      tx,
      opts.actor,
      reversed.map((p) => ({
        action: 'payment.reverse' as const,
        targetType: 'payment',
        targetId: p.id,
        pledgeId,
        pledgeReference: row!.reference,
        details: {
          reason: opts.reason,
          source: p.source,
          amountMinor: p.amountMinor,
          currency: p.currency,
          bookedOn: p.bookedOn,
          statementLineId: p.statementLineId,
          paymentState: paymentSummary({ ...row!, receivedMinor: row!.receivedMinor }).state,
        },
      })),
    );
  }
  return row;
}

/** Undo of an import: the payments recorded from these statement lines are reversed. */
export async function reversePaymentsOfLines(
  tx: DbOrTx,
  lineIds: string[],
  opts: { actor: AuditActor; now: Date },
): Promise<repo.PledgeRow[]> {
  const found = await repo.activePaymentsOfLines(tx, lineIds);
  const byPledge = new Map<string, string[]>();
  for (const p of found) byPledge.set(p.pledgeId, [...(byPledge.get(p.pledgeId) ?? []), p.id]);
  const changed: repo.PledgeRow[] = [];
  // Every pledge locked first, in id order (see repo.lockPledges: no deadlock).
  const locked = new Set((await repo.lockPledges(tx, [...byPledge.keys()])).map((p) => p.id));
  for (const pledgeId of [...byPledge.keys()].sort()) {
    if (!locked.has(pledgeId)) continue;
    const row = await reverse(tx, pledgeId, byPledge.get(pledgeId)!, {
      ...opts,
      reason: 'statement import undone',
      audit: true,
    });
    if (row) changed.push(row);
  }
  return changed;
}

/**
 * Un-confirm (a transfer matched to the wrong pledge, a bounced payment): every active payment is
 * reversed and the pledge is pending again. The caller writes the pledge.unconfirm entry.
 */
export async function reverseAllPayments(
  tx: DbOrTx,
  pledgeId: string,
  opts: { actor: AuditActor; now: Date },
): Promise<{ before: repo.PledgeRow; row: repo.PledgeRow; changed: boolean } | undefined> {
  const before = await repo.lockPledge(tx, pledgeId);
  if (!before) return undefined;
  if (!before.isPaid) return { before, row: before, changed: false };
  const active = await repo.activePayments(tx, pledgeId);
  await repo.markReversed(
    tx,
    active.map((p) => p.id),
    opts.now,
  );
  const row = (await repo.resetToPending(tx, pledgeId)) ?? before;
  return { before, row, changed: true };
}

/**
 * "Record payment" on a paid pledge (PATCH updates.amountReceived): the admin enters the TOTAL
 * that arrived. More than before, in the same currency: the difference is recorded as a new
 * payment (a later instalment, with its receipt). Less, or another currency: a correction; the
 * earlier payments are reversed and one payment of the new total replaces them (no receipt: no
 * money arrived). Same total: nothing.
 */
export async function setReceivedTotal(
  tx: DbOrTx,
  input: {
    pledgeId: string;
    totalMinor: number;
    currency: Currency;
    actor: AuditActor;
    now: Date;
    auditDetails?: Record<string, unknown>;
  },
): Promise<RecordPaymentResult | undefined> {
  const current = await repo.lockPledge(tx, input.pledgeId);
  if (!current) return undefined;
  await repo.fillLegacyMinor(tx, current.id);
  const locked = (await repo.findPledge(tx, current.id))!;
  const beforeCurrency = locked.currencyReceived ?? locked.currency;
  const beforeMinor = locked.amountReceivedMinor ?? 0;
  if (locked.isPaid && beforeCurrency === input.currency) {
    if (input.totalMinor === beforeMinor) return { row: locked, changed: false };
    if (input.totalMinor > beforeMinor)
      return recordPayment(tx, {
        pledgeId: locked.id,
        amountMinor: input.totalMinor - beforeMinor,
        currency: input.currency,
        source: 'record',
        actor: input.actor,
        now: input.now,
        auditDetails: input.auditDetails,
      });
  }
  const active = await repo.activePayments(tx, locked.id);
  await reverse(
    tx,
    locked.id,
    active.map((p) => p.id),
    { actor: input.actor, now: input.now, reason: 'corrected by the admin', audit: true },
  );
  return recordPayment(tx, {
    pledgeId: locked.id,
    amountMinor: input.totalMinor,
    currency: input.currency,
    source: 'record',
    actor: input.actor,
    now: input.now,
    auditDetails: { ...input.auditDetails, correction: true },
    noReceipt: locked.isPaid,
  });
}

export type CancelOutcome =
  | { kind: 'cancelled'; row: repo.PledgeRow }
  | { kind: 'unchanged'; row: repo.PledgeRow }
  | { kind: 'refused'; row: repo.PledgeRow; reason: string };

/** Why a pledge cannot be cancelled by its donor (money arrived: the charity keeps counting it). */
const CANCEL_REFUSED_PAID =
  'Part of this pledge has been paid, so it cannot be cancelled here. Please write to us instead.';

/**
 * "I can't complete this pledge" (docs/decisions/019-reminders-and-lapse.md): the donor's
 * cancel, authorised by the status link's token (the caller checked it). The pledge stays in the
 * table (the admin list shows it as Cancelled) and leaves the totals exactly as a deletion would
 * (the totals triggers count only open and lapsed pledges, migration 0019); no further reminder is
 * sent. Only a pledge with no money received can be cancelled: money that arrived stays counted.
 * Audited without the donor's name or address (the pledge id and reference say which one).
 * A second cancel changes nothing. The caller wraps it in `snapshot.write`.
 */
export async function cancelPledge(
  tx: DbOrTx,
  input: { pledgeId: string; actor: AuditActor; now: Date; by: 'donor' | 'admin' },
): Promise<CancelOutcome | undefined> {
  const current = await repo.lockPledge(tx, input.pledgeId);
  if (!current) return undefined;
  if (current.status === 'cancelled') return { kind: 'unchanged', row: current };
  if (current.isPaid) return { kind: 'refused', row: current, reason: CANCEL_REFUSED_PAID };
  const row = await repo.setStatus(
    tx,
    current.id,
    ['open', 'lapsed', 'released'],
    'cancelled',
    input.now,
  );
  if (!row) throw new Error('cancelPledge: the locked pledge disappeared');
  await writeAudit(tx, input.actor, {
    action: 'pledge.cancel',
    targetType: 'pledge',
    targetId: row.id,
    pledgeId: row.id,
    pledgeReference: row.reference,
    details: {
      by: input.by,
      statusBefore: current.status,
      amount: row.amount,
      currency: row.currency,
      containers: row.containers,
    },
  });
  return { kind: 'cancelled', row };
}

const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const IDEMPOTENCY_MISMATCH =
  'This Idempotency-Key was already used with a different pledge. Send a new key for a new pledge.';

/** SHA-256 of the parsed pledge, field by field in a fixed order: what a key is bound to. */
function bodyHashOf(input: PledgeCreate): string {
  const fields = Object.entries(input).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

interface CreatedOutcome {
  row: repo.PledgeRow;
  /**
   * The donor's status page path, only for the client that made the pledge: a replay from
   * another client (a key that leaked or was guessed) gets the pledge, but not its status link,
   * which shows the donor's name and payment state.
   */
  statusPath: string | undefined;
}

export interface PledgeCreator {
  /**
   * Stores a new pledge (group commit) and queues its instructions e-mail in the same
   * transaction. With an Idempotency-Key, a retried POST (a poor mobile link, a double tap) gets
   * the first pledge back, never a second row.
   */
  create(
    input: PledgeCreate,
    opts: { idempotencyKey: string | undefined; clientKey: string },
  ): Promise<CreatedOutcome>;
}

/** The create use case, with the one group-commit writer of this app. */
export function createPledgeCreator(
  ctx: Pick<AppContext, 'db' | 'snapshot' | 'config' | 'email' | 'database' | 'referenceKey'>,
): PledgeCreator {
  const { db, snapshot, config, email } = ctx;
  const writer = new PledgeWriter(
    db,
    snapshot,
    ctx.database.kind === 'postgres' ? 3 : 1,
    config.campaign.payment.referencePrefix,
    // Each new pledge queues its instructions e-mail in the same transaction (see
    // docs/decisions/014-email-outbox.md).
    {
      inTransaction: (tx, rows) => email.enqueueNewPledges(tx, rows),
      afterCommit: () => email.worker.pledgesWritten(),
    },
    ctx.referenceKey,
  );

  /**
   * Retries that arrive while the first is still being written share its promise; later ones
   * find it by its key (unique in the table).
   */
  const inFlight = new Map<string, Promise<repo.PledgeRow>>();
  function submitOnce(key: string, input: PledgeCreate, client: string): Promise<repo.PledgeRow> {
    const bodyHash = bodyHashOf(input);
    // The key is bound to its body: another body with it is refused, never answered with the
    // first pledge (IETF Idempotency-Key draft: 422). Rows from before migration 0017 have none.
    const sameBody = (row: repo.PledgeRow) => {
      if (row.idempotencyBodyHash !== null && row.idempotencyBodyHash !== bodyHash)
        throw new HttpError(422, IDEMPOTENCY_MISMATCH);
      return row;
    };
    const pending = inFlight.get(key);
    if (pending) return pending.then(sameBody);
    const run = (async () => {
      const existing = await repo.findByIdempotencyKey(db, key, config.now(), IDEMPOTENCY_TTL_MS);
      if (existing) return existing;
      try {
        return await writer.submit({
          ...repo.newPledgeValues(input),
          idempotencyKey: key,
          idempotencyBodyHash: bodyHash,
          clientKey: client,
        });
      } catch (err) {
        // Another instance stored the same key first (PostgreSQL): answer with its pledge.
        const raced = await repo.findByIdempotencyKey(db, key, config.now(), IDEMPOTENCY_TTL_MS);
        if (raced) return raced;
        throw err;
      }
    })();
    inFlight.set(key, run);
    void run.finally(() => inFlight.delete(key)).catch(() => undefined);
    return run.then(sameBody);
  }

  return {
    async create(input, { idempotencyKey, clientKey }) {
      const row = idempotencyKey
        ? await submitOnce(idempotencyKey, input, clientKey)
        : await writer.submit({ ...repo.newPledgeValues(input), clientKey });
      const ownClient = row.clientKey === null || row.clientKey === clientKey;
      return { row, statusPath: ownClient ? email.links.path(row.id) : undefined };
    },
  };
}

/**
 * Deletes a pledge, audited in the same transaction; the deleted row stays in the log without name and e-mail: the trail outlives the pledge, a copy of
 * who gave does not. Undefined: no such pledge. The caller wraps it in `snapshot.write`.
 */
export async function deletePledge(
  db: Db,
  request: FastifyRequest,
  pledgeId: string,
): Promise<repo.PledgeRow | undefined> {
  return audited(db, request, async (tx) => {
    const row = await repo.deletePledge(tx, pledgeId);
    return {
      result: row,
      audit: row
        ? {
            action: 'pledge.delete',
            targetType: 'pledge',
            targetId: pledgeId,
            pledgeId,
            pledgeReference: row.reference,
            details: { deleted: toAuditPledge(row) },
          }
        : null,
    };
  });
}
