import { z } from 'zod';
import { ADMIN_MESSAGES } from './admin-messages';

export const loginSchema = z.object({
  password: z
    .string({ error: ADMIN_MESSAGES.passwordRequired })
    .min(1, { error: ADMIN_MESSAGES.passwordRequired })
    .max(4096, { error: ADMIN_MESSAGES.invalidPassword }),
  /**
   * A team member's e-mail. Absent or empty: the owner's password (ADMIN_PASSWORD), the
   * spec's login unchanged.
   */
  email: z.string().trim().max(320).optional(),
});

export { ADMIN_MESSAGES } from './admin-messages';
