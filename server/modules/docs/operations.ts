/**
 * What the OpenAPI document says about each route beyond its schemas: a one-line summary, the
 * module it belongs to (its tag) and the error statuses that are the route's own. Kept here, in
 * one table, rather than in each routes.ts, so the reference reads the same everywhere;
 * routes.test.ts fails when a route has no entry or an entry names no route.
 *
 * The statuses every route of a kind can answer are added by rule (describe.ts), not listed:
 * 400 for a route with inputs, 401 for an admin route, 403 (cross-site) on every write, 413 and
 * 415 with a request body, 405 for a method-override header, 503 while restarting, 507 on a write
 * while the disk is nearly full.
 */

export type Tag =
  | 'pledges'
  | 'donor status'
  | 'reminders'
  | 'reports'
  | 'progress'
  | 'updates'
  | 'uploads'
  | 'admin'
  | 'statements'
  | 'audit'
  | 'backup'
  | 'e-mail'
  | 'share'
  | 'health'
  | 'pages'
  | 'docs';

export const TAGS: Record<Tag, string> = {
  pledges: 'Pledges: the public form and list, and the administrators’ management of them',
  'donor status': 'The donor’s private status link, sent in every e-mail',
  reminders: 'Reminders for unpaid pledges, their pause, and lapsed pledges',
  reports: 'The fulfilment report: what was promised, what arrived and when',
  progress: 'The campaign’s totals, and their live stream',
  updates: 'Progress updates with a photo, posted by the administrators',
  uploads: 'Photo uploads through short-lived signed links',
  admin: 'Signing in and out of the admin dashboard',
  statements: 'Bank statements: import, review and confirm the transfers they show',
  audit: 'The activity log of administrators’ actions',
  backup: 'A full backup of the data, to download',
  'e-mail': 'The e-mails sent about a pledge',
  share: 'The picture that shared links show',
  health: 'For load balancers and monitoring',
  pages: 'The site’s pages (HTML), rendered on the server',
  docs: 'This reference',
};

export interface Operation {
  summary: string;
  tag: Tag;
  /** Error statuses of this route beyond the ones added by rule. */
  errors?: readonly number[];
  /** Accepts an Idempotency-Key header: a retry with the same key answers the first result. */
  idempotencyKey?: true;
  /** The request body is a file's bytes, not JSON: what they are. */
  rawBody?: string;
  /** Registered only with this setting (STORAGE_URL=s3://…); the test app runs without it. */
  onlyWith?: 'object storage';
}

