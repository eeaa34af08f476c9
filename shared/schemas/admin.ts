import { z } from 'zod';
import { ADMIN_MESSAGES } from './admin-messages';

export const loginSchema = z.object({
  password: z
    .string({ error: ADMIN_MESSAGES.passwordRequired })
    .min(1, { error: ADMIN_MESSAGES.passwordRequired })
    .max(4096, { error: ADMIN_MESSAGES.invalidPassword }),
});
export type LoginInput = z.infer<typeof loginSchema>;

export { ADMIN_MESSAGES } from './admin-messages';
