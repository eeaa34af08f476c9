/**
 * The admin texts (fixed product wording), without zod: the public bundle needs "Session Expired"
 * but not the schemas (zod would add ~60 KB gzipped to the home page).
 */
export const ADMIN_MESSAGES = {
  passwordRequired: 'Password is required',
  invalidPassword: 'Invalid admin password',
  unauthorized: 'Admin session required',
  sessionExpiredTitle: 'Session Expired',
  sessionExpired: 'Your session has expired. Please log in again.',
  /** A team member's sign-in (e-mail + password) that did not match: never says which was wrong. */
  invalidMemberLogin: 'Invalid e-mail or password',
} as const;
