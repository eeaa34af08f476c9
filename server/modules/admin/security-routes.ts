import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { roleMay } from '@shared/admin-roles';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  passkeyRegisterSchema,
  reauthSchema,
  type Reauth,
  recoveryCodesSchema,
  requireSecondFactorSchema,
  secondFactorSchema,
  securityStatusSchema,
  totpConfirmSchema,
  totpSetupSchema,
  TWO_FACTOR_MESSAGES,
} from '@shared/schemas/two-factor';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { HttpError } from '../../lib/http-error';
import type { AdminIdentity } from '../../lib/route-access';
import { writeAudit } from '../audit/repo';
import { OWNER_ACCOUNT_ID } from '../../db/schema';
import { sha256, verifyPassword } from './password';
import * as repo from './repo';
import { REQUIRE_SETTING } from './two-factor';
import { twoFactorLogin } from './two-factor-login';
import * as tfRepo from './two-factor-repo';

/** How long a passkey registration may take between its options and the browser's answer. */
const REGISTRATION_TTL_MS = 5 * 60_000;

const okSchema = z.object({ ok: z.literal(true) });
const loginResultSchema = z.object({ ok: z.literal(true), isAuthenticated: z.literal(true) });
/** WebAuthn options as @simplewebauthn/server makes them, for @simplewebauthn/browser. */
const webauthnOptionsSchema = z.looseObject({ challenge: z.string() });
const passkeyParams = z.object({ id: z.string().min(1).max(1024) });

/**
 * Two-factor sign-in (docs/decisions/023-two-factor.md): the login's second step (public, carried
 * by its own short cookie), each account's own security settings (every role, also from a session
 * that may only set up a second factor), and the owner's "require a second factor for everyone".
 */
