import type { FastifyInstance } from 'fastify';
import { parseReference } from '../../../shared/payment-reference';
import { auditQuerySchema, type AuditPage } from '../../../shared/schemas/audit';
import type { AppContext } from '../../context';
import { badRequest, parseId, parseWith } from '../../lib/http-error';
import * as repo from './repo';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The admin's Activity tab: the audit log, newest first, optionally for one pledge. */
export async function auditRoutes(app: FastifyInstance, { db }: AppContext) {
  app.get('/api/admin/activity', { config: { access: 'admin' } }, async (request, reply) => {
    const q = parseWith(auditQuerySchema, request.query);
    let pledgeId: string | undefined;
    let pledgeReference: string | undefined;
    if (q.pledge) {
      if (UUID.test(q.pledge)) pledgeId = parseId(q.pledge, 'pledge');
      else {
        const ref = parseReference(q.pledge);
        if (!ref) throw badRequest('Enter a pledge id or a payment reference such as MRJ-7K4Q-2.');
        pledgeReference = ref;
      }
    }
    const rows = await repo.listAudit(db, {
      pledgeId,
      pledgeReference,
      before: q.before ? new Date(q.before) : undefined,
      limit: q.limit,
    });
    reply.header('Cache-Control', 'no-store');
    const page: AuditPage = {
      items: rows.map(repo.toAuditEntry),
      nextBefore: rows.length === q.limit ? rows[rows.length - 1]!.at.toISOString() : null,
    };
    return page;
  });
}
