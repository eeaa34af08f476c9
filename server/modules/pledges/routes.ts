import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { EXPORT_FILE_NAME, PUBLIC_PLEDGES_MAX } from '../../../shared/constants';
import {
  adminPledgeQuerySchema,
  pledgeCreateSchema,
  pledgeEditSchema,
} from '../../../shared/schemas/pledge';
import { NO_CHANGES_MESSAGE } from '../../../shared/schemas/update';
import type { AppContext } from '../../context';
import { sendCached, sendOnce } from '../../read-model/cached-body';
import { badRequest, notFound, parseId, parseWith } from '../../lib/http-error';
import { pledgesCsvStream } from './csv';
import { PledgeWriter } from './pledge-writer';
import * as repo from './repo';

const listQuery = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a whole number from 1 to 1000' })
    .int({ error: 'limit must be a whole number from 1 to 1000' })
    .min(1, { error: 'limit must be a whole number from 1 to 1000' })
    .max(1000, { error: 'limit must be a whole number from 1 to 1000' })
    .optional(),
});

const NOT_FOUND = 'Pledge not found';
const JSON_TYPE = 'application/json; charset=utf-8';

export async function pledgeRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db, snapshot, config } = ctx;
  const writer = new PledgeWriter(db, snapshot, ctx.database.kind === 'postgres' ? 3 : 1);

  // Admin: the full list, newest first (SPEC; ?limit=N optional). Public: newest first, at most
  // PUBLIC_PLEDGES_MAX, from the snapshot (DECISIONS 8, issue 9.1).
  async function fromDatabase(request: FastifyRequest, reply: FastifyReply, limit?: number) {
    const rows = await repo.listPledges(db, limit);
    // Compressed here, off the event loop (this route skips @fastify/compress).
    return sendOnce(request, reply, JSON.stringify(rows.map(repo.toAdminPledge)), JSON_TYPE);
  }

  function fromSnapshot(request: FastifyRequest, reply: FastifyReply, limit: number) {
    const body = snapshot.jsonBody(`pledges:${limit}`, () => snapshot.recentPledges(limit));
    sendCached(request, reply.header('Cache-Control', 'no-cache'), body);
  }

  // compress: false: every answer goes through sendCached, which compresses.
  app.get('/api/pledges', { config: { access: 'public' }, compress: false }, (request, reply) => {
    // The home's call (?limit=8, no session) is the hottest read: answered from the snapshot
    // without validating through zod, and without a promise. Anything else takes the full path.
    const raw = (request.query as { limit?: unknown }).limit;
    if (!request.isAdmin && typeof raw === 'string' && /^[1-9][0-9]?$/.test(raw)) {
      fromSnapshot(request, reply, Math.min(Number(raw), PUBLIC_PLEDGES_MAX));
      return;
    }
    const { limit } = parseWith(listQuery, request.query);
    if (!request.isAdmin) {
      fromSnapshot(request, reply, Math.min(limit ?? PUBLIC_PLEDGES_MAX, PUBLIC_PLEDGES_MAX));
      return;
    }
    reply.header('Cache-Control', 'no-store');
    return fromDatabase(request, reply, limit);
  });

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
    },
    async (request, reply) => {
      const input = parseWith(pledgeCreateSchema, request.body);
      if (input.website) {
        // Honeypot filled in: a bot. Answer like a success so it does not adapt; store nothing.
        request.log.warn('pledge honeypot triggered');
        return reply.code(201).send({ ok: true });
      }
      const row = await writer.submit(repo.newPledgeValues(input));
      return reply.code(201).send({ ...repo.toPublicPledge(row), isPaid: row.isPaid });
    },
  );

  app.get('/api/pledges/export', { config: { access: 'admin' } }, async (_request, reply) => {
    reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="${EXPORT_FILE_NAME}"`)
      .header('Cache-Control', 'no-store');
    return reply.send(pledgesCsvStream(db));
  });

  app.put('/api/pledges/:id/confirm', { config: { access: 'admin' } }, async (request) => {
    const id = parseId((request.params as { id: string }).id, 'pledge');
    const result = await snapshot.write(() => repo.confirmPledge(db, id, config.now()));
    if (!result) throw notFound(NOT_FOUND);
    return repo.toAdminPledge(result.row);
  });

  app.patch('/api/pledges/:id', { config: { access: 'admin' } }, async (request) => {
    const id = parseId((request.params as { id: string }).id, 'pledge');
    const { updates } = parseWith(pledgeEditSchema, request.body);
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
  });

  app.delete('/api/pledges/:id', { config: { access: 'admin' } }, async (request) => {
    const id = parseId((request.params as { id: string }).id, 'pledge');
    const deleted = await snapshot.write(() => repo.deletePledge(db, id));
    if (!deleted) throw notFound(NOT_FOUND);
    return { ok: true, id };
  });

  // Dashboard table: server-side search, filter, sort and paging, with the stat cards.
  app.get('/api/admin/pledges', { config: { access: 'admin' } }, async (request, reply) => {
    const q = parseWith(adminPledgeQuerySchema, request.query);
    // Counts and stat cards come from the snapshot (exact, no scan); only a search counts in SQL.
    const knownTotal = q.search.trim() ? undefined : snapshot.countByStatus(q.status);
    const page = await repo.adminPledgePage(db, q, knownTotal);
    const stats = snapshot.pledgeStats();
    reply.header('Cache-Control', 'no-store');
    return {
      items: page.items.map(repo.toAdminPledge),
      total: page.total,
      page: q.page,
      pageSize: q.pageSize,
      stats,
    };
  });
}
