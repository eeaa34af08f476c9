import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamsSchema } from '@shared/schemas/api';
import {
  adminEmailListSchema,
  donorPledgeViewSchema,
  statusTokenSchema,
  type AdminEmailMessage,
  type DonorPledgeView,
} from '@shared/schemas/email';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { clientKey } from '../../lib/client-key';
import { notFound } from '../../lib/http-error';
import { audited } from '../audit/repo';
import * as pledgeRepo from '../pledges/repo';
import type { EmailService } from './email-service';
import * as repo from './repo';
import { tokenMatches } from './status-links';

/** One answer for an unknown pledge, a wrong token and a missing one: nothing to tell apart. */
const NOT_FOUND = 'Pledge not found';
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

/**
 * pledgeForLink for a request, within the client's limit of wrong links (second review 2.10):
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

export function donorView(
  pledge: pledgeRepo.PledgeRow,
  link: { donorSaysSentAt: Date | null },
): DonorPledgeView {
  const admin = pledgeRepo.toAdminPledge(pledge);
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
  };
}

function adminMessage(row: repo.OutboxRow): AdminEmailMessage {
  return {
    id: row.id,
    kind: row.kind,
    status: row.sentAt ? 'sent' : row.failedAt ? 'failed' : 'waiting',
    attempts: row.attempts,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
    nextAttemptAt: row.sentAt || row.failedAt ? null : row.nextAttemptAt.toISOString(),
  };
}

/** The status link's path id: anything else answers the same 404 as a wrong token. */
const linkParams = z.object({ id: z.string() });
const pledgeParams = idParamsSchema('pledge');

export async function emailRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, config, email } = ctx;

  /**
   * The pledge of a status link, or the one 404. The schemas document the id and token; a request
   * they refuse (no token, an array, no body) is not told apart from a wrong token, so the
   * validation result is read here (attachValidation) rather than answered with a 400.
   */
  async function linked(request: FastifyRequest, id: string, token: string) {
    const found = await pledgeForRequest(
      db,
      email,
      request,
      request.validationError ? undefined : id,
      token,
    );
    if (!found) throw notFound(NOT_FOUND);
    return found;
  }

  // The donor's status page data: only with the link's token.
  app.get(
    '/api/pledges/:id/status',
    {
      config: { access: 'public' },
      attachValidation: true,
      schema: {
        params: linkParams,
        querystring: statusTokenSchema,
        response: { 200: donorPledgeViewSchema },
      },
    },
    async (request, reply) => {
      const { pledge, link } = await linked(request, request.params?.id, request.query?.t);
      reply.header('Cache-Control', 'no-store');
      return donorView(pledge, link);
    },
  );

  // "I've sent the transfer": the token travels in the body, not in a URL that proxies log.
  app.post(
    '/api/pledges/:id/sent',
    {
      config: { access: 'public' },
      attachValidation: true,
      schema: {
        params: linkParams,
        body: statusTokenSchema,
        response: { 200: donorPledgeViewSchema },
      },
    },
    async (request, reply) => {
      const { pledge } = await linked(request, request.params?.id, request.body?.t);
      const link = await repo.markDonorSaysSent(db, pledge.id, config.now());
      reply.header('Cache-Control', 'no-store');
      return donorView(pledge, link!);
    },
  );

  app.get(
    '/api/admin/pledges/:id/emails',
    {
      config: { access: 'admin' },
      schema: { params: pledgeParams, response: { 200: adminEmailListSchema } },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (!(await pledgeRepo.findPledge(db, id))) throw notFound(NOT_FOUND);
      reply.header('Cache-Control', 'no-store');
      return { items: (await repo.messagesOf(db, id)).map(adminMessage) };
    },
  );

  // "Resend instructions": a new message through the same outbox.
  app.post(
    '/api/admin/pledges/:id/emails/resend',
    {
      config: { access: 'admin' },
      schema: { params: pledgeParams, response: { 201: adminEmailListSchema } },
    },
    async (request, reply) => {
      const { id } = request.params;
      const pledge = await pledgeRepo.findPledge(db, id);
      if (!pledge) throw notFound(NOT_FOUND);
      // Queued and audited together, so the audit log never misses a resend.
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
      return reply.code(201).send({ items: (await repo.messagesOf(db, id)).map(adminMessage) });
    },
  );
}
