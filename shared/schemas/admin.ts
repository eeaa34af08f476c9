import { z } from 'zod';

export const loginSchema = z.object({
  password: z
    .string({ error: 'Password is required' })
    .min(1, { error: 'Password is required' })
    .max(4096, { error: 'Invalid admin password' }),
});
export type LoginInput = z.infer<typeof loginSchema>;

export { ADMIN_MESSAGES } from './admin-messages';
