import { z } from 'zod';

/**
 * Every admin action the audit log records (docs/decisions/013-statement-matching.md), with the
 * words the Activity tab shows.
 */
export const AUDIT_ACTIONS = {
  'admin.login': 'Logged in',
  'admin.logout': 'Logged out',
  'admin.sessions.revoke_all': 'Signed out all sessions',
  'admin.login.failed': 'Failed login',
  'team.invite': 'Invited a team member',
  'team.role': 'Changed a role',
  'team.disable': 'Disabled a team member',
  'team.enable': 'Re-enabled a team member',
  'team.password_set': 'Set a password',
  'team.password_changed': 'Changed own password',
  'team.sessions.revoke': 'Signed out a team member',
  'admin.second_factor.added': 'Set up a second factor',
  'admin.second_factor.removed': 'Removed a second factor',
  'admin.second_factor.failed': 'Failed second-factor code',
  'admin.second_factor.required': 'Changed the second-factor requirement',
  'admin.recovery_codes.created': 'Created recovery codes',
  'admin.reauth.failed': 'Failed to confirm a security change',
  'team.second_factors.cleared': 'Cleared a member’s second factors',
  'pledge.confirm': 'Confirmed payment',
  'pledge.unconfirm': 'Un-confirmed payment',
  'pledge.edit': 'Edited pledge',
  'pledge.delete': 'Deleted pledge',
  'pledge.resend_instructions': 'Resent payment instructions',
  'pledge.cancel': 'Cancelled pledge',
  'pledge.lapse': 'Pledge lapsed',
  'pledges.release_lapsed': 'Released lapsed pledges',
  'reminders.pause': 'Paused reminders',
  'reminders.resume': 'Resumed reminders',
  'payment.reverse': 'Reversed payment',
  'pledge.erase': 'Erased donor data',
  'pledges.export': 'Exported pledges CSV',
  'backup.download': 'Downloaded a backup',
  'statement.import': 'Imported bank statement',
  'statement.dismiss': 'Dismissed statement line',
  'statement.restore': 'Restored statement line',
  'statement.undo': 'Undid a statement import',
  'progress.update': 'Changed progress',
  'update.create': 'Posted delivery update',
  'update.edit': 'Edited delivery update',
  'update.delete': 'Deleted delivery update',
} as const;
export type AuditAction = keyof typeof AUDIT_ACTIONS;

/** One entry of the log as GET /api/admin/activity answers it. */
const auditEntrySchema = z.object({
  id: z.string(),
  at: z.iso.datetime(),
  /** An AuditAction; a string here so an entry written by a newer version still reads. */
  action: z.string(),
  label: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  pledgeId: z.string().nullable(),
  pledgeReference: z.string().nullable(),
  clientIp: z.string().nullable(),
  /** Who acted, with their name and role at the time; null before accounts existed. */
  actor: z.object({ accountId: z.string(), name: z.string(), role: z.string() }).nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditPageSchema = z.object({
  items: z.array(auditEntrySchema),
  /** Pass as ?before= for the next (older) page; null at the end. */
  nextBefore: z.iso.datetime().nullable(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

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
  /** One person's entries: an account id (the Team list's). */
  actor: z.uuid({ error: 'actor must be an account id' }).optional(),
});
