import { z } from 'zod';
import { CAMPAIGN_TIME_ZONE, GOAL_MAX } from '../constants';
import { DEFAULT_REFERENCE_PREFIX, REFERENCE_PREFIX_PATTERN } from '../payment-reference';
import { DEFAULT_CURRENCIES, DEFAULT_GOAL } from '../prices';

/**
 * Everything a charity changes without touching code (product rule,
 * docs/decisions/010-product-rules.md). Loaded from config/campaign.json (or CAMPAIGN_CONFIG) and
 * validated at start-up.
 */
const text = z.string().trim().min(1);

function validTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
const link = z.url({ protocol: /^https?$/ });

const UNIT_PRICE_MAX = 1_000_000;
const currencyDisplay = z.object({
  /** Written before every amount of this currency: "US$" in "US$1,250". */
  prefix: z
    .string()
    .trim()
    .min(1, { error: 'prefix must be 1 to 6 characters, e.g. US$' })
    .max(6, { error: 'prefix must be 1 to 6 characters, e.g. US$' }),
  /**
   * The price of one container in cents of this currency. The two prices are also the rate
   * between the currencies (a transfer in the other currency is compared at it).
   */
  unitPriceCents: z
    .number({ error: 'unitPriceCents must be a whole number of cents from 1 to 1,000,000' })
    .int({ error: 'unitPriceCents must be a whole number of cents from 1 to 1,000,000' })
    .min(1, { error: 'unitPriceCents must be a whole number of cents from 1 to 1,000,000' })
    .max(UNIT_PRICE_MAX, {
      error: 'unitPriceCents must be a whole number of cents from 1 to 1,000,000',
    }),
  /** The pledge dialog's example amount (a whole number, as donors type it). */
  amountPlaceholder: z
    .string()
    .regex(/^[1-9]\d{0,9}$/, { error: 'amountPlaceholder must be a whole number, e.g. 100' }),
});

const bankAccount = z.object({
  beneficiary: text,
  bank: text,
  branch: text,
  accountNumber: text,
  accountType: text,
});

const privacySchema = z.object({
  /** The campaign's last day (YYYY-MM-DD, Jamaica time): retention counts from it. */
  campaignEndsOn: z.iso.date({ error: 'privacy.campaignEndsOn must be a date, YYYY-MM-DD' }),
  /** Days after campaignEndsOn when every pledge's name and e-mail are anonymised. */
  retentionDays: z
    .number({ error: 'privacy.retentionDays must be a whole number of days' })
    .int({ error: 'privacy.retentionDays must be a whole number of days' })
    .min(0, { error: 'privacy.retentionDays must be a whole number of days' }),
  /** The privacy notice (/privacy): who is responsible, why, how long, the donor's rights. */
  notice: z.object({
    version: text,
    controller: text,
    purposes: z.array(text).min(1),
    retention: text,
    rights: z.array(text).min(1),
    contact: text,
  }),
});

