import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EXPORT_FILE_NAME, PUBLIC_PLEDGES_MAX, type Currency } from '@shared/constants';
import { deletedSchema, idParamsSchema } from '@shared/schemas/api';
import {
  adminPledgePageSchema,
  adminPledgeQuerySchema,
  adminPledgeSchema,
  createdPledgeSchema,
  pledgeConfirmSchema,
  pledgeCreateSchema,
  pledgeEditSchema,
  pledgeListQuerySchema,
  pledgeListSchema,
} from '@shared/schemas/pledge';
import { NO_CHANGES_MESSAGE } from '@shared/schemas/update';
import type { AppContext } from '../../context';
import { clientKey } from '../../lib/client-key';
import { BODY_NOT_OBJECT, badRequest, notFound } from '../../lib/http-error';
import { sendCached, sendOnce, sendRaw } from '../../read-model/cached-body';
import { audited, writeAudit } from '../audit/repo';
import { convertMinor } from '@shared/received';
import { dayIn } from '@shared/dates';
import { pledgesCsvStream } from './csv';
import * as repo from './repo';
import { auditEditDetails, forRole, toAdminPledge, toAuditPledge, toCreatedPledge } from './views';
import { roleMay, seesDonorEmails } from '@shared/admin-roles';
import {
  createPledgeCreator,
  deletePledge,
  recordPayment,
  reverseAllPayments,
  setReceivedTotal,
} from './service';

const NOT_FOUND = 'Pledge not found';
const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{8,100}$/;

function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !IDEMPOTENCY_KEY.test(raw))
    throw badRequest(
      'Idempotency-Key must be 8 to 100 letters, digits, dashes or underscores (a UUID).',
    );
  // As sent: "ABC…" and "abc…" are two keys (lower-casing them let another
  // body find someone else's pledge).
  return raw;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const pledgeParams = idParamsSchema('pledge');

