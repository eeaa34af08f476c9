import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { maskEmail, seesDonorEmails } from '@shared/admin-roles';
import { parseReference } from '@shared/payment-reference';
import { auditPageSchema, auditQuerySchema, type AuditPage } from '@shared/schemas/audit';
import type { AppContext } from '../../context';
import { badRequest } from '../../lib/http-error';
import * as repo from './repo';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The admin's Activity tab: the audit log, newest first, optionally for one pledge. */
export async function auditRoutes(fastify: FastifyInstance, { db }: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/admin/activity',
    {
      config: { access: 'admin' },
      schema: { querystring: auditQuerySchema, response: { 200: auditPageSchema } },
    },
    async (request, reply) => {
      const q = request.query;
      let pledgeId: string | undefined;
      let pledgeReference: string | undefined;
      if (q.pledge) {
        if (UUID.test(q.pledge)) pledgeId = q.pledge.toLowerCase();
        else {
          const ref = parseReference(q.pledge);
          if (!ref)
            throw badRequest('Enter a pledge id or a payment reference such as MRJ-7K4Q-2.');
          pledgeReference = ref;
        }
      }
      const rows = await repo.listAudit(db, {
        pledgeId,
        pledgeReference,
        actor: q.actor?.toLowerCase(),
        before: q.before ? new Date(q.before) : undefined,
        limit: q.limit,
      });
      reply.header('Cache-Control', 'no-store');
      const page: AuditPage = {
        items: rows.map((r) => {
          const entry = repo.toAuditEntry(r);
          // The viewer sees no donor's address, here either (a deleted pledge's details hold one).
          return seesDonorEmails(request.admin!.role)
            ? entry
            : { ...entry, details: maskEmailsIn(entry.details) };
        }),
        nextBefore: rows.length === q.limit ? rows[rows.length - 1]!.at.toISOString() : null,
      };
      return page;
    },
  );
}

const EMAIL_LIKE = /^[^\s@]+@[^\s@]+$/;

/** Every e-mail-shaped string in an entry's details, masked (at any depth). */
function maskEmailsIn<T>(value: T): T {
  if (typeof value === 'string') return (EMAIL_LIKE.test(value) ? maskEmail(value) : value) as T;
  if (Array.isArray(value)) return value.map(maskEmailsIn) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskEmailsIn(v)])) as T;
  }
  return value;
}
