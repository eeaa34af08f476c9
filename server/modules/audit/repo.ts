import { and, desc, eq, lt, or, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { AUDIT_ACTIONS, type AuditAction, type AuditEntry } from '@shared/schemas/audit';
import type { Db, DbOrTx } from '../../db/client';
import { auditLog } from '../../db/schema';
import { actorOf, type AuditSource } from './actor';

export interface AuditInput {
  action: AuditAction;
  targetType?: string;
  targetId?: string;
  pledgeId?: string;
  pledgeReference?: string;
  details?: Record<string, unknown>;
}

/** @param request the request (its session's account is the actor), or a source of its own. */
export async function writeAudit(
  db: DbOrTx,
  request: FastifyRequest | AuditSource,
  entries: AuditInput | AuditInput[],
) {
  const list = Array.isArray(entries) ? entries : [entries];
  if (list.length === 0) return;
  const clientIp = 'clientIp' in request ? request.clientIp : request.ip;
  const actor = actorOf(request);
  await db.insert(auditLog).values(
    list.map((e) => ({
      action: e.action,
      targetType: e.targetType ?? null,
      targetId: e.targetId ?? null,
      pledgeId: e.pledgeId ?? null,
      pledgeReference: e.pledgeReference ?? null,
      clientIp,
      actorAccountId: actor?.accountId ?? null,
      actorName: actor?.name ?? null,
      actorRole: actor?.role ?? null,
      details: e.details ?? null,
    })),
  );
}

/**
 * A change and its audit entries in one transaction: `change` returns its result and the entries
 * it warrants (none when it changed nothing, e.g. a second confirm). If either fails, neither is
 * kept.
 */
export async function audited<T>(
  db: Db,
  request: FastifyRequest,
  change: (tx: DbOrTx) => Promise<{ result: T; audit: AuditInput | AuditInput[] | null }>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const { result, audit } = await change(tx);
    if (audit) await writeAudit(tx, request, audit);
    return result;
  });
}

type AuditRow = typeof auditLog.$inferSelect;

export function toAuditEntry(r: AuditRow): AuditEntry {
  return {
    id: r.id,
    at: r.at.toISOString(),
    action: r.action as AuditAction,
    label: AUDIT_ACTIONS[r.action as AuditAction] ?? r.action,
    targetType: r.targetType,
    targetId: r.targetId,
    pledgeId: r.pledgeId,
    pledgeReference: r.pledgeReference,
    clientIp: r.clientIp,
    actor:
      r.actorAccountId && r.actorName && r.actorRole
        ? { accountId: r.actorAccountId, name: r.actorName, role: r.actorRole }
        : null,
    details: (r.details as Record<string, unknown> | null) ?? null,
  };
}

export async function listAudit(
  db: DbOrTx,
  q: { pledgeId?: string; pledgeReference?: string; actor?: string; before?: Date; limit: number },
): Promise<AuditRow[]> {
  const conds: SQL[] = [];
  if (q.actor) conds.push(eq(auditLog.actorAccountId, q.actor));
  if (q.pledgeId) conds.push(eq(auditLog.pledgeId, q.pledgeId));
  if (q.pledgeReference) {
    // A reference also finds the trail of a deleted pledge (the entries keep it).
    conds.push(
      or(
        eq(auditLog.pledgeReference, q.pledgeReference),
        eq(auditLog.targetId, q.pledgeReference),
      )!,
    );
  }
  if (q.before) conds.push(lt(auditLog.at, q.before));
  return db
    .select()
    .from(auditLog)
    .where(conds.length ? and(...conds) : undefined)
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(q.limit);
}
