import { z } from 'zod';

/**
 * The reminder schedule and lapse as the admin sees them
 * (docs/decisions/019-reminders-and-lapse.md).
 */
export const reminderSettingsSchema = z.object({
  /** campaign.json, read-only here. */
  schedule: z.object({
    days: z.array(z.number().int()),
    lapseAfterDays: z.number().int(),
    enabled: z.boolean(),
  }),
  /** The campaign-wide pause: when it was paused, or null. */
  pausedAt: z.iso.datetime().nullable(),
  /** Lapsed pledges still counted in the totals, until the admin releases them. */
  lapsed: z.object({
    count: z.number().int(),
    usd: z.number(),
    jmd: z.number(),
    containers: z.number().int(),
  }),
});
export type ReminderSettings = z.infer<typeof reminderSettingsSchema>;

export const reminderPauseSchema = z.object({ paused: z.boolean() });

/** One pledge's reminders: those sent, the next one due, and its pause. */
export const pledgeRemindersSchema = z.object({
  sent: z.array(
    z.object({
      step: z.number().int().nullable(),
      queuedAt: z.iso.datetime(),
      status: z.enum(['sent', 'waiting', 'failed']),
    }),
  ),
  nextDueAt: z.iso.datetime().nullable(),
  pausedAt: z.iso.datetime().nullable(),
});
export type PledgeReminders = z.infer<typeof pledgeRemindersSchema>;

export const releasedSchema = z.object({ released: z.number().int() });
