import { z } from 'zod';
import { DEFAULT_REFERENCE_PREFIX, REFERENCE_PREFIX_PATTERN } from '../payment-reference';

/**
 * Everything a charity changes without touching code (product rule,
 * docs/decisions/010-product-rules.md). Loaded from config/campaign.json (or CAMPAIGN_CONFIG) and
 * validated at start-up.
 */
const text = z.string().trim().min(1);
const link = z.url({ protocol: /^https?$/ });

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
     * Also ask donors to e-mail a confirmation of their transfer (issue 24): off by default, the
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
  /** Donor data and privacy (issue 28): the notice at /privacy and the retention rule. */
  privacy: privacySchema.optional(),
});

export type Campaign = z.infer<typeof campaignSchema>;
