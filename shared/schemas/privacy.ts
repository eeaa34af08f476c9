import { z } from 'zod';

/** POST /api/pledges/{id}/erase: the status link's token, and the donor's explicit yes. */
export const donorEraseSchema = z.object({
  t: z.string({ error: 'Pledge not found' }).min(1, { error: 'Pledge not found' }).max(200),
  confirm: z.literal(true, { error: 'Confirm the erasure' }),
});

/** POST /api/admin/privacy/erase: every pledge of one e-mail address (a request by letter). */
export const adminEraseSchema = z.object({
  email: z.email({ error: 'Enter the e-mail address whose pledges to erase' }).max(254),
});

export const eraseResultSchema = z.object({ erased: z.number().int() });

/** GET /api/admin/privacy: the retention rule and when it runs. */
export const retentionStatusSchema = z.object({
  campaignEndsOn: z.string().nullable(),
  retentionDays: z.number().int().nullable(),
  /** When every pledge's name and e-mail are anonymised; null without a rule. */
  anonymiseOn: z.iso.datetime().nullable(),
  /** Pledges whose name and e-mail are still held. */
  pledgesWithPersonalData: z.number().int(),
});
export type RetentionStatus = z.infer<typeof retentionStatusSchema>;

/** The donor's data download (GET /api/pledges/{id}/my-data): documented loosely, built by the service. */
export const donorDataSchema = z.record(z.string(), z.unknown());
