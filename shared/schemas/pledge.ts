import { z } from 'zod';
import {
  CURRENCIES,
  EMAIL_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PLEDGE_AMOUNT_MAX,
  PLEDGE_AMOUNT_MIN,
} from '../constants';
import { parseMinor, PAYMENT_STATES } from '../received';
import { AGE_BUCKETS } from './report';
import { humanText } from './text';

const AMOUNT_MIN_MESSAGE = 'Pledge amount must be at least $1';

const pledgeName = humanText({
  required: 'Name is required',
  max: NAME_MAX_LENGTH,
  tooLong: `Name must be ${NAME_MAX_LENGTH} characters or less`,
});

const pledgeEmail = z
  .string({ error: 'Valid email is required' })
  .trim()
  .max(EMAIL_MAX_LENGTH, { error: 'Valid email is required' })
  .pipe(z.email({ error: 'Valid email is required' }));

const pledgeAmount = z
  .number({ error: AMOUNT_MIN_MESSAGE })
  // Bounds before .int(): zod's int check also fails past 2^53, and "must be at most" is the
  // clear message for 1e308 (checks run in order; the first issue becomes the API's message).
  .min(PLEDGE_AMOUNT_MIN, { error: AMOUNT_MIN_MESSAGE })
  .max(PLEDGE_AMOUNT_MAX, { error: 'Pledge amount must be at most 1,000,000,000' })
  .int({ error: 'Pledge amount must be a whole number' });

export const currencySchema = z.enum(CURRENCIES, { error: 'Currency must be USD or JMD' });

/** The one list of payment states (shared/received.ts). */
export const paymentStateSchema = z.enum(PAYMENT_STATES);
const PLEDGE_STATUSES = ['open', 'cancelled', 'lapsed', 'released'] as const;
export const pledgeStatusSchema = z.enum(PLEDGE_STATUSES);
export type PledgeStatus = z.infer<typeof pledgeStatusSchema>;
/** What the admin and the donor read (the issue's words). */
export const PLEDGE_STATUS_LABEL: Record<PledgeStatus, string> = {
  open: 'Open',
  cancelled: 'Cancelled',
  lapsed: 'Lapsed',
  released: 'Lapsed (released)',
};

/** POST /api/pledges. Unknown keys (id, isPaid, createdAt…) are dropped by z.object. */
export const pledgeCreateSchema = z.object({
  name: pledgeName,
  email: pledgeEmail,
  amount: pledgeAmount,
  currency: currencySchema.default('USD'),
  isAnonymous: z.boolean({ error: 'isAnonymous must be true or false' }).default(false),
  /**
   * "E-mail me when containers are delivered" (shared/news.ts): the box starts unticked, and
   * absent means no, so the body of a client that does not know it means what it always did.
   */
  deliveryNews: z.boolean({ error: 'deliveryNews must be true or false' }).optional(),
  /** Honeypot: a hidden field people never fill in, so naive bots give themselves away. */
  website: z.string().max(500).optional(),
});
export type PledgeCreateInput = z.input<typeof pledgeCreateSchema>;
export type PledgeCreate = z.output<typeof pledgeCreateSchema>;

const RECEIVED_MESSAGE = 'Amount received must be a whole number of at least 1';
/**
 * What arrived (docs/decisions/013-statement-matching.md): up to a largest pledge paid in the
 * dearer-unit currency.
 */
const amountReceivedSchema = z
  .number({ error: RECEIVED_MESSAGE })
  .min(1, { error: RECEIVED_MESSAGE })
  .max(PLEDGE_AMOUNT_MAX * 200, { error: 'Amount received is too large' })
  .int({ error: RECEIVED_MESSAGE });

const RECEIVED_MINOR_MESSAGE = 'Amount received must be at least 0.01';
/** The same in cents (J$12.34 = 1234), for money that arrived with cents. */
const amountReceivedMinorSchema = z
  .number({ error: RECEIVED_MINOR_MESSAGE })
  .min(1, { error: RECEIVED_MINOR_MESSAGE })
  .max(PLEDGE_AMOUNT_MAX * 200 * 100, { error: 'Amount received is too large' })
  .int({ error: 'Amount received must be a whole number of cents' });

