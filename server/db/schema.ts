import { sql } from 'drizzle-orm';
import { DEFAULT_GOAL } from '../../shared/prices';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** Numbers the payment references: a sequence never goes back, so a reference is never reused. */
export const pledgeReferenceSeq = pgSequence('pledge_reference_seq', { startWith: 1 });

const createdAt = () =>
  timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const PLEDGE_STATUSES = ['open', 'cancelled', 'lapsed', 'released'] as const;

export const pledges = pgTable(
  'pledges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency', { enum: ['USD', 'JMD'] })
      .notNull()
      .default('USD'),
    /**
     * floor(amount / unit price), stored so totals are one SUM (unit prices:
     * docs/decisions/010-product-rules.md). bigint: the largest pledge (US$1,000,000,000) is
     * 9,090,909,090 containers, beyond a 32-bit integer.
     */
    containers: bigint('containers', { mode: 'number' }).notNull(),
    isAnonymous: boolean('is_anonymous').notNull().default(false),
    isPaid: boolean('is_paid').notNull().default(false),
    paymentConfirmedAt: timestamp('payment_confirmed_at', { withTimezone: true, mode: 'date' }),
    // clock_timestamp, not now(): pledges inserted in one batch still get distinct, ordered times.
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' })
      .notNull()
      .default(sql`clock_timestamp()`),
    /** When name and e-mail were erased (the donor, an admin, or retention). */
    erasedAt: timestamp('erased_at', { withTimezone: true, mode: 'date' }),
    /**
     * The payment reference the donor puts in the transfer's note (shared/payment-reference.ts).
     * The default (migration 0018's pledge_reference_next(), keyed once the install has its key)
     * covers any insert; the app passes the campaign's prefix and the key explicitly.
     */
    reference: text('reference')
      .notNull()
      .default(sql`pledge_reference_next('MRJ')`),
    /**
     * What arrived, recorded at confirmation (docs/decisions/013-statement-matching.md); null while
     * pending. bigint: a US$1,000,000,000 pledge paid in J$ is J$152,000,000,000.
     */
    amountReceived: bigint('amount_received', { mode: 'number' }),
    currencyReceived: text('currency_received', { enum: ['USD', 'JMD'] }),
    /** Containers the received money buys: what confirmedAmount sums (triggers of 0010). */
    receivedContainers: bigint('received_containers', { mode: 'number' }),
    /**
     * Minor units (migration 0016, pledges/service.ts keeps them): what arrived in cents of
     * `currency_received` (amount_received is its whole units, for the totals of 0010), and the same
     * money credited to the pledge in cents of the pledge's own currency (the sum of its active
     * payments' credited_minor): the payment state and the outstanding balance come from it.
     */
    amountReceivedMinor: bigint('amount_received_minor', { mode: 'number' }),
    receivedMinor: bigint('received_minor', { mode: 'number' }),
    /**
     * The Idempotency-Key the pledge dialog sent: a retried POST answers with this
     * pledge instead of storing a second one. Honoured for 24 hours.
     */
    idempotencyKey: text('idempotency_key'),
    /**
     * SHA-256 of the body the key came with: the same key with another body is refused (422), as
     * the IETF Idempotency-Key draft says (migration 0017).
     */
    idempotencyBodyHash: text('idempotency_body_hash'),
    /**
     * The client key (server/lib/client-key.ts) that created the pledge: a replay from another
     * client gets no status link, and instruction e-mails are capped per client (review 2.1, 2.6).
     */
    clientKey: text('client_key'),
    /**
     * open, cancelled (the donor pressed "I can't complete this pledge"), lapsed (unpaid after the
     * lapse day, still counted) or released (a lapsed pledge the admin released). Cancelled and
     * released pledges stay listed but leave the totals as a deletion would (migration 0019,
     * docs/decisions/019-reminders-and-lapse.md).
     */
    status: text('status', { enum: PLEDGE_STATUSES }).notNull().default('open'),
    statusChangedAt: timestamp('status_changed_at', { withTimezone: true, mode: 'date' }),
    /**
     * "E-mail me when containers are delivered" (migration 0022): when the donor agreed and to which
     * wording (shared/news.ts); null without consent. Unsubscribing clears it on every pledge of
     * the address and sets news_withdrawn_at; erasure clears all three.
     */
    newsConsentAt: timestamp('news_consent_at', { withTimezone: true, mode: 'date' }),
    newsConsentVersion: text('news_consent_version'),
    newsWithdrawnAt: timestamp('news_withdrawn_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    check('pledges_status_known', sql`${t.status} IN ('open', 'cancelled', 'lapsed', 'released')`),
    index('pledges_status_idx')
      .on(t.status, t.createdAt, t.id)
      .where(sql`${t.status} <> 'open'`),
    unique('pledges_reference_unique').on(t.reference),
    unique('pledges_idempotency_key_unique').on(t.idempotencyKey),
    // The admin table's orders, both directions (an index scans backwards): "newest first" is
    // (created_at desc, id desc), "largest first" (amount desc, created_at desc, id desc). Trigram
    // indexes for its search are in migration 0004 (only where pg_trgm exists).
    index('pledges_created_at_id_idx').on(t.createdAt, t.id),
    index('pledges_amount_created_at_id_idx').on(t.amount, t.createdAt, t.id),
    // The daily e-mail caps find an address's pledges (migration 0027).
    index('pledges_email_lower_idx').on(sql`lower(${t.email})`),
    index('pledges_news_consent_idx')
      .on(sql`lower(${t.email})`)
      .where(sql`${t.newsConsentAt} is not null`),
    index('pledges_client_key_created_idx')
      .on(t.clientKey, t.createdAt)
      .where(sql`${t.clientKey} is not null`),
    check('pledges_amount_positive', sql`${t.amount} >= 1`),
    check('pledges_currency_known', sql`${t.currency} in ('USD', 'JMD')`),
    check(
      'pledges_currency_received_known',
      sql`${t.currencyReceived} IS NULL OR ${t.currencyReceived} IN ('USD', 'JMD')`,
    ),
    check(
      'pledges_amount_received_positive',
      sql`${t.amountReceived} IS NULL OR ${t.amountReceived} >= 0`,
    ),
  ],
);

