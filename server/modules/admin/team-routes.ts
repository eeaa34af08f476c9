import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AdminRole } from '@shared/admin-roles';
import {
  acceptInvitationSchema,
  activityPeopleSchema,
  adminSessionListSchema,
  changePasswordSchema,
  invitationInfoSchema,
  invitationTokenSchema,
  maskIp,
  memberInviteSchema,
  memberUpdateSchema,
  TEAM_MESSAGES,
  teamListSchema,
  teamMemberSchema,
  type TeamMember,
} from '@shared/schemas/team';
import type { AppContext } from '../../context';
import { OWNER_ACCOUNT_ID } from '../../db/schema';
import type { DbOrTx } from '../../db/client';
import { HttpError } from '../../lib/http-error';
import { actingAs } from '../audit/actor';
import { audited, writeAudit } from '../audit/repo';
import { enqueueInvitation } from '../email/repo';
import { clientKey } from '../../lib/client-key';
import { isCommonPassword } from './common-passwords';
import { hashPassword, sha256, verifyPassword } from './password';
import { PasswordCheckGate } from './password-check-gate';
import * as repo from './repo';
import * as tfRepo from './two-factor-repo';

/** How long an invitation or reset link works. */
const INVITATION_TTL_MS = 72 * 3600_000;

const idParams = z.object({ id: z.uuid({ error: TEAM_MESSAGES.memberNotFound }) });
const okSchema = z.object({ ok: z.literal(true) });
const WINDOW_MS = 60_000;
/** POSTs with one link per minute: a person sets a password once, maybe after a refusal or two. */
const PER_LINK_PER_MINUTE = 5;

function toMember(r: repo.AccountRow, withSecondFactor: Set<string>): TeamMember {
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    role: r.role as AdminRole,
    status: r.disabledAt
      ? 'disabled'
      : r.passwordHash || r.id === OWNER_ACCOUNT_ID
        ? 'active'
        : 'invited',
    secondFactor: withSecondFactor.has(r.id),
    createdAt: r.createdAt.toISOString(),
  };
}

/**
 * The team (docs/decisions/021-team-accounts.md): the owner adds members, changes their
 * roles and disables them; an invitation link (single use, 72 hours, sent through the outbox) lets
 * a member choose a password. Who may call what is in shared/admin-roles.ts.
 */
