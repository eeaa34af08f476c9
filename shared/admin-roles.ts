/**
 * Who may call which admin route (docs/decisions/021-team-accounts.md). One table, read
 * by the auth plugin (server/plugins/auth.ts), which refuses any other role, and walked in full by
 * server/plugins/admin-roles.test.ts. Deny by default: an `access: 'admin'` route missing here
 * stops the server at start-up. No zod, no Node: the client reads it to hide what a role may not
 * use.
 */
export const ADMIN_ROLES = ['owner', 'treasurer', 'editor', 'viewer'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];
/** The roles the owner may give a member (the owner is the ADMIN_PASSWORD account). */
export const MEMBER_ROLES = ['treasurer', 'editor', 'viewer'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** What each role is for, in the Team tab's words. */
export const ROLE_DESCRIPTIONS: Record<AdminRole, string> = {
  owner: 'Everything, plus the team, campaign-wide settings, backups and signing anyone out',
  treasurer:
    'Pledges (confirm, record payment, statements, edit, delete, export), e-mails, activity',
  editor: 'Delivery updates and the manual progress adjustment',
  viewer: 'The dashboard, reports and activity, with donors’ e-mails masked and no export',
};

export const ROLE_LABELS: Record<AdminRole, string> = {
  owner: 'Owner',
  treasurer: 'Treasurer',
  editor: 'Editor',
  viewer: 'Viewer',
};

const OWNER = ['owner'] as const;
/** What every account does for itself (its own second factors). */
const EVERY_ROLE = ADMIN_ROLES;
/** Pledges, payments, statements, e-mails: the money side. */
const MONEY = ['owner', 'treasurer'] as const;
/** Delivery updates and the manual progress adjustment. */
const CONTENT = ['owner', 'editor'] as const;
/** Reading the dashboard and the activity (the viewer sees donors' e-mails masked). */
const READ = ['owner', 'treasurer', 'viewer'] as const;

/** `METHOD /path` (Fastify's route pattern) → the roles that may call it. */
export const ADMIN_ROUTE_ROLES: Record<string, readonly AdminRole[]> = {
  // Sessions and the team
  'DELETE /api/admin/sessions': OWNER,
  'GET /api/admin/backup': OWNER,
  'GET /api/admin/team': OWNER,
  'POST /api/admin/team': OWNER,
  'PATCH /api/admin/team/:id': OWNER,
  'POST /api/admin/team/:id/invitation': OWNER,
  'GET /api/admin/sessions': OWNER,
  'DELETE /api/admin/team/:id/sessions': OWNER,
  // A member who lost phone and recovery codes: the owner clears their second factors.
  'DELETE /api/admin/team/:id/second-factors': OWNER,
  // Every account changes its own password (the owner's answer says where its password lives).
  'POST /api/admin/password': ADMIN_ROLES,
  // Two-factor sign-in: each account's own settings (every role, for itself), and the owner's
  // campaign-wide requirement.
  'GET /api/admin/security': EVERY_ROLE,
  'POST /api/admin/security/totp': EVERY_ROLE,
  'POST /api/admin/security/totp/confirm': EVERY_ROLE,
  'DELETE /api/admin/security/totp': EVERY_ROLE,
  'POST /api/admin/security/recovery-codes': EVERY_ROLE,
  'POST /api/admin/security/passkeys/options': EVERY_ROLE,
  'POST /api/admin/security/passkeys': EVERY_ROLE,
  'DELETE /api/admin/security/passkeys/:id': EVERY_ROLE,
  'PUT /api/admin/security/required': OWNER,
  // Dashboard and activity
  'GET /api/admin/pledges': READ,
  'GET /api/admin/activity': READ,
  'GET /api/admin/activity/people': READ,
  // Pledges and payments
  'GET /api/pledges/export': MONEY,
  'PUT /api/pledges/:id/confirm': MONEY,
  'DELETE /api/pledges/:id/confirm': MONEY,
  'PATCH /api/pledges/:id': MONEY,
  'DELETE /api/pledges/:id': MONEY,
  'GET /api/admin/pledges/:id/emails': MONEY,
  'POST /api/admin/pledges/:id/emails/resend': MONEY,
  // Bank statements
  'POST /api/admin/statements/preview': MONEY,
  'POST /api/admin/statements/import': MONEY,
  'POST /api/admin/statements/preview/file': MONEY,
  'POST /api/admin/statements/import/file': MONEY,
  'GET /api/admin/statements/lines': MONEY,
  'POST /api/admin/statements/lines/:id/dismiss': MONEY,
  'POST /api/admin/statements/lines/:id/restore': MONEY,
  'GET /api/admin/statements/dismissed': MONEY,
  'POST /api/admin/statements/confirm': MONEY,
  'GET /api/admin/statements/imports': MONEY,
  'POST /api/admin/statements/imports/:id/undo': MONEY,
  // Delivery updates and progress
  // Reminders, lapse and donor data: the money side; the campaign-wide pause is a campaign-wide
  // setting (owner); what is scheduled and when retention runs, anyone who reads the dashboard.
  'GET /api/admin/reminders': READ,
  'PUT /api/admin/reminders': OWNER,
  'POST /api/admin/pledges/lapsed/release': MONEY,
  'GET /api/admin/pledges/:id/reminders': MONEY,
  'PUT /api/admin/pledges/:id/reminders': MONEY,
  'GET /api/admin/privacy': READ,
  // The fulfilment report and its CSV tables: totals only, no donor's details.
  'GET /api/admin/reports/fulfilment': READ,
  'GET /api/admin/reports/fulfilment.csv': READ,
  'POST /api/admin/privacy/erase': MONEY,

  'POST /api/updates': CONTENT,
  // How many addresses a notification would reach: asked by the post-update dialog.
  'GET /api/admin/news/subscribers': CONTENT,
  'PATCH /api/updates/:id': CONTENT,
  'DELETE /api/updates/:id': CONTENT,
  'POST /api/objects/upload': CONTENT,
  'PUT /api/progress': CONTENT,
};

/** The table's key of a route: HEAD is answered by its GET route. */
export function routeKey(method: string, url: string): string {
  return `${method === 'HEAD' ? 'GET' : method} ${url}`;
}

/** Whether `role` may call the route (false for a route not in the table: deny by default). */
export function roleMay(role: AdminRole, method: string, url: string): boolean {
  return ADMIN_ROUTE_ROLES[routeKey(method, url)]?.includes(role) ?? false;
}

export const forbiddenMessage = (role: AdminRole) =>
  `Your role (${ROLE_LABELS[role]}) does not allow this. Ask the campaign's owner.`;

/** Whether a role sees donors' e-mail addresses (the viewer sees them masked). */
export const seesDonorEmails = (role: AdminRole) => role === 'owner' || role === 'treasurer';

/** "jane.doe@example.org" → "j•••@example.org": enough to tell donors apart, not to write to them. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '•••';
  return `${email[0]}•••${email.slice(at)}`;
}