/**
 * The pledges' totals, kept exact by triggers on pledges (migration 0006) in the same transaction
 * as every insert, update and delete, whoever makes it: reading them is one row, not a scan of the
 * table (the in-memory snapshot reloads from here; docs/decisions/005-performance.md).
 */
export const pledgeTotals = pgTable(
  'pledge_totals',
  {
    id: integer('id').primaryKey(),
    pledgeCount: bigint('pledge_count', { mode: 'number' }).notNull().default(0),
    paidCount: bigint('paid_count', { mode: 'number' }).notNull().default(0),
    containers: bigint('containers', { mode: 'number' }).notNull().default(0),
    /** Containers of the money received (received_containers of paid pledges). */
    confirmedContainers: bigint('confirmed_containers', { mode: 'number' }).notNull().default(0),
    usdAmount: bigint('usd_amount', { mode: 'number' }).notNull().default(0),
    jmdAmount: bigint('jmd_amount', { mode: 'number' }).notNull().default(0),
    receivedUsd: bigint('received_usd', { mode: 'number' }).notNull().default(0),
    receivedJmd: bigint('received_jmd', { mode: 'number' }).notNull().default(0),
    donorCount: bigint('donor_count', { mode: 'number' }).notNull().default(0),
    /**
     * The containers still owed, summed pledge by pledge (a pending pledge's containers, a part-paid
     * one's containers not yet received, 0 for a paid or over-paid one): an overpayment never
     * cancels another donor's debt (migration 0016).
     */
    outstandingContainers: bigint('outstanding_containers', { mode: 'number' })
      .notNull()
      .default(0),
    /** +1 per changing statement, in commit order (row lock): lets readers keep the newest. */
    version: bigint('version', { mode: 'number' }).notNull().default(0),
    /** The zone the report's rollups give days in (migration 0025; report_rollup_rebuild). */
    reportTimeZone: text('report_time_zone').notNull().default('America/Jamaica'),
    /** The container prices the rollups count received money at (the campaign's; migration 0025). */
    reportUsdUnit: bigint('report_usd_unit', { mode: 'number' }).notNull().default(11),
    reportJmdUnit: bigint('report_jmd_unit', { mode: 'number' }).notNull().default(1672),
  },
  () => [check('pledge_totals_one_row', sql`id = 1`)],
);

