import { z } from 'zod';

/**
 * Everything a charity changes without touching code (DECISIONS 14).
 * Loaded from config/campaign.json (or CAMPAIGN_CONFIG) and validated at start-up.
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
    operationName: text,
  }),
  supplierBrand: z
    .string()
    .regex(/^[A-Za-z0-9-]+$/, 'supplierBrand must be letters, digits and dashes'),
  footerDisclaimer: z.array(text).min(1),
});

export type Campaign = z.infer<typeof campaignSchema>;
