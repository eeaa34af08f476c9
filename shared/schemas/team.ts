import { z } from 'zod';
import { ADMIN_ROLES, MEMBER_ROLES } from '../admin-roles';

/** The owner's Team tab and the member's set-password page. */
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
  passwordCommon:
    'This password is on a list of common passwords that attackers try first. Choose another.',
  currentPasswordWrong: 'Your current password is not correct',
  samePassword: 'Choose a password different from your current one',
  tooManyAttempts: 'Too many attempts. Please wait a minute and try again.',
  ownerPassword: 'The owner’s password is set by ADMIN_PASSWORD on the server',
  ownerFactors: 'The owner changes their own second factors in Security settings',
  noSecondFactor: 'This member has no second factor to clear',
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
  /** Whether the account has an authenticator app or a passkey set up. */
  secondFactor: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

export const teamListSchema = z.object({ members: z.array(teamMemberSchema) });

const newPasswordSchema = z
  .string({ error: TEAM_MESSAGES.passwordTooShort })
  .min(PASSWORD_MIN, { error: TEAM_MESSAGES.passwordTooShort })
  .max(200, { error: TEAM_MESSAGES.passwordTooLong });

export const invitationTokenSchema = z.object({
  token: z.string({ error: TEAM_MESSAGES.linkInvalid }).min(1).max(200),
});
export const acceptInvitationSchema = invitationTokenSchema.extend({ password: newPasswordSchema });

/** What the join page shows before the member chooses a password. */
export const invitationInfoSchema = z.object({
  name: z.string(),
  email: z.string(),
  /** A reset link (the account already has a password) rather than an invitation. */
  reset: z.boolean(),
});
export type InvitationInfo = z.infer<typeof invitationInfoSchema>;

/** A signed-in member changes their own password. */
export const changePasswordSchema = z.object({
  currentPassword: z
    .string({ error: TEAM_MESSAGES.currentPasswordWrong })
    .min(1, { error: TEAM_MESSAGES.currentPasswordWrong })
    .max(200, { error: TEAM_MESSAGES.currentPasswordWrong }),
  newPassword: newPasswordSchema,
});
export type ChangePassword = z.infer<typeof changePasswordSchema>;

/** One active admin session as the owner's list shows it (the address masked). */
const adminSessionSchema = z.object({
  /** A short handle for React lists; not the cookie or its hash. */
  key: z.string(),
  accountId: z.string(),
  name: z.string(),
  role: z.enum(ADMIN_ROLES),
  startedAt: z.iso.datetime(),
  lastSeenAt: z.iso.datetime(),
  clientIp: z.string().nullable(),
  current: z.boolean(),
});
export type AdminSession = z.infer<typeof adminSessionSchema>;
export const adminSessionListSchema = z.object({ sessions: z.array(adminSessionSchema) });

/** The people the Activity tab can filter by. */
export const activityPeopleSchema = z.object({
  people: z.array(z.object({ id: z.string(), name: z.string(), role: z.enum(ADMIN_ROLES) })),
});
export type ActivityPerson = z.infer<typeof activityPeopleSchema>['people'][number];

/** The address a session came from, enough to tell a home from a phone network, not to locate. */
export function maskIp(ip: string | null): string | null {
  if (!ip) return null;
  const v4 = /^(?:::ffff:)?(\d+)\.(\d+)\.(\d+)\.\d+$/i.exec(ip);
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.x`;
  if (ip.includes(':')) {
    const groups = ip.split('::')[0]!.split(':').filter(Boolean).slice(0, 3);
    return `${groups.join(':') || '0'}:…`;
  }
  return 'x';
}