/**
 * The fulfilment report's rollups, kept exact by the triggers of migration 0025 (derived: not in
 * backups). Counted pledges by their day in pledge_totals.reportTimeZone and currency.
 */
export const reportPledgeDays = pgTable(
  'report_pledge_days',
  {
    day: date('day', { mode: 'string' }).notNull(),
    currency: text('currency').notNull(),
    pledges: bigint('pledges', { mode: 'number' }).notNull().default(0),
    pledgedMinor: bigint('pledged_minor', { mode: 'number' }).notNull().default(0),
    pledgedContainers: bigint('pledged_containers', { mode: 'number' }).notNull().default(0),
    receivedMinor: bigint('received_minor', { mode: 'number' }).notNull().default(0),
    receivedContainers: bigint('received_containers', { mode: 'number' }).notNull().default(0),
    owing: bigint('owing', { mode: 'number' }).notNull().default(0),
    owedMinor: bigint('owed_minor', { mode: 'number' }).notNull().default(0),
    owedContainers: bigint('owed_containers', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ name: 'report_pledge_days_pkey', columns: [t.day, t.currency] })],
);

/** Each active payment of a counted pledge, with its containers, last reminder and days to paid. */
export const reportPayments = pgTable(
  'report_payments',
  {
    paymentId: uuid('payment_id').primaryKey(),
    pledgeId: uuid('pledge_id').notNull(),
    currency: text('currency').notNull(),
    bookedOn: date('booked_on', { mode: 'string' }).notNull(),
    creditedMinor: bigint('credited_minor', { mode: 'number' }).notNull(),
    containers: bigint('containers', { mode: 'number' }).notNull(),
    reminder: integer('reminder').notNull(),
    doneDays: integer('done_days'),
  },
  (t) => [index('report_payments_pledge_idx').on(t.pledgeId)],
);

/** report_payments summed by booking day, by last reminder and by days to full payment. */
export const reportPaymentGroups = pgTable(
  'report_payment_groups',
  {
    kind: text('kind', { enum: ['day', 'reminder', 'days-to-paid'] }).notNull(),
    key: integer('key').notNull(),
    currency: text('currency').notNull(),
    payments: bigint('payments', { mode: 'number' }).notNull().default(0),
    minor: bigint('minor', { mode: 'number' }).notNull().default(0),
    containers: bigint('containers', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ name: 'report_payment_groups_pkey', columns: [t.kind, t.key, t.currency] }),
    check(
      'report_payment_groups_kind_known',
      sql`${t.kind} IN ('day', 'reminder', 'days-to-paid')`,
    ),
  ],
);

/**
 * Confirmed pledges per donor (lower-cased e-mail), kept with pledge_totals: donorCount is its size
 * (docs/decisions/008-security-review-fixes.md).
 */
export const donorEmails = pgTable('donor_emails', {
  email: text('email').primaryKey(),
  pledgeCount: integer('pledge_count').notNull(),
});