export const campaignSchema = z.object({
  name: text,
  tagline: text,
  /** The home page's document title (also the share preview's fallback). */
  siteTitle: text,
  /**
   * The pages' meta description, for search engines. Here and in the texts below that say so,
   * {campaign} is the campaign's name, {unitPrice} the price of one container in both currencies,
   * {currencies} their prefixes and {goal} the configured goal (campaignText in shared/share.ts).
   */
  siteDescription: text,
  /** What a donor shares after "I just pledged N meal containers" ({campaign}, {unitPrice}, {goal}). */
  shareMessage: text,
  /**
   * The last sentence of the home's share preview (og:description), after the tagline and the
   * live progress ({campaign}, {unitPrice}, {goal}).
   */
  shareDescription: text.default(
    'Every pledge provides biodegradable meal containers for community kitchens and shelters.',
  ),
  /** The small line above the home page's and the welcome box's heading. */
  eyebrow: text.default('Hurricane relief · Jamaica'),
  /**
   * Who the meals are for, as the e-mails word it: "That is 1,000 meal containers for
   * {beneficiaries}." and "your gift is now turning into meals for {beneficiaries}."
   */
  beneficiaries: text.default('families rebuilding after the hurricane'),
  /**
   * Each currency's prefix, the price of one container in it and the pledge dialog's example.
   * containers = floor(amount × 100 / unitPriceCents) (shared/containers.ts).
   */
  currencies: z.object({ USD: currencyDisplay, JMD: currencyDisplay }).default(DEFAULT_CURRENCIES),
  /** The goal in containers, until an owner sets another in the admin (which then stays). */
  goal: z
    .number({ error: `goal must be a whole number of containers from 1 to ${GOAL_MAX}` })
    .int({ error: `goal must be a whole number of containers from 1 to ${GOAL_MAX}` })
    .min(1, { error: `goal must be a whole number of containers from 1 to ${GOAL_MAX}` })
    .max(GOAL_MAX, { error: `goal must be a whole number of containers from 1 to ${GOAL_MAX}` })
    .default(DEFAULT_GOAL),
  mission: z.array(text).min(1),
  partners: z
    .array(
      z.object({
        name: text,
        role: text,
        url: link,
        /** Path of a logo under client/public, e.g. /logos/charity.svg */
        logo: z.string().regex(/^\/[\w./-]+$/),
      }),
    )
    .min(1),
  suppliedEntities: z.array(text).min(1),
  lightbox: z.object({
    context: text,
    problem1: text,
    problem2: text,
    solution: text,
    /** ({campaign}, {unitPrice}, {goal}) */
    howYouCanHelp: text,
  }),
  payment: z.object({
    usdWire: bankAccount.extend({
      swift: text,
      intermediaryBank: z.object({ name: text, address: text, swift: text, aba: text }),
    }),
    jmdTransfer: bankAccount,
    confirmationEmail: z.email(),
    /**
     * Also ask donors to e-mail a confirmation of their transfer: off by default, the
     * status page's "I've sent the transfer" is the one action.
     */
    askForConfirmationEmail: z.boolean().default(false),
    operationName: text,
    /**
     * First part of every payment reference, e.g. MRJ in MRJ-7K4Q-2
     * (docs/decisions/012-payment-reference.md).
     */
    referencePrefix: z
      .string()
      .regex(REFERENCE_PREFIX_PATTERN, 'referencePrefix must be 2 to 5 capital letters')
      .default(DEFAULT_REFERENCE_PREFIX),
  }),
  supplierBrand: z
    .string()
    .regex(/^[A-Za-z0-9-]+$/, 'supplierBrand must be letters, digits and dashes'),
  footerDisclaimer: z.array(text).min(1),
  /**
   * Reminders for unpaid pledges (docs/decisions/019-reminders-and-lapse.md): sent at
   * these days after the pledge; still unpaid `lapseAfterDays` after it, a pledge is Lapsed.
   */
  reminders: z
    .object({
      days: z
        .array(z.number().int().min(1).max(365))
        .min(1)
        .max(10)
        .refine((d) => d.every((x, i) => i === 0 || x > d[i - 1]!), {
          message: 'reminders.days must be increasing',
        })
        .default([7, 21, 42]),
      lapseAfterDays: z.number().int().min(1).max(730).default(60),
      enabled: z.boolean().default(true),
      /** How often the scheduler looks, and at most how many reminders one look sends. */
      checkEveryMinutes: z.number().int().min(1).max(1440).default(15),
      maxPerRun: z.number().int().min(1).max(10_000).default(200),
    })
    .refine((r) => r.lapseAfterDays > r.days[r.days.length - 1]!, {
      message: 'reminders.lapseAfterDays must be after the last reminder day',
    })
    .default({
      days: [7, 21, 42],
      lapseAfterDays: 60,
      enabled: true,
      checkEveryMinutes: 15,
      maxPerRun: 200,
    }),
  /**
   * The campaign's time zone (IANA name): the admin shows every date and time in it, and the
   * fulfilment report counts its days and weeks in it.
   */
  timeZone: z
    .string()
    .refine(validTimeZone, { message: 'timeZone must be an IANA time zone, e.g. America/Jamaica' })
    .default(CAMPAIGN_TIME_ZONE),
  /** Donor data and privacy: the notice at /privacy and the retention rule. */
  privacy: privacySchema.optional(),
});

export type Campaign = z.infer<typeof campaignSchema>;
