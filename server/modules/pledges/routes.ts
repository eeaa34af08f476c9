import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EXPORT_FILE_NAME } from '../../../shared/constants';
import { deletedSchema, idParamsSchema } from '../../../shared/schemas/api';
import {
  adminPledgePageSchema,
  adminPledgeQuerySchema,
  adminPledgeSchema,
  createdPledgeSchema,
  pledgeCreateSchema,
  pledgeEditSchema,
  pledgeListQuerySchema,
  pledgeListSchema,
} from '../../../shared/schemas/pledge';
import { NO_CHANGES_MESSAGE } from '../../../shared/schemas/update';
import type { AppContext } from '../../context';
import { badRequest, notFound } from '../../lib/http-error';
import { sendCached, sendOnce, sendRaw } from '../../read-model/cached-body';
import { pledgesCsvStream } from './csv';
import { PledgeWriter } from './pledge-writer';
import * as repo from './repo';

const NOT_FOUND = 'Pledge not found';
const JSON_TYPE = 'application/json; charset=utf-8';
const pledgeParams = idParamsSchema('pledge');

export async function pledgeRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, snapshot, config } = ctx;
  const writer = new PledgeWriter(db, snapshot, ctx.database.kind === 'postgres' ? 3 : 1);

  // Public: newest first; ?limit=N for the home (DECISIONS 8). An admin session sees everything.
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
      reply.header('Cache-Control', request.isAdmin ? 'no-store' : 'no-cache');
      // The home's call (?limit=8, no session) is the hottest read: a body built once per change,
      // and no promise.
      if (!request.isAdmin && limit !== undefined && snapshot.canServeRecent(limit)) {
        const body = snapshot.jsonBody(`pledges:${limit}`, () => snapshot.recentPledges(limit));
        sendCached(request, reply, body);
        return;
      }
      return repo.listPledges(db, limit).then((rows) => {
        const data = request.isAdmin ? rows.map(repo.toAdminPledge) : rows.map(repo.toPublicPledge);
        // Compressed here, off the event loop.
        return sendOnce(request, reply, JSON.stringify(data), JSON_TYPE);
      });
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
      const row = await writer.submit(repo.newPledgeValues(input));
      return reply.code(201).send({ ...repo.toPublicPledge(row), isPaid: row.isPaid });
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
    async (_request, reply) => {
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
      schema: { params: pledgeParams, response: { 200: adminPledgeSchema } },
    },
    async (request) => {
      const { id } = request.params;
      const result = await snapshot.write(() => repo.confirmPledge(db, id, config.now()));
      if (!result) throw notFound(NOT_FOUND);
      return repo.toAdminPledge(result.row);
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
      const changes: { name?: string; email?: string; amount?: number } = {};
      if (updates.name !== undefined && updates.name !== current.name) changes.name = updates.name;
      if (updates.email !== undefined && updates.email !== current.email)
        changes.email = updates.email;
      if (updates.amount !== undefined && updates.amount !== current.amount)
        changes.amount = updates.amount;
      if (Object.keys(changes).length === 0) throw badRequest(NO_CHANGES_MESSAGE);
      const row = await snapshot.write(() => repo.updatePledge(db, current, changes));
      if (!row) throw notFound(NOT_FOUND);
      return repo.toAdminPledge(row);
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
      const deleted = await snapshot.write(() => repo.deletePledge(db, id));
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
      // Counts and stat cards come from the snapshot (exact, no scan); only a search counts in SQL.
      const knownTotal = q.search.trim() ? undefined : snapshot.countByStatus(q.status);
      const page = await repo.adminPledgePage(db, q, knownTotal);
      reply.header('Cache-Control', 'no-store');
      return {
        items: page.items.map(repo.toAdminPledge),
        total: page.total,
        page: q.page,
        pageSize: q.pageSize,
        stats: snapshot.pledgeStats(),
      };
    },
  );
}
