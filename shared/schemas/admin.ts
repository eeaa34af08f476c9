import { z } from 'zod';
import { ADMIN_MESSAGES } from './admin-messages';

export const loginSchema = z.object({
  password: z
    .string({ error: ADMIN_MESSAGES.passwordRequired })
    .min(1, { error: ADMIN_MESSAGES.passwordRequired })
    .max(4096, { error: ADMIN_MESSAGES.invalidPassword }),
});

export { ADMIN_MESSAGES } from './admin-messages';
