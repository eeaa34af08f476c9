import type { FastifyRequest } from 'fastify';

/** Who did what an audit entry records, as they were then. */
export interface AuditActor {
  accountId: string;
  name: string;
  role: string;
}

/** The source of an entry that is not the request's own session: a sign-in, a job, the CLI. */
export interface AuditSource {
  clientIp: string | null;
  actor?: AuditActor | null;
}

/** A request acting as `account` (a sign-in: the session is made in the same transaction). */
export function actingAs(
  request: FastifyRequest,
  account: { id: string; name: string; role: string },
): AuditSource {
  return {
    clientIp: request.ip,
    actor: { accountId: account.id, name: account.name, role: account.role },
  };
}

export function actorOf(request: FastifyRequest | AuditSource): AuditActor | null {
  if ('clientIp' in request) return request.actor ?? null;
  const a = request.admin;
  return a ? { accountId: a.accountId, name: a.name, role: a.role } : null;
}
