import { z } from 'zod';

export const loginSchema = z.object({
  password: z
    .string({ error: 'Password is required' })
    .min(1, { error: 'Password is required' })
    .max(4096, { error: 'Invalid admin password' }),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const ADMIN_MESSAGES = {
  passwordRequired: 'Password is required',
  invalidPassword: 'Invalid admin password',
  unauthorized: 'Admin session required',
  sessionExpiredTitle: 'Session Expired',
  sessionExpired: 'Your session has expired. Please log in again.',
} as const;