/**
 * The "Record Payment" field as typed ("12.34", "1,200"): cents of the currency received. The
 * dialog checks it with this schema before sending amountReceivedMinor.
 */
export const amountReceivedTextSchema = z.string().transform((text, ctx) => {
  const minor = parseMinor(text);
  if (minor === undefined || minor < 1) {
    ctx.addIssue({
      code: 'custom',
      message: 'Amount received must be an amount of at least 0.01, with at most two decimals',
    });
    return z.NEVER;
  }
  return minor;
});

export const EDIT_AMOUNT_MESSAGE = 'Please enter a valid amount (minimum $1)';

/** The amount an admin may set on an existing pledge (the edit dialog checks it too). */
export const pledgeEditAmount = z
  .number({ error: EDIT_AMOUNT_MESSAGE })
  .min(PLEDGE_AMOUNT_MIN, { error: EDIT_AMOUNT_MESSAGE })
  .max(PLEDGE_AMOUNT_MAX, { error: 'Pledge amount must be at most 1,000,000,000' })
  .int({ error: EDIT_AMOUNT_MESSAGE });

/** PATCH /api/pledges/{id}: {updates: {name, email, amount}}, each optional. */
export const pledgeEditSchema = z.object({
  updates: z.object(
    {
      name: pledgeName.optional(),
      email: pledgeEmail.optional(),
      amount: pledgeEditAmount.optional(),
      /** Only for a confirmed pledge (a later instalment, a correction). */
      amountReceived: amountReceivedSchema.optional(),
      /** The total received in cents (wins over amountReceived): J$12.34 is 1234. */
      amountReceivedMinor: amountReceivedMinorSchema.optional(),
      currencyReceived: currencySchema.optional(),
    },
    { error: 'updates must be an object' },
  ),
});
export type PledgeEdit = z.infer<typeof pledgeEditSchema>;

/**
 * What anyone may see of a pledge: no e-mail, and "Anonymous" instead of an anonymous donor's name.
 */
export const publicPledgeSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  amount: z.number().int(),
  currency: currencySchema,
  containers: z.number().int(),
  isAnonymous: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type PublicPledge = z.infer<typeof publicPledgeSchema>;

/**
 * The public view's keys, written out: the allow-list tests hold responses to, kept apart from
 * the schema so that a key added to the schema by mistake fails them.
 */
export const PUBLIC_PLEDGE_KEYS = [
  'id',
  'name',
  'amount',
  'currency',
  'containers',
  'isAnonymous',
  'createdAt',
] as const;

export const adminPledgeSchema = publicPledgeSchema.extend({
  email: z.string(),
  isPaid: z.boolean(),
  paymentConfirmedAt: z.iso.datetime().nullable(),
  /**
   * Payment reference, e.g. MRJ-7K4Q-2 (docs/decisions/012-payment-reference.md): admins, and the
   * donor in the POST answer.
   */
  reference: z.string(),
  /**
   * What arrived, in units of currencyReceived (12.34 when cents arrived): null while pending.
   * amountReceivedMinor is the same in cents.
   */
  amountReceived: z.number().nullable(),
  currencyReceived: currencySchema.nullable(),
  amountReceivedMinor: z.number().int().nullable().optional(),
  /** What arrived credited to the pledge, in cents of the pledge's currency (0 while pending). */
  receivedMinor: z.number().int().optional(),
  /** Still owed in the pledge's currency: the amount while pending, 0 once fully paid. */
  outstandingAmount: z.number(),
  outstandingMinor: z.number().int().optional(),
  /** Received beyond the pledge, in cents of the pledge's currency (0 unless over paid). */
  overpaidMinor: z.number().int().optional(),
  /**
   * pending, part-paid, paid or over-paid (shared/received.ts): isPaid stays true for a part
   * payment.
   */
  paymentState: paymentStateSchema,
  /**
   * The admin table: when the donor pressed "I've sent the transfer"
   * (docs/decisions/014-email-outbox.md).
   */
  donorSaysSentAt: z.iso.datetime().nullable().optional(),
  /**
   * open, cancelled (by the donor), lapsed (unpaid after the lapse day, still counted) or released
   * (lapsed, released by the admin): docs/decisions/019-reminders-and-lapse.md.
   */
  pledgeStatus: pledgeStatusSchema.optional(),
});
export type AdminPledge = z.infer<typeof adminPledgeSchema>;