export const progress = pgTable('progress', {
  id: text('id').primaryKey(),
  manualAdjustment: integer('manual_adjustment').notNull().default(0),
  // The column default is DDL, written once by migration 0000 (the schema's default goal, 500,000);
  // it cannot follow a config read at every start, so nothing relies on it: every insert writes
  // the goal, and the start applies campaign.json's goal until an owner sets one
  // (applyConfiguredGoal in server/modules/progress/repo.ts).
  goalAmount: integer('goal_amount').notNull().default(DEFAULT_GOAL),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export const deliveryUpdates = pgTable(
  'delivery_updates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    imageUrl: text('image_url').notNull(),
    recipient: text('recipient').notNull(),
    containerCount: integer('container_count').notNull(),
    deliveryDate: date('delivery_date', { mode: 'string' }).notNull(),
    /** Size of our own re-encoded image, for width/height attributes (no layout shift). */
    imageWidth: integer('image_width'),
    imageHeight: integer('image_height'),
    createdAt: createdAt(),
  },
  (t) => [index('delivery_updates_feed_idx').on(t.deliveryDate.desc(), t.createdAt.desc())],
);

/** The owner's row (migration 0021): its password is ADMIN_PASSWORD or the stored hash (record 003). */
export const OWNER_ACCOUNT_ID = '00000000-0000-4000-8000-000000000001';

/**
 * Named admin accounts (docs/decisions/021-team-accounts.md): the owner and the team
 * members. A member's password hash is set when they accept the invitation.
 */
export const adminAccounts = pgTable(
  'admin_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    email: text('email'),
    /** owner | treasurer | editor | viewer (shared/admin-roles.ts). */
    role: text('role').notNull(),
    passwordHash: text('password_hash'),
    disabledAt: timestamp('disabled_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('admin_accounts_email_idx').on(sql`lower(${t.email})`)],
);

/** Invitation and reset links: single use, with an end; only a SHA-256 of the token is stored. */
export const adminInvitations = pgTable(
  'admin_invitations',
  {
    id: uuid('id').notNull().unique().defaultRandom(),
    tokenHash: text('token_hash').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => adminAccounts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('admin_invitations_account_idx').on(t.accountId)],
);

/** Server-side admin sessions: only a SHA-256 of the cookie token is stored. */
export const adminSessions = pgTable(
  'admin_sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => adminAccounts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' })
      .notNull()
      .defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** Where the session was opened (the owner's session list shows it masked). */
    clientIp: text('client_ip'),
    /**
     * Made while the campaign requires a second factor, for an account without one: it may only
     * set one up (server/plugins/auth.ts; migration 0024).
     */
    setupOnly: boolean('setup_only').notNull().default(false),
  },
  (t) => [
    index('admin_sessions_expires_idx').on(t.expiresAt),
    index('admin_sessions_account_idx').on(t.accountId),
  ],
);

/**
 * An account's authenticator app (TOTP, docs/decisions/023-two-factor.md). The secret is
 * encrypted (server/modules/admin/two-factor.ts); lastStep is the newest 30-second step a code was
 * accepted for, so no code is accepted twice. Unconfirmed until a first code proves the app has it.
 */
export const adminTotp = pgTable('admin_totp', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => adminAccounts.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  lastStep: bigint('last_step', { mode: 'number' }),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
});

/** Single-use recovery codes: only a SHA-256 of each. */
export const adminRecoveryCodes = pgTable(
  'admin_recovery_codes',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => adminAccounts.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ name: 'admin_recovery_codes_pk', columns: [t.accountId, t.codeHash] })],
);

/** Passkeys (WebAuthn credentials): id and public key in base64url, the signature counter. */
export const adminPasskeys = pgTable(
  'admin_passkeys',
  {
    id: text('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => adminAccounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('admin_passkeys_account_idx').on(t.accountId)],
);

/**
 * The step between a correct password and a session (purpose 'login'), and a passkey being
 * registered ('passkey_registration'): short-lived, only a SHA-256 of the token. Not backed up.
 */
export const adminAuthChallenges = pgTable(
  'admin_auth_challenges',
  {
    tokenHash: text('token_hash').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => adminAccounts.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    webauthnChallenge: text('webauthn_challenge'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    index('admin_auth_challenges_account_idx').on(t.accountId),
    check(
      'admin_auth_challenges_purpose_check',
      sql`${t.purpose} IN ('login', 'passkey_registration')`,
    ),
  ],
);

/**
 * Key/value settings: the admin password hash, the upload signing secret, the payment references'
 * key.
 */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** Fixed-window counters shared by every instance (login attempts per client). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true, mode: 'date' }).notNull(),
  count: integer('count').notNull(),
});

/**
 * Every admin action, written in the transaction of the change it records, so an entry
 * exists exactly when the change does. No foreign key to pledges: a deleted pledge keeps its trail.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    at: timestamp('at', { withTimezone: true, mode: 'date' })
      .notNull()
      .default(sql`clock_timestamp()`),
    /** e.g. pledge.confirm, admin.login.failed (shared/schemas/audit.ts lists them). */
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    /** The pledge the entry is about, kept after the pledge is deleted (the Activity filter). */
    pledgeId: uuid('pledge_id'),
    pledgeReference: text('pledge_reference'),
    clientIp: text('client_ip'),
    /** Who acted, as they were then (migration 0021); null for entries from before it. */
    actorAccountId: uuid('actor_account_id'),
    actorName: text('actor_name'),
    actorRole: text('actor_role'),
    /** Before/after values, the deleted row, counts of an import: whatever the action needs. */
    details: jsonb('details'),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at.desc(), t.id),
    index('audit_log_pledge_at_idx').on(t.pledgeId, t.at.desc()),
    index('audit_log_actor_at_idx').on(t.actorAccountId, t.at.desc()),
  ],
);