export async function pledgeRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, snapshot, config, email } = ctx;
  // The create use case owns the group-commit writer (./service.ts).
  const creator = createPledgeCreator(ctx);

  function fromSnapshot(request: FastifyRequest, reply: FastifyReply, limit: number) {
    const body = snapshot.jsonBody(`pledges:${limit}`, () => snapshot.recentPledges(limit));
    sendCached(request, reply.header('Cache-Control', 'no-cache'), body);
  }

  // Admin: the full list, newest first (?limit=N optional). Public: newest first, at most
  // PUBLIC_PLEDGES_MAX, from the snapshot: the home needs 8, and an unbounded list let anyone stall
  // the server.
  // compress: false: every answer is sent pre-serialised by sendCached or sendOnce, which compress.
  app.get(
    '/api/pledges',
    {
      config: { access: 'public' },
      compress: false,
      schema: { querystring: pledgeListQuerySchema, response: { 200: pledgeListSchema } },
    },
    (request, reply) => {
      const { limit } = request.query;
      // Only a role that reads the dashboard gets the admin rows; an editor gets the
      // public list.
      const admin = request.admin;
      if (!admin || !roleMay(admin.role, 'GET', '/api/admin/pledges')) {
        // The home's call (?limit=8) is the hottest read: a body built once per change, no promise.
        fromSnapshot(request, reply, Math.min(limit ?? PUBLIC_PLEDGES_MAX, PUBLIC_PLEDGES_MAX));
        return;
      }
      reply.header('Cache-Control', 'no-store');
      return repo.listPledges(db, limit).then((rows) =>
        // Compressed here, off the event loop.
        sendOnce(
          request,
          reply,
          JSON.stringify(rows.map((r) => forRole(toAdminPledge(r), admin.role))),
          JSON_TYPE,
        ),
      );
    },
  );

  const pledgeLimit = config.rateLimitPledgesPerMinute;
  app.post(
    '/api/pledges',
    {
      config: {
        access: 'public',
        ...(pledgeLimit > 0
          ? { rateLimit: { max: pledgeLimit, timeWindow: 60_000 } }
          : { rateLimit: false }),
      },
      schema: {
        body: pledgeCreateSchema,
        // The honeypot's answer looks like a success: { ok: true }.
        response: { 201: z.union([createdPledgeSchema, z.object({ ok: z.literal(true) })]) },
      },
    },
    async (request, reply) => {
      const input = request.body;
      if (input.website) {
        // Honeypot filled in: a bot. Answer like a success so it does not adapt; store nothing.
        request.log.warn('pledge honeypot triggered');
        return reply.code(201).send({ ok: true });
      }
      // Idempotency-Key: a retried POST gets the first pledge back, 201 with the same id.
      const { row, statusPath } = await creator.create(input, {
        idempotencyKey: idempotencyKeyOf(request),
        clientKey: clientKey(request.ip),
      });
      // The donor's own payment reference and status page link
      // (docs/decisions/014-email-outbox.md), for the thank-you page: only in this answer, never in
      // a list that others read.
      return reply.code(201).send(toCreatedPledge(row, statusPath));
    },
  );

  app.get(
    '/api/pledges/export',
    {
      config: { access: 'admin' },
      schema: {
        response: {
          200: {
            description: `Every pledge as CSV, streamed (${EXPORT_FILE_NAME})`,
            content: { 'text/csv': { schema: z.string() } },
          },
        },
      },
    },
    async (request, reply) => {
      // Who took a copy of every donor's details, and when.
      await writeAudit(db, request, { action: 'pledges.export', targetType: 'pledges' });
      reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${EXPORT_FILE_NAME}"`)
        .header('Cache-Control', 'no-store');
      return sendRaw(reply, pledgesCsvStream(db));
    },
  );

  app.put(
    '/api/pledges/:id/confirm',
    {
      config: { access: 'admin' },
      schema: {
        params: pledgeParams,
        // The spec's empty object (or no body) means "the pledged amount arrived".
        body: pledgeConfirmSchema,
        response: { 200: adminPledgeSchema },
      },
      // No body (undefined here) is the spec's call; a JSON null is not an object.
      preValidation: async (request) => {
        if (request.body === null) throw badRequest(BODY_NOT_OBJECT);
      },
    },
    async (request) => {
      const { id } = request.params;
      const input = request.body;
      // One use case for every way a payment is recorded (./service.ts): the receipt is queued in
      // its transaction (docs/decisions/014-email-outbox.md).
      const result = await snapshot.write(() =>
        db.transaction(async (tx) => {
          const current = await repo.findPledge(tx, id);
          if (!current) return undefined;
          if (current.isPaid) return { row: current, changed: false };
          const currency = input.currencyReceived ?? current.currency;
          // Nothing said: the pledged amount arrived (in the currency said, at the campaign's rate).
          const amountMinor =
            input.amountReceivedMinor ??
            (input.amountReceived !== undefined
              ? input.amountReceived * 100
              : convertMinor(current.amount * 100, current.currency, currency));
          return recordPayment(tx, {
            pledgeId: id,
            amountMinor,
            currency,
            source:
              input.amountReceived !== undefined || input.amountReceivedMinor !== undefined
                ? 'record'
                : 'confirm',
            actor: request,
            now: config.now(),
            // A repeated confirm (or 20 racing ones) records nothing.
            onlyIfPending: true,
          });
        }),
      );
      if (!result) throw notFound(NOT_FOUND);
      if (result.changed) email.worker.kick();
      return toAdminPledge(result.row);
    },
  );

  // Un-confirm: a transfer matched to the wrong pledge, a bounced payment.
  app.delete(
    '/api/pledges/:id/confirm',
    {
      config: { access: 'admin' },
      schema: { params: pledgeParams, response: { 200: adminPledgeSchema } },
    },
    async (request) => {
      const { id } = request.params;
      const result = await snapshot.write(() =>
        audited(db, request, async (tx) => {
          // Every payment of the pledge is reversed (kept, with reversed_at) and it is pending.
          const r = await reverseAllPayments(tx, id, { actor: request, now: config.now() });
          return {
            result: r,
            audit: r?.changed
              ? {
                  action: 'pledge.unconfirm',
                  targetType: 'pledge',
                  targetId: id,
                  pledgeId: id,
                  pledgeReference: r.before.reference,
                  details: { before: toAuditPledge(r.before) },
                }
              : null,
          };
        }),
      );
      if (!result) throw notFound(NOT_FOUND);
      return toAdminPledge(result.row);
    },
  );

  app.patch(
    '/api/pledges/:id',
    {
      config: { access: 'admin' },
      schema: {
        params: pledgeParams,
        body: pledgeEditSchema,
        response: { 200: adminPledgeSchema },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { updates } = request.body;
      const current = await repo.findPledge(db, id);
      if (!current) throw notFound(NOT_FOUND);
      const changes: Parameters<typeof repo.updatePledge>[2] = {};
      if (updates.name !== undefined && updates.name !== current.name) changes.name = updates.name;
      if (updates.email !== undefined && updates.email !== current.email)
        changes.email = updates.email;
      if (updates.amount !== undefined && updates.amount !== current.amount)
        changes.amount = updates.amount;
      // "Record payment" on a confirmed pledge: the total that arrived (a later instalment, a
      // corrected bank fee), recorded as payments by the service.
      let received: { totalMinor: number; currency: Currency } | undefined;
      if (
        updates.amountReceived !== undefined ||
        updates.amountReceivedMinor !== undefined ||
        updates.currencyReceived !== undefined
      ) {
        if (!current.isPaid)
          throw badRequest('Confirm the payment before recording the amount received.');
        const before = toAdminPledge(current);
        const totalMinor =
          updates.amountReceivedMinor ??
          (updates.amountReceived !== undefined
            ? updates.amountReceived * 100
            : before.amountReceivedMinor!);
        const currency = updates.currencyReceived ?? before.currencyReceived!;
        if (totalMinor !== before.amountReceivedMinor || currency !== before.currencyReceived)
          received = { totalMinor, currency };
      }
      if (Object.keys(changes).length === 0 && !received) throw badRequest(NO_CHANGES_MESSAGE);
      const outcome = await snapshot.write(() =>
        audited(db, request, async (tx) => {
          let updated: repo.PledgeRow | undefined = current;
          let paid = false;
          if (Object.keys(changes).length > 0)
            updated = await repo.updatePledge(tx, current, changes);
          if (updated && received) {
            const r = await setReceivedTotal(tx, {
              pledgeId: id,
              ...received,
              actor: request,
              now: config.now(),
            });
            updated = r?.row;
            paid = r?.changed ?? false;
          }
          const before = toAdminPledge(current);
          const after = updated ? toAdminPledge(updated) : undefined;
          const keys = Object.keys(changes) as (keyof typeof changes)[];
          return {
            result: updated ? { row: updated, paid } : undefined,
            // The payment has its own entry (pledge.confirm); name, e-mail and amount this one. A
            // changed name or e-mail is named, never its values (no donor data in the log).
            audit:
              after && keys.length > 0
                ? {
                    action: 'pledge.edit',
                    targetType: 'pledge',
                    targetId: id,
                    pledgeId: id,
                    pledgeReference: current.reference,
                    details: auditEditDetails(keys, before, after),
                  }
                : null,
          };
        }),
      );
      if (!outcome) throw notFound(NOT_FOUND);
      if (outcome.paid) email.worker.kick();
      return toAdminPledge(outcome.row);
    },
  );

  app.delete(
    '/api/pledges/:id',
    {
      config: { access: 'admin' },
      schema: { params: pledgeParams, response: { 200: deletedSchema } },
    },
    async (request) => {
      const { id } = request.params;
      const deleted = await snapshot.write(() => deletePledge(db, request, id));
      if (!deleted) throw notFound(NOT_FOUND);
      return { ok: true as const, id };
    },
  );

  // Dashboard table: server-side search, filter, sort and paging, with the stat cards.
  app.get(
    '/api/admin/pledges',
    {
      config: { access: 'admin' },
      schema: { querystring: adminPledgeQuerySchema, response: { 200: adminPledgePageSchema } },
    },
    async (request, reply) => {
      const q = request.query;
      // Counts and stat cards come from the snapshot (exact, no scan); only a search counts in SQL,
      // and the Cancelled and Lapsed filters (a few rows, through their partial index). "All" lists
      // the pledges the totals no longer count too: those are counted through the same index.
      const knownTotal =
        q.search.trim() || q.status === 'cancelled' || q.status === 'lapsed' || q.age
          ? undefined
          : q.status === 'all'
            ? snapshot.countByStatus('all') + (await repo.countUncounted(db))
            : snapshot.countByStatus(q.status);
      const timeZone = config.campaign.timeZone;
      const page = await repo.adminPledgePage(
        db,
        q,
        knownTotal,
        { today: dayIn(config.now(), timeZone), timeZone },
        seesDonorEmails(request.admin!.role),
      );
      const stats = snapshot.pledgeStats();
      reply.header('Cache-Control', 'no-store');
      // The "donor says sent" flag (status page, record 014) of this page's pledges.
      const saysSent = await email.donorSaysSentFor(
        db,
        page.items.map((p) => p.id),
      );
      return {
        items: page.items.map((p) => ({
          ...forRole(toAdminPledge(p), request.admin!.role),
          donorSaysSentAt: saysSent.get(p.id)?.toISOString() ?? null,
        })),
        total: page.total,
        page: q.page,
        pageSize: q.pageSize,
        stats,
      };
    },
  );
}
