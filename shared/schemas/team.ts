import { z } from 'zod';
import { ADMIN_ROLES, MEMBER_ROLES } from '../admin-roles';

/** Issue 27: the owner's Team tab and the member's set-password page. */
export const TEAM_MESSAGES = {
  nameRequired: 'Enter the member’s name',
  emailInvalid: 'Enter a valid e-mail address',
  roleInvalid: 'Choose treasurer, editor or viewer',
  passwordTooShort: 'Use at least 12 characters',
  passwordTooLong: 'Use at most 200 characters',
  linkInvalid: 'This link has expired or was already used. Ask the campaign’s owner for a new one.',
  emailTaken: 'A team member with this e-mail address exists',
  ownerFixed: 'The owner’s account is set by ADMIN_PASSWORD and cannot be changed here',
  memberNotFound: 'Team member not found',
} as const;

const PASSWORD_MIN = 12;

export const memberInviteSchema = z.object({
  name: z
    .string({ error: TEAM_MESSAGES.nameRequired })
    .trim()
    .min(1, { error: TEAM_MESSAGES.nameRequired })
    .max(100, { error: TEAM_MESSAGES.nameRequired }),
  email: z
    .string({ error: TEAM_MESSAGES.emailInvalid })
    .trim()
    .max(254, { error: TEAM_MESSAGES.emailInvalid })
    .pipe(z.email({ error: TEAM_MESSAGES.emailInvalid })),
  role: z.enum(MEMBER_ROLES, { error: TEAM_MESSAGES.roleInvalid }),
});

export const memberUpdateSchema = z
  .object({
    role: z.enum(MEMBER_ROLES, { error: TEAM_MESSAGES.roleInvalid }).optional(),
    disabled: z.boolean().optional(),
  })
  .refine((v) => v.role !== undefined || v.disabled !== undefined, {
    error: 'Send a role or disabled',
  });

export const teamMemberSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  role: z.enum(ADMIN_ROLES),
  /** invited: no password yet; active; disabled. */
  status: z.enum(['invited', 'active', 'disabled']),
  createdAt: z.iso.datetime(),
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

export const teamListSchema = z.object({ members: z.array(teamMemberSchema) });

const newPasswordSchema = z
  .string({ error: TEAM_MESSAGES.passwordTooShort })
  .min(PASSWORD_MIN, { error: TEAM_MESSAGES.passwordTooShort })
  .max(200, { error: TEAM_MESSAGES.passwordTooLong });

export const invitationTokenSchema = z.object({ token: z.string().min(1).max(200) });
export const acceptInvitationSchema = invitationTokenSchema.extend({ password: newPasswordSchema });