/** Keyed by "METHOD /path", with path parameters as `{name}` (the OpenAPI spelling). */
export const OPERATIONS: Record<string, Operation> = {
  'GET /api/docs': {
    summary: 'This reference: the OpenAPI document, or its browsable page for a browser',
    tag: 'docs',
  },
  'GET /api/docs/json': { summary: 'The OpenAPI document (JSON)', tag: 'docs' },
  'GET /api/docs/static/{file}': {
    summary: 'A script or stylesheet of the browsable reference',
    tag: 'docs',
    errors: [404],
  },

  'GET /api/health': { summary: 'Whether the database answers', tag: 'health' },
  'GET /api/ready': { summary: 'Whether this instance can serve requests', tag: 'health' },
  'GET /api/campaign': { summary: 'The campaign’s settings the pages need', tag: 'progress' },

  'GET /api/admin/check': { summary: 'Whether the caller is signed in', tag: 'admin' },
  'POST /api/admin/login': {
    summary: 'Sign in with the admin password (sets the session cookie)',
    tag: 'admin',
    errors: [401, 429],
  },
  'POST /api/admin/logout': { summary: 'Sign out this browser', tag: 'admin' },
  'DELETE /api/admin/sessions': { summary: 'Sign out every browser', tag: 'admin' },

  'GET /api/pledges': { summary: 'The newest public pledges', tag: 'pledges' },
  'POST /api/pledges': {
    summary: 'Make a pledge',
    tag: 'pledges',
    errors: [422, 429],
    idempotencyKey: true,
  },
  'GET /api/pledges/export': { summary: 'Every pledge as a CSV file', tag: 'pledges' },
  'PUT /api/pledges/{id}/confirm': {
    summary: 'Confirm a pledge’s payment, optionally with the amount received',
    tag: 'pledges',
    errors: [404],
  },
  'DELETE /api/pledges/{id}/confirm': {
    summary: 'Undo a pledge’s confirmation',
    tag: 'pledges',
    errors: [404],
  },
  'PATCH /api/pledges/{id}': {
    summary: 'Edit a pledge or record money received',
    tag: 'pledges',
    errors: [404],
  },
  'DELETE /api/pledges/{id}': { summary: 'Delete a pledge', tag: 'pledges', errors: [404] },
  'GET /api/admin/pledges': {
    summary: 'One page of pledges: search, filter and sort',
    tag: 'pledges',
  },

  'GET /api/pledges/{id}/status': {
    summary: 'A pledge as its donor sees it (needs the link’s token)',
    tag: 'donor status',
    errors: [404, 429],
  },
  'POST /api/pledges/{id}/sent': {
    summary: 'The donor says the transfer is sent',
    tag: 'donor status',
    errors: [404, 429],
  },
  'POST /api/pledges/{id}/cancel': {
    summary: 'The donor cancels the pledge ("I can’t complete this pledge")',
    tag: 'donor status',
    errors: [400, 404, 429],
  },

  'GET /api/admin/reminders': {
    summary: 'The reminder schedule, the campaign-wide pause and what is lapsed',
    tag: 'reminders',
  },
  'PUT /api/admin/reminders': {
    summary: 'Pause or resume every reminder of the campaign',
    tag: 'reminders',
    errors: [400],
  },
  'POST /api/admin/pledges/lapsed/release': {
    summary: 'Release every lapsed pledge: they stop counting in the totals',
    tag: 'reminders',
  },
  'GET /api/admin/pledges/{id}/reminders': {
    summary: 'The reminders of a pledge: those sent, the next one due, its pause',
    tag: 'reminders',
    errors: [404],
  },
  'PUT /api/admin/pledges/{id}/reminders': {
    summary: 'Pause or resume the reminders of one pledge',
    tag: 'reminders',
    errors: [400, 404],
  },

  'GET /api/admin/reports/fulfilment': {
    summary: 'The fulfilment report: pledged and received by day, rates by week, ages, reminders',
    tag: 'reports',
  },
  'GET /api/admin/reports/fulfilment.csv': {
    summary: 'One table of the fulfilment report as CSV',
    tag: 'reports',
  },

  'GET /api/admin/pledges/{id}/emails': {
    summary: 'The e-mails of a pledge and their delivery',
    tag: 'e-mail',
    errors: [404],
  },
  'POST /api/admin/pledges/{id}/emails/resend': {
    summary: 'Send the payment instructions again',
    tag: 'e-mail',
    errors: [404],
  },

  'GET /api/admin/team': {
    summary: 'The team: members, their roles and invitations',
    tag: 'admin',
  },
  'POST /api/admin/team': {
    summary: 'Invite a member (name, e-mail, role): the link goes by e-mail',
    tag: 'admin',
    errors: [409],
  },
  'PATCH /api/admin/team/{id}': {
    summary: 'Change a member’s role, or disable or enable the member',
    tag: 'admin',
    errors: [404],
  },
  'POST /api/admin/team/{id}/invitation': {
    summary: 'Send a member a new link to set a password (also a password reset)',
    tag: 'admin',
    errors: [404],
  },
  'POST /api/admin/login/second-factor': {
    summary:
      'The sign-in’s second step: a code from the authenticator app, a recovery code or a passkey',
    tag: 'admin',
    errors: [401, 429],
  },
  'POST /api/admin/login/passkey-options': {
    summary: 'WebAuthn options for signing in with a passkey (the second step)',
    tag: 'admin',
    errors: [401],
  },
  'GET /api/admin/security': {
    summary: 'Your own second factors: authenticator app, passkeys, recovery codes left',
    tag: 'admin',
  },
  'POST /api/admin/security/totp': {
    summary: 'Start setting up an authenticator app: its secret and QR code',
    tag: 'admin',
    errors: [409],
  },
  'POST /api/admin/security/totp/confirm': {
    summary:
      'Finish the authenticator app with a first code (the first factor brings recovery codes)',
    tag: 'admin',
    errors: [409, 429],
  },
  'DELETE /api/admin/security/totp': {
    summary: 'Remove your authenticator app (with your current password or a current code)',
    tag: 'admin',
    errors: [404, 409, 429],
  },
  'POST /api/admin/security/recovery-codes': {
    summary:
      'Ten new recovery codes, the older ones stop working (with your current password or a code)',
    tag: 'admin',
    errors: [409, 429],
  },
  'POST /api/admin/security/passkeys/options': {
    summary: 'WebAuthn options for adding a passkey',
    tag: 'admin',
  },
  'POST /api/admin/security/passkeys': {
    summary: 'Add a passkey with the browser’s answer to the options',
    tag: 'admin',
    errors: [409],
  },
  'DELETE /api/admin/security/passkeys/{id}': {
    summary: 'Remove one of your passkeys (with your current password or a current code)',
    tag: 'admin',
    errors: [404, 409, 429],
  },
  'PUT /api/admin/security/required': {
    summary: 'Require a second factor for everyone (owner)',
    tag: 'admin',
    errors: [409],
  },
  'POST /api/team/invitation': {
    summary: 'Whose invitation link this is (name, e-mail, role), before the password is set',
    tag: 'admin',
    errors: [404, 429],
  },
  'POST /api/team/password': {
    summary: 'Set a member’s password with the link’s token (single use, 72 hours)',
    tag: 'admin',
    errors: [404, 429],
  },
  'POST /api/admin/password': {
    summary: 'Change your own password (ends your other sessions)',
    tag: 'admin',
    errors: [429],
  },
  'GET /api/admin/sessions': {
    summary: 'The admin sessions still running: who, since when, last seen, masked address',
    tag: 'admin',
  },
  'DELETE /api/admin/team/{id}/sessions': {
    summary: 'Sign out one team member everywhere',
    tag: 'admin',
    errors: [404],
  },
  'DELETE /api/admin/team/{id}/second-factors': {
    summary:
      'Clear a member’s authenticator app, passkeys and recovery codes (lost phone); ends their sessions',
    tag: 'admin',
    errors: [404, 409],
  },
  'GET /api/admin/activity/people': {
    summary: 'The people the activity log names, to filter by',
    tag: 'audit',
  },
  'GET /api/admin/activity': { summary: 'The activity log, newest first', tag: 'audit' },
  'GET /api/admin/backup': { summary: 'Download a backup of all data', tag: 'backup' },

  'POST /api/admin/statements/preview': {
    summary: 'Read a statement file and show its columns, without storing it',
    tag: 'statements',
  },
  'POST /api/admin/statements/import': {
    summary: 'Import a statement’s transfers and match them to pledges',
    tag: 'statements',
  },
  'POST /api/admin/statements/preview/file': {
    summary: 'Read a statement file sent as the raw body and show its columns, without storing it',
    tag: 'statements',
    rawBody: 'The statement file (CSV, OFX/QFX or CAMT.053), at most 5 MB',
  },
  'POST /api/admin/statements/import/file': {
    summary: 'Import a statement file sent as the raw body; the mapping (JSON) in the query',
    tag: 'statements',
    rawBody: 'The statement file (CSV, OFX/QFX or CAMT.053), at most 5 MB',
  },
  'GET /api/admin/statements/lines': {
    summary: 'Imported transfers waiting for review',
    tag: 'statements',
  },
  'POST /api/admin/statements/lines/{id}/dismiss': {
    summary: 'Dismiss a transfer that is not a pledge',
    tag: 'statements',
    errors: [404, 409],
  },
  'POST /api/admin/statements/lines/{id}/restore': {
    summary: 'Bring a dismissed transfer back to review',
    tag: 'statements',
    errors: [404, 409],
  },
  'GET /api/admin/statements/dismissed': {
    summary: 'The dismissed transfers',
    tag: 'statements',
  },
  'POST /api/admin/statements/confirm': {
    summary: 'Confirm the pledges of the ticked transfers',
    tag: 'statements',
  },
  'GET /api/admin/statements/imports': {
    summary: 'The newest statement imports',
    tag: 'statements',
  },
  'POST /api/admin/statements/imports/{id}/undo': {
    summary: 'Undo a statement import',
    tag: 'statements',
    errors: [404, 409],
  },

  'GET /api/progress': { summary: 'The campaign’s totals', tag: 'progress' },
  'PUT /api/progress': { summary: 'Set the totals counted outside the site', tag: 'progress' },
  'GET /api/progress/stream': {
    summary: 'The totals and newest pledges, live (Server-Sent Events)',
    tag: 'progress',
  },

  'GET /api/share/og.png': { summary: 'The progress picture for shared links', tag: 'share' },

  'GET /api/updates': { summary: 'The progress updates, newest first', tag: 'updates' },
  'POST /api/updates': { summary: 'Post a progress update', tag: 'updates' },
  'PATCH /api/updates/{id}': { summary: 'Edit a progress update', tag: 'updates', errors: [404] },
  'DELETE /api/updates/{id}': {
    summary: 'Delete a progress update',
    tag: 'updates',
    errors: [404],
  },

  'POST /api/objects/upload': {
    summary: 'A signed link to upload one photo',
    tag: 'uploads',
    errors: [413],
  },
  'PUT /api/objects/uploads/{id}': {
    summary: 'Upload the photo’s bytes to a signed link',
    tag: 'uploads',
    rawBody: 'The photo (PNG, JPEG, WebP or GIF)',
    errors: [400, 403, 404, 413],
  },
  'POST /api/objects/uploads/{id}/complete': {
    summary: 'Store the photo uploaded to the bucket through a signed link',
    tag: 'uploads',
    errors: [400, 403, 404, 413],
    onlyWith: 'object storage',
  },
  'GET /api/objects/uploads/{id}': {
    summary: 'An uploaded photo, in the width asked for',
    tag: 'uploads',
    errors: [404],
  },

  'GET /': { summary: 'The home page', tag: 'pages' },
  'GET /payment-instructions': { summary: 'The payment instructions page', tag: 'pages' },
  'GET /admin': { summary: 'The admin dashboard', tag: 'pages' },
  'GET /admin/join': {
    summary: 'A team member’s invitation or reset link: choose a password',
    tag: 'pages',
  },
  'GET /pledge/{id}': { summary: 'The donor’s status page', tag: 'pages' },
  'GET /privacy': { summary: 'The privacy notice', tag: 'pages' },
  'GET /api/pledges/{id}/my-data': {
    summary:
      'Download my data: the pledge, its e-mails, consent and history (needs the link’s token)',
    tag: 'donor status',
    errors: [404, 429],
  },
  'POST /api/pledges/{id}/erase': {
    summary: 'Erase my personal data: name and e-mail; ends the status link (needs the token)',
    tag: 'donor status',
    errors: [404, 429],
  },
  'POST /api/admin/privacy/erase': {
    summary: 'Erase the name and e-mail of every pledge of one address',
    tag: 'pledges',
  },
  'GET /api/admin/privacy': {
    summary: 'The retention rule: when personal data is anonymised',
    tag: 'pledges',
  },
  'POST /api/pledges/{id}/news': {
    summary:
      'The donor subscribes to delivery news, or unsubscribes their address (needs the token)',
    tag: 'donor status',
    errors: [404, 429],
  },
  'GET /api/news/unsubscribe': {
    summary: 'The unsubscribe link of delivery news: a page with a button (changes nothing)',
    tag: 'e-mail',
    errors: [404, 429],
  },
  'POST /api/news/unsubscribe': {
    summary: 'Unsubscribe from delivery news in one click (RFC 8058; the link’s token, no session)',
    tag: 'e-mail',
    errors: [404, 429],
  },
  'GET /api/admin/news/subscribers': {
    summary: 'How many addresses get delivery news (one e-mail per address)',
    tag: 'updates',
  },
  'GET /where-the-money-goes': {
    summary: 'Where the money goes: money received by week, deliveries, running totals',
    tag: 'pages',
  },
};