/** The answer to POST /api/pledges: the public view plus what only the donor who pledged sees. */
export const createdPledgeSchema = publicPledgeSchema.extend({
  isPaid: z.boolean(),
  reference: z.string(),
  /**
   * The donor's status page, /pledge/{id}?t={token} (docs/decisions/014-email-outbox.md). Absent
   * when an Idempotency-Key replay comes from another client than the pledge's.
   */
  statusUrl: z.string().optional(),
});
export type CreatedPledge = z.infer<typeof createdPledgeSchema>;

/** GET /api/pledges: the public view, or the admin view for an admin session. */
export const pledgeListSchema = z.array(z.union([adminPledgeSchema, publicPledgeSchema]));

export type Pledge = PublicPledge &
  Partial<Pick<AdminPledge, 'email' | 'isPaid' | 'paymentConfirmedAt'>>;

/** GET /api/pledges?limit=N: newest first; without limit, every pledge. */
const LIMIT_MESSAGE = 'limit must be a whole number from 1 to 1000';
export const pledgeListQuerySchema = z.object({
  limit: z.coerce
    .number({ error: LIMIT_MESSAGE })
    .int({ error: LIMIT_MESSAGE })
    .min(1, { error: LIMIT_MESSAGE })
    .max(1000, { error: LIMIT_MESSAGE })
    .optional(),
});

/** Admin listing query (GET /api/admin/pledges): server-side search, filter, sort and paging. */
export const adminPledgeQuerySchema = z.object({
  search: z.string().max(200).optional().default(''),
  /** cancelled and lapsed (lapsed or released) are the statuses of migration 0019 (record 019). */
  status: z.enum(['all', 'paid', 'pending', 'cancelled', 'lapsed']).optional().default('all'),
  sort: z.enum(['date', 'amount']).optional().default('date'),
  order: z.enum(['asc', 'desc']).optional().default('desc'),
  page: z.coerce.number().int().min(1).max(1_000_000).optional().default(1),
  pageSize: z.coerce.number().int().min(1).max(200).optional().default(50),
  /**
   * Only pledges with money still owed, of this age in days (the fulfilment report's buckets,
   * counted in the campaign's time zone).
   */
  age: z.enum(AGE_BUCKETS).optional(),
});
export type AdminPledgeQuery = z.infer<typeof adminPledgeQuerySchema>;

const pledgeStatsSchema = z.object({
  totalPledges: z.number().int(),
  paidPledges: z.number().int(),
  pendingPledges: z.number().int(),
  totalUSD: z.number(),
  totalJMD: z.number(),
  /** Money that arrived, per currency received. */
  receivedUSD: z.number(),
  receivedJMD: z.number(),
});
export type PledgeStats = z.infer<typeof pledgeStatsSchema>;

export const adminPledgePageSchema = z.object({
  items: z.array(adminPledgeSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  stats: pledgeStatsSchema,
});
export type AdminPledgePage = z.infer<typeof adminPledgePageSchema>;

/**
 * PUT /api/pledges/{id}/confirm: the spec sends an empty object (or nothing); an admin may say
 * what actually arrived. Both default to the pledge's own amount and currency. Nullish because
 * Fastify hands a missing body to the validator as null (the route refuses a JSON `null` itself).
 */
export const pledgeConfirmSchema = z
  .object({
    amountReceived: amountReceivedSchema.optional(),
    /** What arrived in cents (wins over amountReceived): J$12.34 is 1234. */
    amountReceivedMinor: amountReceivedMinorSchema.optional(),
    currencyReceived: currencySchema.optional(),
  })
  .nullish()
  .transform((v) => v ?? {});
