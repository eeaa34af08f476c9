import { z } from 'zod';

/** Every admin action the audit log records (issue 11), with the words the Activity tab shows. */
export const AUDIT_ACTIONS = {
  'admin.login': 'Logged in',
  'admin.logout': 'Logged out',
  'admin.sessions.revoke_all': 'Signed out all sessions',
  'admin.login.failed': 'Failed login',
  'pledge.confirm': 'Confirmed payment',
  'pledge.unconfirm': 'Un-confirmed payment',
  'pledge.edit': 'Edited pledge',
  'pledge.delete': 'Deleted pledge',
  'pledge.resend_instructions': 'Resent payment instructions',
  'pledges.export': 'Exported pledges CSV',
  'statement.import': 'Imported bank statement',
  'progress.update': 'Changed progress',
  'update.create': 'Posted delivery update',
  'update.edit': 'Edited delivery update',
  'update.delete': 'Deleted delivery update',
} as const;
export type AuditAction = keyof typeof AUDIT_ACTIONS;

export interface AuditEntry {
  id: string;
  at: string;
  action: AuditAction;
  label: string;
  targetType: string | null;
  targetId: string | null;
  pledgeId: string | null;
  pledgeReference: string | null;
  clientIp: string | null;
  details: Record<string, unknown> | null;
}

export interface AuditPage {
  items: AuditEntry[];
  /** Pass as ?before= for the next (older) page; null at the end. */
  nextBefore: string | null;
}

/** GET /api/admin/activity: newest first; ?pledge= an id or a payment reference. */
export const auditQuerySchema = z.object({
  pledge: z.string().trim().max(100, { error: 'pledge must be an id or a reference' }).optional(),
  limit: z.coerce
    .number({ error: 'limit must be a whole number from 1 to 200' })
    .int({ error: 'limit must be a whole number from 1 to 200' })
    .min(1, { error: 'limit must be a whole number from 1 to 200' })
    .max(200, { error: 'limit must be a whole number from 1 to 200' })
    .optional()
    .default(50),
  before: z.iso.datetime({ error: 'before must be an ISO date-time' }).optional(),
});
export type AuditQuery = z.output<typeof auditQuerySchema>;