/**
 * The donor's status page link (docs/decisions/014-email-outbox.md): only a SHA-256 of the link's
 * token is stored, and the date the donor said "I've sent the transfer". Apart from pledges so that
 * neither write fires the totals triggers (migration 0006) on the hot insert path.
 */
export const donorLinks = pgTable('donor_links', {
  pledgeId: uuid('pledge_id')
    .primaryKey()
    .references(() => pledges.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull(),
  donorSaysSentAt: timestamp('donor_says_sent_at', { withTimezone: true, mode: 'date' }),
});

export const OUTBOX_KINDS = [
  'instructions',
  'receipt',
  'reminder',
  'team_invitation',
  'delivery_news',
] as const;

/**
 * Where each pledge stands in the reminder schedule (server/modules/reminders, migration 0019):
 * how many steps were sent, when the last went, and the admin's pause of this pledge.
 */
export const pledgeReminders = pgTable('pledge_reminders', {
  pledgeId: uuid('pledge_id')
    .primaryKey()
    .references(() => pledges.id, { onDelete: 'cascade' }),
  sentSteps: integer('sent_steps').notNull().default(0),
  lastSentAt: timestamp('last_sent_at', { withTimezone: true, mode: 'date' }),
  pausedAt: timestamp('paused_at', { withTimezone: true, mode: 'date' }),
});

/**
 * Transactional outbox (docs/decisions/014-email-outbox.md): a row is written in the
 * transaction of the pledge or the confirmation; the e-mail worker renders it from the pledge's
 * current data when it sends it, and marks it sent.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The pledge the message is about, or (team_invitation) the invitation: one of the two. */
    pledgeId: uuid('pledge_id').references(() => pledges.id, { onDelete: 'cascade' }),
    invitationId: uuid('invitation_id').references(() => adminInvitations.id, {
      onDelete: 'cascade',
    }),
    kind: text('kind', { enum: OUTBOX_KINDS }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' })
      .notNull()
      .default(sql`clock_timestamp()`),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' })
      .notNull()
      .default(sql`clock_timestamp()`),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    /** Set when it was still refused 24 hours after it was queued. */
    failedAt: timestamp('failed_at', { withTimezone: true, mode: 'date' }),
    /** A reminder's step in the schedule (1 = the first). */
    step: integer('step'),
    /** The delivery update a delivery_news message tells about (migration 0022). */
    updateId: uuid('update_id').references(() => deliveryUpdates.id, { onDelete: 'cascade' }),
  },
  (t) => [
    index('outbox_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.sentAt} is null and ${t.failedAt} is null`),
    index('outbox_pledge_idx').on(t.pledgeId, t.createdAt),
    index('outbox_created_idx').on(t.createdAt),
    check(
      'outbox_kind_known',
      sql`${t.kind} in ('instructions', 'receipt', 'reminder', 'team_invitation', 'delivery_news')`,
    ),
    check('outbox_one_subject', sql`(${t.pledgeId} is null) <> (${t.invitationId} is null)`),
  ],
);

/**
 * One statement file imported (docs/decisions/013-statement-matching.md): its lines point here, so
 * a whole import can be undone (its confirmations reversed) and the review shows the newest
 * statement first.
 */
export const statementImports = pgTable('statement_imports', {
  id: uuid('id').primaryKey().defaultRandom(),
  fileName: text('file_name'),
  /** csv, ofx or camt053. */
  format: text('format').notNull().default('csv'),
  /** The saved mapping used (CSV only), by name. */
  mappingName: text('mapping_name'),
  importedAt: createdAt(),
  /** Incoming completed transfers in the file, and how many of them were new. */
  creditCount: integer('credit_count').notNull().default(0),
  newCount: integer('new_count').notNull().default(0),
  undoneAt: timestamp('undone_at', { withTimezone: true, mode: 'date' }),
});

/**
 * Saved column mappings of CSV statements, several (one per bank account's layout), recognised by
 * the header row, or for a header-less file by its column count and the shapes of its cells.
 */
export const statementMappings = pgTable('statement_mappings', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** The treasurer's name for it ("NCB JMD account"). */
  name: text('name').notNull(),
  /** What recognises a file: normalised header cells, or "headerless:<count>:<shapes>". */
  signature: text('signature').notNull().unique(),
  mapping: jsonb('mapping').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * Bank-statement lines (docs/decisions/013-statement-matching.md), one row per incoming completed
 * transfer ever imported. The fingerprint is a hash of the line's raw cells (whatever the mapping),
 * with its rank among identical lines of its file; it is unique, so the same file or an overlapping
 * statement imported again adds nothing and confirms nothing twice. Open lines stay for review.
 */
export const statementLines = pgTable(
  'statement_lines',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    fingerprint: text('fingerprint').notNull().unique(),
    bookedOn: date('booked_on', { mode: 'string' }).notNull(),
    /** In cents of `currency`. */
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    currency: text('currency', { enum: ['USD', 'JMD'] }).notNull(),
    description: text('description').notNull(),
    payer: text('payer').notNull(),
    /**
     * open (to review), matched (recorded as a payment of a pledge) or ignored (dismissed by the
     * treasurer, with a reason: bank interest, not a donation).
     */
    status: text('status', { enum: ['open', 'matched', 'ignored'] })
      .notNull()
      .default('open'),
    pledgeId: uuid('pledge_id'),
    importedAt: createdAt(),
    matchedAt: timestamp('matched_at', { withTimezone: true, mode: 'date' }),
    /** The import that brought the line (null for lines imported before imports were recorded). */
    importId: uuid('import_id').references(() => statementImports.id),
    /** The line's place in its file (0-based), so the review keeps the bank's order. */
    position: integer('position').notNull().default(0),
    /** The raw cells as the file had them, for the review and the audit. */
    raw: jsonb('raw'),
    /** An earlier line equal on booking date, amount and reference or payer: a possible duplicate. */
    duplicateOf: uuid('duplicate_of'),
    /** Why the treasurer dismissed it ("bank interest", "not a donation"). */
    dismissedReason: text('dismissed_reason'),
    dismissedAt: timestamp('dismissed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('statement_lines_status_idx').on(t.status, t.bookedOn),
    index('statement_lines_import_idx').on(t.importId, t.position),
    index('statement_lines_dedupe_idx').on(t.bookedOn, t.amountCents),
  ],
);

export const PAYMENT_SOURCES = ['confirm', 'record', 'statement'] as const;

/**
 * Every payment received against a pledge, one row each (docs/decisions/013-statement-matching.md):
 * written by the one "record a payment" use case (pledges/service.ts) in the transaction that adds
 * it to the pledge, so a receipt, an audit entry and the totals follow each payment exactly once.
 * Money is in minor units (cents). A reversed payment (an undone import, an un-confirm) keeps its
 * row with reversed_at set.
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    pledgeId: uuid('pledge_id')
      .notNull()
      .references(() => pledges.id, { onDelete: 'cascade' }),
    /** What arrived, in cents of `currency`. */
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    currency: text('currency', { enum: ['USD', 'JMD'] }).notNull(),
    /** The same money in cents of the pledge's currency, at the campaign's fixed rate. */
    creditedMinor: bigint('credited_minor', { mode: 'number' }).notNull(),
    /** The bank's booking date when the payment came from a statement line, else the day recorded. */
    bookedOn: date('booked_on', { mode: 'string' }).notNull(),
    /** confirm (the spec's confirm call), record ("Record payment"), statement (a bank line). */
    source: text('source', { enum: PAYMENT_SOURCES }).notNull(),
    statementLineId: uuid('statement_line_id')
      .unique()
      .references(() => statementLines.id),
    recordedAt: timestamp('recorded_at', { withTimezone: true, mode: 'date' })
      .notNull()
      .default(sql`clock_timestamp()`),
    reversedAt: timestamp('reversed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('payments_pledge_idx').on(t.pledgeId, t.recordedAt),
    check('payments_amount_positive', sql`${t.amountMinor} >= 1`),
    check('payments_currency_known', sql`${t.currency} in ('USD', 'JMD')`),
  ],
);