export async function teamRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, config, email } = ctx;
  /** Own-password checks: scrypt work bounded as the login's (docs/decisions/008). */
  const gate = new PasswordCheckGate({ perClient: 2, running: 1, queued: 10 });

  /** Counts one attempt under `key`; 429 once more than `limit` this minute (0: no limit). */
  async function countAttempt(key: string, limit: number) {
    if (limit <= 0) return;
    const hit = await repo.hitRateLimit(db, key, config.now(), WINDOW_MS);
    if (hit.count > limit) {
      const wait = Math.ceil((hit.resetAt.getTime() - config.now().getTime()) / 1000);
      throw new HttpError(429, TEAM_MESSAGES.tooManyAttempts, undefined, {
        'Retry-After': String(Math.max(1, wait)),
      });
    }
  }

  /** The join page's rules beyond the schema's length: not a common password. */
  async function refuseCommon(password: string) {
    if (await isCommonPassword(password)) throw new HttpError(400, TEAM_MESSAGES.passwordCommon);
  }

  /** A new link for the account (older ones stop working) and its e-mail, in `tx`. */
  async function invite(tx: DbOrTx, accountId: string) {
    await repo.deleteInvitations(tx, accountId);
    const id = randomUUID();
    const now = config.now();
    await repo.insertInvitation(tx, {
      id,
      tokenHash: sha256(email.links.invitationToken(id)),
      accountId,
      now,
      expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
    });
    await enqueueInvitation(tx, id);
  }

  app.get(
    '/api/admin/team',
    { config: { access: 'admin' }, schema: { response: { 200: teamListSchema } } },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const [rows, withFactor] = await Promise.all([
        repo.listAccounts(db),
        tfRepo.accountsWithSecondFactor(db),
      ]);
      return { members: rows.map((r) => toMember(r, withFactor)) };
    },
  );

  app.post(
    '/api/admin/team',
    {
      config: { access: 'admin' },
      schema: { body: memberInviteSchema, response: { 201: teamMemberSchema } },
    },
    async (request, reply) => {
      const { name, email: address, role } = request.body;
      const row = await audited(db, request, async (tx) => {
        const created = await repo.insertAccount(tx, {
          name,
          email: address.toLowerCase(),
          role,
          now: config.now(),
        });
        if (!created) throw new HttpError(409, TEAM_MESSAGES.emailTaken);
        await invite(tx, created.id);
        return {
          result: created,
          audit: {
            action: 'team.invite',
            targetType: 'admin_account',
            targetId: created.id,
            details: { name, email: created.email, role },
          },
        };
      });
      email.worker.kick();
      return reply.code(201).send(toMember(row, new Set()));
    },
  );

  app.patch(
    '/api/admin/team/:id',
    {
      config: { access: 'admin' },
      schema: { params: idParams, body: memberUpdateSchema, response: { 200: teamMemberSchema } },
    },
    async (request) => {
      const { id } = request.params;
      if (id === OWNER_ACCOUNT_ID) throw new HttpError(400, TEAM_MESSAGES.ownerFixed);
      const { role, disabled } = request.body;
      const row = await audited(db, request, async (tx) => {
        const before = await repo.findAccount(tx, id);
        if (!before) throw new HttpError(404, TEAM_MESSAGES.memberNotFound);
        const after = await repo.updateAccount(tx, id, {
          ...(role ? { role } : {}),
          ...(disabled === undefined ? {} : { disabledAt: disabled ? config.now() : null }),
        });
        // A disabled member is signed out at once everywhere. (A new role applies from the next
        // request: the auth hook reads it with the session.)
        const roleChanged = role !== undefined && role !== before.role;
        if (disabled === true && !before.disabledAt) await repo.deleteAccountSessions(tx, id);
        const audit = [
          ...(roleChanged
            ? [
                {
                  action: 'team.role' as const,
                  targetType: 'admin_account',
                  targetId: id,
                  details: { name: before.name, before: before.role, after: role },
                },
              ]
            : []),
          ...(disabled !== undefined && disabled !== Boolean(before.disabledAt)
            ? [
                {
                  action: disabled ? ('team.disable' as const) : ('team.enable' as const),
                  targetType: 'admin_account',
                  targetId: id,
                  details: { name: before.name },
                },
              ]
            : []),
        ];
        return { result: after!, audit };
      });
      return toMember(row, await tfRepo.accountsWithSecondFactor(db));
    },
  );

  // A new link: the invitation again, or a password reset (the old password keeps working until
  // the new one is set; setting it ends the member's sessions).
  app.post(
    '/api/admin/team/:id/invitation',
    { config: { access: 'admin' }, schema: { params: idParams, response: { 200: okSchema } } },
    async (request) => {
      const { id } = request.params;
      if (id === OWNER_ACCOUNT_ID) throw new HttpError(400, TEAM_MESSAGES.ownerFixed);
      await audited(db, request, async (tx) => {
        const account = await repo.findAccount(tx, id);
        if (!account || account.disabledAt) throw new HttpError(404, TEAM_MESSAGES.memberNotFound);
        await invite(tx, id);
        return {
          result: undefined,
          audit: {
            action: 'team.invite',
            targetType: 'admin_account',
            targetId: id,
            details: { name: account.name, email: account.email, role: account.role, again: true },
          },
        };
      });
      email.worker.kick();
      return { ok: true as const };
    },
  );

  // The set-password page: whose link is this (nothing is used up by looking)?
  app.post(
    '/api/team/invitation',
    {
      config: { access: 'public' },
      bodyLimit: 4096,
      schema: { body: invitationTokenSchema, response: { 200: invitationInfoSchema } },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      await countAttempt(
        `team-link-peek:${clientKey(request.ip)}`,
        config.rateLimitLoginPerMinute * 3,
      );
      const found = await repo.peekInvitation(db, sha256(request.body.token), config.now());
      if (!found?.email) throw new HttpError(404, TEAM_MESSAGES.linkInvalid);
      return { name: found.name, email: found.email, reset: found.hasPassword };
    },
  );

  // Sets the member's password with the link: used up in the same statement that finds it.
  app.post(
    '/api/team/password',
    {
      config: { access: 'public' },
      bodyLimit: 4096,
      schema: { body: acceptInvitationSchema, response: { 200: okSchema } },
    },
    async (request) => {
      const { token, password } = request.body;
      // Per address and per link, counted before any work: a link is 256 bits, so
      // this bounds the scrypt work and the common-list checks one client can cause.
      const limit = config.rateLimitLoginPerMinute;
      await countAttempt(`team-link:${clientKey(request.ip)}`, limit);
      await countAttempt(`team-link-token:${sha256(token)}`, limit > 0 ? PER_LINK_PER_MINUTE : 0);
      await refuseCommon(password);
      const hash = await hashPassword(password);
      await db.transaction(async (tx) => {
        const accountId = await repo.useInvitation(tx, sha256(token), config.now());
        const account = accountId ? await repo.findAccount(tx, accountId) : undefined;
        if (!account || account.disabledAt) throw new HttpError(404, TEAM_MESSAGES.linkInvalid);
        await repo.updateAccount(tx, account.id, { passwordHash: hash });
        // A changed password ends every session of the account.
        await repo.deleteAccountSessions(tx, account.id);
        await writeAudit(tx, actingAs(request, account), {
          action: 'team.password_set',
          targetType: 'admin_account',
          targetId: account.id,
        });
      });
      return { ok: true as const };
    },
  );

  // A signed-in member changes their own password: the current one first, the same rules as the
  // join page; every other session of the account ends (this one stays signed in).
  app.post(
    '/api/admin/password',
    {
      config: { access: 'admin' },
      bodyLimit: 4096,
      schema: { body: changePasswordSchema, response: { 200: okSchema } },
    },
    async (request) => {
      const me = request.admin!;
      if (me.accountId === OWNER_ACCOUNT_ID) throw new HttpError(400, TEAM_MESSAGES.ownerPassword);
      const { currentPassword, newPassword } = request.body;
      const attempt = gate.enter(`password:${clientKey(request.ip)}`);
      try {
        await countAttempt(`password-change:${me.accountId}`, config.rateLimitLoginPerMinute);
        const account = await repo.findAccount(db, me.accountId);
        const ok =
          account?.passwordHash &&
          (await attempt.run(() => verifyPassword(currentPassword, account.passwordHash!)));
        if (!ok) throw new HttpError(400, TEAM_MESSAGES.currentPasswordWrong);
        if (currentPassword === newPassword) throw new HttpError(400, TEAM_MESSAGES.samePassword);
        await refuseCommon(newPassword);
        const hash = await attempt.run(() => hashPassword(newPassword));
        await db.transaction(async (tx) => {
          await repo.updateAccount(tx, me.accountId, { passwordHash: hash });
          await repo.deleteOtherSessions(tx, me.accountId, me.sessionTokenHash);
          await writeAudit(tx, request, {
            action: 'team.password_changed',
            targetType: 'admin_account',
            targetId: me.accountId,
          });
        });
      } finally {
        attempt.leave();
      }
      return { ok: true as const };
    },
  );

  // The owner's list of sessions still running, and ending one person's.
  app.get(
    '/api/admin/sessions',
    { config: { access: 'admin' }, schema: { response: { 200: adminSessionListSchema } } },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const rows = await repo.listSessions(db, config.now());
      const mine = request.admin!.sessionTokenHash;
      return {
        sessions: rows.map((r) => ({
          // A few characters of the hash: enough for a list key, useless as a credential.
          key: r.tokenHash.slice(0, 12),
          accountId: r.accountId,
          name: r.name,
          role: r.role as AdminRole,
          startedAt: r.createdAt.toISOString(),
          lastSeenAt: r.lastSeenAt.toISOString(),
          clientIp: maskIp(r.clientIp),
          current: r.tokenHash === mine,
        })),
      };
    },
  );

  app.delete(
    '/api/admin/team/:id/sessions',
    { config: { access: 'admin' }, schema: { params: idParams, response: { 200: okSchema } } },
    async (request) => {
      const { id } = request.params;
      await audited(db, request, async (tx) => {
        const account = await repo.findAccount(tx, id);
        if (!account) throw new HttpError(404, TEAM_MESSAGES.memberNotFound);
        await repo.deleteAccountSessions(tx, id);
        return {
          result: undefined,
          audit: {
            action: 'team.sessions.revoke',
            targetType: 'admin_account',
            targetId: id,
            details: { name: account.name },
          },
        };
      });
      return { ok: true as const };
    },
  );

  // A member who lost both phone and recovery codes: the owner clears their second factors, so
  // they sign in with the password alone (or, while one is required, are led to set one up).
  // Their sessions end too: one of them may be the thief's, opened with the lost phone.
  app.delete(
    '/api/admin/team/:id/second-factors',
    { config: { access: 'admin' }, schema: { params: idParams, response: { 200: okSchema } } },
    async (request) => {
      const { id } = request.params;
      if (id === OWNER_ACCOUNT_ID) throw new HttpError(400, TEAM_MESSAGES.ownerFactors);
      await audited(db, request, async (tx) => {
        const account = await repo.findAccount(tx, id);
        if (!account) throw new HttpError(404, TEAM_MESSAGES.memberNotFound);
        const cleared = await tfRepo.clearSecondFactors(tx, id);
        if (!cleared.totp && cleared.passkeys.length === 0) {
          throw new HttpError(409, TEAM_MESSAGES.noSecondFactor);
        }
        await repo.deleteAccountSessions(tx, id);
        return {
          result: undefined,
          audit: {
            action: 'team.second_factors.cleared',
            targetType: 'admin_account',
            targetId: id,
            details: { name: account.name, totp: cleared.totp, passkeys: cleared.passkeys },
          },
        };
      });
      return { ok: true as const };
    },
  );

  // Who the Activity tab can filter by: the accounts the log names.
  app.get(
    '/api/admin/activity/people',
    { config: { access: 'admin' }, schema: { response: { 200: activityPeopleSchema } } },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const rows = await repo.listActors(db);
      return { people: rows.map((r) => ({ ...r, role: r.role as AdminRole })) };
    },
  );
}
