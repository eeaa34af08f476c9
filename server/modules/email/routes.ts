import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamsSchema } from '@shared/schemas/api';
import {
  adminEmailListSchema,
  donorPledgeViewSchema,
  statusTokenSchema,
} from '@shared/schemas/email';
import type { AppContext } from '../../context';
import { badRequest, notFound } from '../../lib/http-error';
import { toDonorView } from '../pledges/views';
import { cancelPledge } from '../pledges/service';
import {
  adminMessages,
  donorSaysSent,
  linkedPledge,
  PLEDGE_NOT_FOUND,
  resendInstructions,
} from './service';

/** One answer for an unknown pledge, a wrong token and a missing one: nothing to tell apart. */
const NOT_FOUND = PLEDGE_NOT_FOUND;

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
  const linked = (request: FastifyRequest, id: unknown, token: unknown) =>
    linkedPledge(db, email, request, id, token);

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
      return toDonorView(pledge, link);
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
      const link = await donorSaysSent(db, pledge.id, config.now());
      reply.header('Cache-Control', 'no-store');
      return toDonorView(pledge, link);
    },
  );

  // "I can't complete this pledge": the donor cancels, authorised by the link's token.
  app.post(
    '/api/pledges/:id/cancel',
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
      const { pledge, link } = await linked(request, request.params?.id, request.body?.t);
      const outcome = await ctx.snapshot.write(() =>
        db.transaction((tx) =>
          cancelPledge(tx, { pledgeId: pledge.id, actor: request, now: config.now(), by: 'donor' }),
        ),
      );
      if (!outcome) throw notFound(NOT_FOUND);
      if (outcome.kind === 'refused') throw badRequest(outcome.reason);
      reply.header('Cache-Control', 'no-store');
      return toDonorView(outcome.row, link);
    },
  );

  app.get(
    '/api/admin/pledges/:id/emails',
    {
      config: { access: 'admin' },
      schema: { params: pledgeParams, response: { 200: adminEmailListSchema } },
    },
    async (request, reply) => {
      const items = await adminMessages(db, request.params.id);
      if (!items) throw notFound(NOT_FOUND);
      reply.header('Cache-Control', 'no-store');
      return { items };
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
      if (!(await resendInstructions(db, email, request, id))) throw notFound(NOT_FOUND);
      return reply.code(201).send({ items: (await adminMessages(db, id))! });
    },
  );
}