export async function securityRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, config } = ctx;
  const flow = twoFactorLogin(ctx);
  const { twoFactor, passkeys } = flow;
  const self = { access: 'admin' as const, secondFactorSetup: true };

  const me = (request: FastifyRequest): AdminIdentity => request.admin!;

  /** The second factors left if `without` were removed (recovery codes alone do not count). */
  async function factorsWithout(accountId: string, without: 'totp' | { passkey: string }) {
    const [totp, keys] = await Promise.all([
      tfRepo.findTotp(db, accountId),
      tfRepo.listPasskeys(db, accountId),
    ]);
    const hasTotp = without !== 'totp' && Boolean(totp?.confirmedAt);
    const otherKeys = keys.filter((k) => typeof without === 'string' || k.id !== without.passkey);
    return Number(hasTotp) + otherKeys.length;
  }

  /**
   * A factor was just added: the first one also brings the ten recovery codes (shown once), and
   * a set-up-only session becomes a full one.
   */
  async function afterAdding(tx: DbOrTx, request: FastifyRequest, admin: AdminIdentity) {
    const codes = (await tfRepo.hasRecoveryCodes(tx, admin.accountId))
      ? undefined
      : await twoFactor.newRecoveryCodes(admin.accountId, tx);
    if (codes) await writeAudit(tx, request, { action: 'admin.recovery_codes.created' });
    if (admin.setupOnly) await tfRepo.finishSetup(tx, admin.sessionTokenHash);
    return codes;
  }

  /**
   * Re-authentication before a change that weakens the account or hands out new ways in (removing
   * a factor, new recovery codes): a session left open on a shared computer must not be enough.
   * The current password or a current app code (used up, so it cannot be replayed); wrong ones
   * count against the same limits as wrong codes at sign-in, and are audited.
   */
  async function reauthenticate(request: FastifyRequest, proof: Reauth) {
    const admin = me(request);
    const counted = await flow.countFailure(request, admin.accountId);
    let ok = false;
    if (proof.code) {
      ok = await twoFactor.useTotp(admin.accountId, proof.code, false);
    } else if (proof.currentPassword) {
      const hash =
        admin.accountId === OWNER_ACCOUNT_ID
          ? ctx.passwordHash()
          : (await repo.findAccount(db, admin.accountId))?.passwordHash;
      ok = Boolean(hash) && (await verifyPassword(proof.currentPassword, hash!));
    }
    if (!ok) {
      await writeAudit(db, request, {
        action: 'admin.reauth.failed',
        details: { method: proof.code ? 'totp' : 'password' },
      });
      throw new HttpError(400, TWO_FACTOR_MESSAGES.reauthWrong);
    }
    await flow.giveBack(counted);
  }

  // ---- The login's second step ----

  app.post(
    '/api/admin/login/second-factor',
    {
      config: { access: 'public' },
      bodyLimit: 64 * 1024,
      schema: { body: secondFactorSchema, response: { 200: loginResultSchema } },
    },
    async (request, reply) => {
      const step = await flow.pendingStep(request);
      const { account } = step;
      const body = request.body;
      // Counted before the check, given back when it succeeds: only failures count.
      const counted = await flow.countFailure(request, account.id);
      const ok =
        body.method === 'totp'
          ? await twoFactor.useTotp(account.id, body.code, false)
          : body.method === 'recovery'
            ? await twoFactor.useRecoveryCode(account.id, body.code)
            : await passkeys.authenticate(
                request,
                account.id,
                step.hash,
                body.response as unknown as AuthenticationResponseJSON,
              );
      if (!ok) {
        await writeAudit(
          db,
          {
            clientIp: request.ip,
            actor: { accountId: account.id, name: account.name, role: account.role },
          },
          {
            action: 'admin.second_factor.failed',
            targetType: 'admin_account',
            targetId: account.id,
            details: { method: body.method },
          },
        );
        request.log.warn({ ip: request.ip, method: body.method }, 'failed second factor');
        throw new HttpError(
          401,
          body.method === 'totp'
            ? TWO_FACTOR_MESSAGES.invalidCode
            : body.method === 'recovery'
              ? TWO_FACTOR_MESSAGES.invalidRecoveryCode
              : TWO_FACTOR_MESSAGES.passkeyFailed,
        );
      }
      await flow.giveBack(counted);
      await flow.endStep(request, reply, step.hash);
      await flow.openSession(request, reply, account, { secondFactor: body.method });
      return reply
        .header('Cache-Control', 'no-store')
        .send({ ok: true as const, isAuthenticated: true as const });
    },
  );

  app.post(
    '/api/admin/login/passkey-options',
    { config: { access: 'public' }, schema: { response: { 200: webauthnOptionsSchema } } },
    async (request, reply) => {
      const step = await flow.pendingStep(request);
      const options = await passkeys.authenticationOptions(request, step.account.id, step.hash);
      return reply.header('Cache-Control', 'no-store').send({ ...options });
    },
  );

  // ---- Each account's own settings ----

  app.get(
    '/api/admin/security',
    { config: self, schema: { response: { 200: securityStatusSchema } } },
    async (request, reply) => {
      const { accountId } = me(request);
      const [totp, keys, left, required] = await Promise.all([
        tfRepo.findTotp(db, accountId),
        tfRepo.listPasskeys(db, accountId),
        tfRepo.recoveryCodesLeft(db, accountId),
        twoFactor.isRequired(),
      ]);
      reply.header('Cache-Control', 'no-store');
      return {
        totp: Boolean(totp?.confirmedAt),
        passkeys: keys.map((k) => ({
          id: k.id,
          name: k.name,
          createdAt: k.createdAt.toISOString(),
          lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
        })),
        recoveryCodesLeft: left,
        required,
        mayRequire: roleMay(me(request).role, 'PUT', '/api/admin/security/required'),
      };
    },
  );

  app.post(
    '/api/admin/security/totp',
    { config: self, schema: { response: { 200: totpSetupSchema } } },
    async (request, reply) => {
      const account = await repo.findAccount(db, me(request).accountId);
      const existing = await tfRepo.findTotp(db, me(request).accountId);
      // One app at a time: a second set-up would silently replace the app in use.
      if (existing?.confirmedAt)
        throw new HttpError(409, 'An authenticator app is already set up. Remove it first.');
      reply.header('Cache-Control', 'no-store');
      return twoFactor.startTotp(account!);
    },
  );

  app.post(
    '/api/admin/security/totp/confirm',
    { config: self, schema: { body: totpConfirmSchema, response: { 200: recoveryCodesSchema } } },
    async (request, reply) => {
      const admin = me(request);
      const counted = await flow.countFailure(request, admin.accountId);
      const started = await tfRepo.findTotp(db, admin.accountId);
      if (!started || started.confirmedAt)
        throw new HttpError(409, TWO_FACTOR_MESSAGES.noTotpSetup);
      const codes = await db.transaction(async (tx) => {
        if (!(await twoFactor.useTotp(admin.accountId, request.body.code, true, tx))) return null;
        await writeAudit(tx, request, {
          action: 'admin.second_factor.added',
          details: { method: 'totp' },
        });
        return (await afterAdding(tx, request, admin)) ?? [];
      });
      if (!codes) {
        await writeAudit(db, request, {
          action: 'admin.second_factor.failed',
          details: { method: 'totp', during: 'set-up' },
        });
        throw new HttpError(400, TWO_FACTOR_MESSAGES.invalidCode);
      }
      await flow.giveBack(counted);
      reply.header('Cache-Control', 'no-store');
      return codes.length ? { recoveryCodes: codes } : {};
    },
  );

  app.delete(
    '/api/admin/security/totp',
    { config: self, schema: { body: reauthSchema, response: { 200: okSchema } } },
    async (request) => {
      const admin = me(request);
      if ((await twoFactor.isRequired()) && (await factorsWithout(admin.accountId, 'totp')) === 0) {
        throw new HttpError(409, TWO_FACTOR_MESSAGES.lastFactorRequired);
      }
      await reauthenticate(request, request.body);
      await db.transaction(async (tx) => {
        if (!(await tfRepo.deleteTotp(tx, admin.accountId))) {
          throw new HttpError(404, 'No authenticator app is set up.');
        }
        await dropRecoveryCodesIfLast(tx, admin.accountId);
        await writeAudit(tx, request, {
          action: 'admin.second_factor.removed',
          details: { method: 'totp' },
        });
      });
      return { ok: true as const };
    },
  );

  /** With no factor left, recovery codes are nothing to recover: they go too. */
  async function dropRecoveryCodesIfLast(tx: DbOrTx, accountId: string) {
    if ((await twoFactor.methods(accountId, tx)).length === 0) {
      await tfRepo.deleteRecoveryCodes(tx, accountId);
    }
  }

  app.post(
    '/api/admin/security/recovery-codes',
    { config: self, schema: { body: reauthSchema, response: { 200: recoveryCodesSchema } } },
    async (request, reply) => {
      const admin = me(request);
      if ((await twoFactor.methods(admin.accountId)).length === 0) {
        throw new HttpError(409, 'Set up an authenticator app or a passkey first.');
      }
      await reauthenticate(request, request.body);
      const codes = await db.transaction(async (tx) => {
        const made = await twoFactor.newRecoveryCodes(admin.accountId, tx);
        await writeAudit(tx, request, { action: 'admin.recovery_codes.created' });
        return made;
      });
      reply.header('Cache-Control', 'no-store');
      return { recoveryCodes: codes };
    },
  );

  const registrationKey = (admin: AdminIdentity) =>
    sha256(`passkey_registration:${admin.sessionTokenHash}`);

  app.post(
    '/api/admin/security/passkeys/options',
    { config: self, schema: { response: { 200: webauthnOptionsSchema } } },
    async (request, reply) => {
      const admin = me(request);
      const account = await repo.findAccount(db, admin.accountId);
      const key = registrationKey(admin);
      const now = config.now();
      await tfRepo.deleteChallenge(db, key);
      await tfRepo.insertChallenge(db, {
        tokenHash: key,
        accountId: admin.accountId,
        purpose: 'passkey_registration',
        now,
        expiresAt: new Date(now.getTime() + REGISTRATION_TTL_MS),
      });
      const options = await passkeys.registrationOptions(request, account!, key);
      return reply.header('Cache-Control', 'no-store').send({ ...options });
    },
  );

  app.post(
    '/api/admin/security/passkeys',
    {
      config: self,
      bodyLimit: 64 * 1024,
      schema: { body: passkeyRegisterSchema, response: { 200: recoveryCodesSchema } },
    },
    async (request, reply) => {
      const admin = me(request);
      const key = registrationKey(admin);
      const started = await tfRepo.findChallenge(db, key, 'passkey_registration', config.now());
      if (!started) throw new HttpError(409, TWO_FACTOR_MESSAGES.passkeyNotStarted);
      const count = (await tfRepo.listPasskeys(db, admin.accountId)).length;
      const name = request.body.name || `Passkey ${count + 1}`;
      const codes = await db.transaction(async (tx) => {
        const ok = await passkeys.register(
          request,
          admin.accountId,
          key,
          request.body.response as unknown as RegistrationResponseJSON,
          name,
          tx,
        );
        if (!ok) return null;
        await writeAudit(tx, request, {
          action: 'admin.second_factor.added',
          details: { method: 'passkey', name },
        });
        return (await afterAdding(tx, request, admin)) ?? [];
      });
      await tfRepo.deleteChallenge(db, key);
      if (!codes) throw new HttpError(400, TWO_FACTOR_MESSAGES.passkeyFailed);
      reply.header('Cache-Control', 'no-store');
      return codes.length ? { recoveryCodes: codes } : {};
    },
  );

  app.delete(
    '/api/admin/security/passkeys/:id',
    {
      config: self,
      schema: { params: passkeyParams, body: reauthSchema, response: { 200: okSchema } },
    },
    async (request) => {
      const admin = me(request);
      const { id } = request.params;
      if (
        (await twoFactor.isRequired()) &&
        (await factorsWithout(admin.accountId, { passkey: id })) === 0
      ) {
        throw new HttpError(409, TWO_FACTOR_MESSAGES.lastFactorRequired);
      }
      if (!(await tfRepo.listPasskeys(db, admin.accountId)).some((k) => k.id === id)) {
        throw new HttpError(404, TWO_FACTOR_MESSAGES.passkeyNotFound);
      }
      await reauthenticate(request, request.body);
      await db.transaction(async (tx) => {
        const removed = await tfRepo.deletePasskey(tx, admin.accountId, id);
        if (!removed) throw new HttpError(404, TWO_FACTOR_MESSAGES.passkeyNotFound);
        await dropRecoveryCodesIfLast(tx, admin.accountId);
        await writeAudit(tx, request, {
          action: 'admin.second_factor.removed',
          details: { method: 'passkey', name: removed.name },
        });
      });
      return { ok: true as const };
    },
  );

  // ---- The owner's campaign-wide setting ----

  app.put(
    '/api/admin/security/required',
    {
      config: { access: 'admin' },
      schema: { body: requireSecondFactorSchema, response: { 200: okSchema } },
    },
    async (request) => {
      const { required } = request.body;
      // The owner first: requiring what the owner has not set up would lock the owner into set-up.
      if (required && (await twoFactor.methods(me(request).accountId)).length === 0) {
        throw new HttpError(409, TWO_FACTOR_MESSAGES.ownerFirst);
      }
      await db.transaction(async (tx) => {
        await repo.setSetting(tx, REQUIRE_SETTING, String(required));
        await writeAudit(tx, request, {
          action: 'admin.second_factor.required',
          details: { required },
        });
      });
      return { ok: true as const };
    },
  );
}
