import type { AdminRole } from '@shared/admin-roles';

/**
 * Who may call a route, declared in its options (`config: { access }`) and enforced by the auth
 * plugin: deny by default, so a route with no access is refused. An 'admin' route's roles are in
 * one table, shared/admin-roles.ts.
 */
export type RouteAccess = 'public' | 'admin' | 'signed';

/** The signed-in admin account of a request (server/plugins/auth.ts sets it). */
export interface AdminIdentity {
  sessionTokenHash: string;
  accountId: string;
  /** The account's name and role now (the audit log keeps them as they were). */
  name: string;
  role: AdminRole;
  /**
   * A session that may only set up a second factor (the campaign requires one and the account has
   * none yet): the auth plugin lets it reach the routes marked `secondFactorSetup` only.
   */
  setupOnly?: boolean;
}
