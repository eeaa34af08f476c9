import type { FastifyRequest } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import type { AuditPage } from '@shared/schemas/audit';
import {
  TWO_FACTOR_MESSAGES,
  type SecurityStatus,
  type TotpSetup,
} from '@shared/schemas/two-factor';
import { TEST_ADMIN_PASSWORD } from '../../../tests/support/admin-password';
import { describe, expect, test } from '../../../tests/support/fixtures';
import type { TestApp } from '../../../tests/support/test-app';
import { softwarePasskey } from '../../../tests/support/software-passkey';
import { createMember, type Member } from '../../../tests/support/team';
import { adminTotp, OWNER_ACCOUNT_ID } from '../../db/schema';
import { createPasskeys } from './passkeys';

let clock = Date.parse('2026-11-26T12:00:10Z');
// Addresses from X-Forwarded-For, so per-account limits can be met from many addresses.
test.override('appOptions', { now: () => new Date(clock), env: { TRUST_PROXY: 'true' } });

const from = (ip: string) => ({ 'x-forwarded-for': ip });
const cookieOf = (res: Response, name: string) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith(`${name}=`) && c.length > name.length + 1);

/** The code an authenticator app shows for `secret` at `at` (the library the server uses too). */
const codeAt = (secret: string, at = clock) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: at,
  });

/** Sets up TOTP for a signed-in account: the secret and the recovery codes. */
async function setUpTotp(app: TestApp, cookie: string) {
  const started = await app.request('/api/admin/security/totp', { method: 'POST', cookie });
  expect(started.status).toBe(200);
  const setup = (await started.json()) as TotpSetup;
  const confirmed = await app.request('/api/admin/security/totp/confirm', {
    method: 'POST',
    json: { code: codeAt(setup.secret) },
    cookie,
  });
  expect(confirmed.status).toBe(200);
  const { recoveryCodes } = (await confirmed.json()) as { recoveryCodes: string[] };
  return { secret: setup.secret, setup, recoveryCodes };
}

/** The password step of a member with a second factor: the step's cookie. */
async function passwordStep(app: TestApp, m: Member, ip = '198.51.100.7') {
  const res = await app.request('/api/admin/login', {
    method: 'POST',
    json: { email: m.email, password: m.password },
    headers: from(ip),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { isAuthenticated: boolean; secondFactor?: object };
  expect(cookieOf(res, 'sid')).toBeUndefined();
  return { body, step: cookieOf(res, 'sid_2fa')! };
}

const second = (app: TestApp, step: string, json: object, ip = '198.51.100.7') =>
  app.request('/api/admin/login/second-factor', {
    method: 'POST',
    json,
    cookie: step,
    headers: from(ip),
  });

async function activity(app: TestApp, actor: string) {
  const res = await app.request(`/api/admin/activity?actor=${actor}&limit=50`, {
    cookie: await app.login(),
  });
  return ((await res.json()) as AuditPage).items;
}

describe('TOTP (RFC 6238)', () => {
  test('set-up with a QR code, then sign-in asks for a code; a reused code is refused', async ({
    app,
  }) => {
    const m = await createMember(app, 'treasurer');
    const cookie = await m.login();
    const { secret, setup, recoveryCodes } = await setUpTotp(app, cookie);
    expect(setup.uri).toMatch(/^otpauth:\/\/totp\//);
    expect(setup.uri).toContain(`secret=${secret}`);
    expect(setup.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    // The secret is stored encrypted, not as the app's base32.
    const [row] = await app.database.db.select().from(adminTotp);
    expect(row!.secret).not.toContain(secret);
    expect(row!.secret).toMatch(/^v1:/);

    clock += 30_000;
    const { body, step } = await passwordStep(app, m);
    expect(body).toEqual({
      ok: true,
      isAuthenticated: false,
      secondFactor: { methods: ['totp', 'recovery'] },
    });
    // The password alone is no session.
    const check = await app.request('/api/admin/check', { cookie: step });
    expect(await check.json()).toEqual({ isAuthenticated: false });

    const code = codeAt(secret);
    const ok = await second(app, step, { method: 'totp', code });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ ok: true, isAuthenticated: true });
    const sid = cookieOf(ok, 'sid')!;
    const me = await app.request('/api/admin/check', { cookie: sid });
    expect(await me.json()).toMatchObject({
      isAuthenticated: true,
      account: { role: 'treasurer' },
    });
    // The step's cookie is used up.
    expect((await second(app, step, { method: 'totp', code })).status).toBe(401);

    // The same code again, in the same 30 seconds, on a new sign-in: refused (replay).
    const again = await passwordStep(app, m);
    const replay = await second(app, again.step, { method: 'totp', code });
    expect(replay.status).toBe(401);
    expect(((await replay.json()) as { message: string }).message).toBe(
      TWO_FACTOR_MESSAGES.invalidCode,
    );
    // The next step's code works.
    clock += 30_000;
    expect((await second(app, again.step, { method: 'totp', code: codeAt(secret) })).status).toBe(
      200,
    );
  });

  test('a code from outside the ±30 s window is refused; one step off is accepted', async ({
    app,
  }) => {
    const m = await createMember(app, 'editor');
    const { secret } = await setUpTotp(app, await m.login());
    clock += 60_000;
    const { step } = await passwordStep(app, m);
    for (const offset of [-90_000, -60_000, 60_000, 90_000]) {
      const res = await second(app, step, { method: 'totp', code: codeAt(secret, clock + offset) });
      expect(res.status, `offset ${offset}`).toBe(401);
    }
    const old = await second(app, step, { method: 'totp', code: codeAt(secret, clock - 30_000) });
    expect(old.status).toBe(200);
  });

  test('a wrong set-up code is refused and nothing is set up', async ({ app }) => {
    const m = await createMember(app, 'viewer');
    const cookie = await m.login();
    const started = await app.request('/api/admin/security/totp', { method: 'POST', cookie });
    const { secret } = (await started.json()) as TotpSetup;
    const wrong = await app.request('/api/admin/security/totp/confirm', {
      method: 'POST',
      json: { code: codeAt(secret, clock + 5 * 60_000) },
      cookie,
    });
    expect(wrong.status).toBe(400);
    const bad = await app.request('/api/admin/security/totp/confirm', {
      method: 'POST',
      json: { code: '12ab56' },
      cookie,
    });
    expect(bad.status).toBe(400);
    const status = (await (
      await app.request('/api/admin/security', { cookie })
    ).json()) as SecurityStatus;
    expect(status).toMatchObject({ totp: false, passkeys: [], recoveryCodesLeft: 0 });
    // Still a plain sign-in.
    expect((await m.login()).startsWith('sid=')).toBe(true);
  });

  test('recovery codes work once each, typed in any case, with or without the dash', async ({
    app,
  }) => {
    const m = await createMember(app, 'treasurer');
    const { recoveryCodes, secret } = await setUpTotp(app, await m.login());
    const [first, secondCode] = recoveryCodes;
    const { step } = await passwordStep(app, m);
    const ok = await second(app, step, {
      method: 'recovery',
      code: ` ${first!.toUpperCase().replace('-', ' ')} `,
    });
    expect(ok.status).toBe(200);
    const again = await passwordStep(app, m);
    const reused = await second(app, again.step, { method: 'recovery', code: first! });
    expect(reused.status).toBe(401);
    expect(((await reused.json()) as { message: string }).message).toBe(
      TWO_FACTOR_MESSAGES.invalidRecoveryCode,
    );
    expect((await second(app, again.step, { method: 'recovery', code: secondCode! })).status).toBe(
      200,
    );
    const status = (await (
      await app.request('/api/admin/security', { cookie: await signIn(app, { ...m, secret }) })
    ).json()) as SecurityStatus;
    expect(status.recoveryCodesLeft).toBe(8);
  });

  test('removing the app makes the sign-in the password alone again', async ({ app }) => {
    const m = await createMember(app, 'editor');
    const cookie = await m.login();
    await setUpTotp(app, cookie);
    const removed = await app.request('/api/admin/security/totp', {
      method: 'DELETE',
      json: { currentPassword: m.password },
      cookie,
    });
    expect(removed.status).toBe(200);
    expect((await m.login()).startsWith('sid=')).toBe(true);
    const status = (await (
      await app.request('/api/admin/security', { cookie })
    ).json()) as SecurityStatus;
    // No factor left: the recovery codes went with it.
    expect(status).toMatchObject({ totp: false, recoveryCodesLeft: 0 });
  });

  test('the owner sets up TOTP too; the spec login without it is unchanged', async ({ app }) => {
    const plain = await app.request('/api/admin/login', {
      method: 'POST',
      json: { password: TEST_ADMIN_PASSWORD },
    });
    expect(await plain.json()).toEqual({ ok: true, isAuthenticated: true });
    const { secret } = await setUpTotp(app, cookieOf(plain, 'sid')!);
    clock += 30_000;
    const res = await app.request('/api/admin/login', {
      method: 'POST',
      json: { password: TEST_ADMIN_PASSWORD },
    });
    expect(await res.json()).toMatchObject({ isAuthenticated: false, secondFactor: {} });
    const ok = await second(app, cookieOf(res, 'sid_2fa')!, {
      method: 'totp',
      code: codeAt(secret),
    });
    expect(ok.status).toBe(200);
    // Leave the owner as the other tests of this file expect: the password alone.
    const removed = await app.request('/api/admin/security/totp', {
      method: 'DELETE',
      json: { currentPassword: TEST_ADMIN_PASSWORD },
      cookie: cookieOf(ok, 'sid')!,
    });
    expect(removed.status).toBe(200);
  });

  test('the second step without its cookie, or after five minutes, starts over', async ({
    app,
  }) => {
    const m = await createMember(app, 'viewer');
    const { secret } = await setUpTotp(app, await m.login());
    clock += 30_000;
    expect((await second(app, 'sid_2fa=nope', { method: 'totp', code: '123456' })).status).toBe(
      401,
    );
    const { step } = await passwordStep(app, m);
    clock += 5 * 60_000 + 1000;
    const late = await second(app, step, { method: 'totp', code: codeAt(secret) });
    expect(late.status).toBe(401);
    expect(((await late.json()) as { message: string }).message).toBe(
      TWO_FACTOR_MESSAGES.stepExpired,
    );
  });
});

/** A member with TOTP, signed in through both steps: the session cookie. */
async function signIn(app: TestApp, m: Member & { secret?: string }) {
  const { step } = await passwordStep(app, m);
  clock += 30_000;
  const res = await second(app, step, { method: 'totp', code: codeAt(m.secret!) });
  return cookieOf(res, 'sid')!;
}

describe('rate limits on codes', () => {
  test('wrong codes count per account across addresses as well as per address', async ({ app }) => {
    const m = await createMember(app, 'treasurer');
    const { secret } = await setUpTotp(app, await m.login());
    const limit = app.config.rateLimitLoginPerMinute;
    clock += 60_000;
    const { step } = await passwordStep(app, m, '203.0.113.200');
    // One wrong code from each of `limit` addresses: none meets its own address's limit.
    for (let i = 0; i < limit; i++) {
      const res = await second(app, step, { method: 'totp', code: '000000' }, `203.0.113.${i + 1}`);
      expect(res.status, `attempt ${i + 1}`).toBe(401);
    }
    const locked = await second(app, step, { method: 'totp', code: codeAt(secret) }, '192.0.2.50');
    expect(locked.status).toBe(429);
    expect(((await locked.json()) as { message: string }).message).toBe(
      TWO_FACTOR_MESSAGES.tooManyAttempts,
    );
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // A minute later the right code works.
    clock += 61_000;
    const { step: next } = await passwordStep(app, m, '192.0.2.51');
    expect(
      (await second(app, next, { method: 'totp', code: codeAt(secret) }, '192.0.2.51')).status,
    ).toBe(200);
  });

  test('an account meets a daily limit of wrong codes, five minutes’ worth', async ({ app }) => {
    const m = await createMember(app, 'viewer');
    const { secret } = await setUpTotp(app, await m.login());
    const limit = app.config.rateLimitLoginPerMinute;
    let ip = 0;
    const wrong = async () => {
      const { step } = await passwordStep(app, m, `203.0.113.${++ip}`);
      return second(app, step, { method: 'totp', code: '000000' }, `203.0.113.${ip}`);
    };
    for (let minute = 0; minute < 5; minute++) {
      clock += 61_000;
      for (let i = 0; i < limit; i++) expect((await wrong()).status).toBe(401);
    }
    clock += 61_000;
    const { step } = await passwordStep(app, m, '192.0.2.77');
    const locked = await second(app, step, { method: 'totp', code: codeAt(secret) }, '192.0.2.77');
    expect(locked.status).toBe(429);
    expect(((await locked.json()) as { message: string }).message).toBe(
      TWO_FACTOR_MESSAGES.tooManyToday,
    );
    clock += 24 * 3600_000;
    const next = await passwordStep(app, m, '192.0.2.78');
    expect(
      (await second(app, next.step, { method: 'totp', code: codeAt(secret) }, '192.0.2.78')).status,
    ).toBe(200);
  });

  test('wrong codes from one address meet its limit for every account', async ({ app }) => {
    const a = await createMember(app, 'viewer');
    const b = await createMember(app, 'viewer');
    await setUpTotp(app, await a.login());
    await setUpTotp(app, await b.login());
    const limit = app.config.rateLimitLoginPerMinute;
    clock += 60_000;
    const stepA = (await passwordStep(app, a, '198.51.100.99')).step;
    const stepB = (await passwordStep(app, b, '198.51.100.99')).step;
    for (let i = 0; i < limit; i++) {
      const res = await second(
        app,
        i % 2 ? stepA : stepB,
        { method: 'totp', code: '000000' },
        '198.51.100.99',
      );
      expect(res.status).toBe(401);
    }
    expect(
      (await second(app, stepA, { method: 'totp', code: '000000' }, '198.51.100.99')).status,
    ).toBe(429);
    clock += 61_000;
  });
});

describe('the audit log', () => {
  test('set-up, use, failed codes and removal are entries naming the account', async ({ app }) => {
    const m = await createMember(app, 'editor', { name: 'Audrey Audit' });
    const cookie = await m.login();
    const { secret } = await setUpTotp(app, cookie);
    clock += 30_000;
    const { step } = await passwordStep(app, m);
    await second(app, step, { method: 'totp', code: '000000' });
    await second(app, step, { method: 'totp', code: codeAt(secret) });
    await app.request('/api/admin/security/totp', {
      method: 'DELETE',
      json: { currentPassword: m.password },
      cookie,
    });
    const entries = await activity(app, m.id);
    const actor = { accountId: m.id, name: 'Audrey Audit', role: 'editor' };
    expect(entries.map((e) => [e.action, e.details])).toEqual([
      ['admin.second_factor.removed', { method: 'totp' }],
      ['admin.login', { secondFactor: 'totp' }],
      ['admin.second_factor.failed', { method: 'totp' }],
      ['admin.recovery_codes.created', null],
      ['admin.second_factor.added', { method: 'totp' }],
      ['admin.login', null],
    ]);
    for (const e of entries) expect(e.actor).toEqual(actor);
  });
});

describe('require a second factor for everyone', () => {
  test('owner only, audited; needs the owner’s own factor first', async ({ app }) => {
    const treasurer = await createMember(app, 'treasurer');
    const refused = await app.request('/api/admin/security/required', {
      method: 'PUT',
      json: { required: true },
      cookie: await treasurer.login(),
    });
    expect(refused.status).toBe(403);
    const owner = await app.login();
    const first = await app.request('/api/admin/security/required', {
      method: 'PUT',
      json: { required: true },
      cookie: owner,
    });
    expect(first.status).toBe(409);
    expect(((await first.json()) as { message: string }).message).toBe(
      TWO_FACTOR_MESSAGES.ownerFirst,
    );
  });

  test('a member without one gets a session limited to setting it up, then a full one', async ({
    app,
  }) => {
    const owner = await app.login();
    const { secret: ownerSecret } = await setUpTotp(app, owner);
    const on = await app.request('/api/admin/security/required', {
      method: 'PUT',
      json: { required: true },
      cookie: owner,
    });
    expect(on.status).toBe(200);

    const m = await createMember(app, 'treasurer');
    const res = await app.request('/api/admin/login', {
      method: 'POST',
      json: { email: m.email, password: m.password },
    });
    expect(await res.json()).toEqual({ ok: true, isAuthenticated: false, secondFactorSetup: true });
    const limited = cookieOf(res, 'sid')!;
    const check = await app.request('/api/admin/check', { cookie: limited });
    expect(await check.json()).toEqual({
      isAuthenticated: false,
      account: { name: m.name, role: 'treasurer' },
      secondFactorSetup: true,
    });
    // Nothing else: no admin data, no admin action.
    const pledges = await app.request('/api/admin/pledges', { cookie: limited });
    expect(pledges.status).toBe(403);
    expect(((await pledges.json()) as { message: string }).message).toBe(
      TWO_FACTOR_MESSAGES.setupOnly,
    );
    const publicList = await app.request('/api/pledges', { cookie: limited });
    expect(JSON.stringify(await publicList.json())).not.toContain('@');
    // Setting up is allowed, and the session becomes a full one.
    const status = await app.request('/api/admin/security', { cookie: limited });
    expect(await status.json()).toMatchObject({ required: true, totp: false });
    const { secret } = await setUpTotp(app, limited);
    expect((await app.request('/api/admin/pledges', { cookie: limited })).status).toBe(200);
    // The last factor cannot be removed while it is required.
    const remove = await app.request('/api/admin/security/totp', {
      method: 'DELETE',
      json: { currentPassword: m.password },
      cookie: limited,
    });
    expect(remove.status).toBe(409);
    // The next sign-in asks for the code.
    clock += 30_000;
    const { body } = await passwordStep(app, { ...m });
    expect(body.secondFactor).toBeDefined();
    void secret;

    // Off again (owner, through the owner's own second step), and audited.
    const ownerStep = await app.request('/api/admin/login', {
      method: 'POST',
      json: { password: TEST_ADMIN_PASSWORD },
    });
    const ownerIn = await second(app, cookieOf(ownerStep, 'sid_2fa')!, {
      method: 'totp',
      code: codeAt(ownerSecret),
    });
    const ownerSid = cookieOf(ownerIn, 'sid')!;
    const off = await app.request('/api/admin/security/required', {
      method: 'PUT',
      json: { required: false },
      cookie: ownerSid,
    });
    expect(off.status).toBe(200);
    await app.request('/api/admin/security/totp', {
      method: 'DELETE',
      json: { currentPassword: TEST_ADMIN_PASSWORD },
      cookie: ownerSid,
    });
    const entries = (await activity(app, OWNER_ACCOUNT_ID)).filter(
      (e) => e.action === 'admin.second_factor.required',
    );
    expect(entries.map((e) => e.details)).toEqual([{ required: false }, { required: true }]);
  });
});

describe('passkeys (WebAuthn)', () => {
  type Options = { challenge: string; rp: { id?: string }; rpId?: string };
  const options = async (app: TestApp, url: string, cookie: string) => {
    const res = await app.request(url, { method: 'POST', cookie });
    expect(res.status).toBe(200);
    return (await res.json()) as Options;
  };

  test('registered and signed with on the site’s origin only; a challenge signs once', async ({
    app,
  }) => {
    const m = await createMember(app, 'editor');
    const cookie = await m.login();
    const key = softwarePasskey();
    const origin = new URL(app.baseUrl).origin;
    const register = (response: object) =>
      app.request('/api/admin/security/passkeys', {
        method: 'POST',
        json: { name: 'Test key', response },
        cookie,
      });

    // Made on a look-alike site: refused, and its challenge is used up.
    let opts = await options(app, '/api/admin/security/passkeys/options', cookie);
    expect(opts.rp.id).toBe(new URL(app.baseUrl).hostname);
    const evil = await register(key.register(opts, 'https://relief-jamaica.example'));
    expect(evil.status).toBe(400);
    expect(((await evil.json()) as { message: string }).message).toBe(
      TWO_FACTOR_MESSAGES.passkeyFailed,
    );
    expect((await register(key.register(opts, origin))).status).toBe(409);
    opts = await options(app, '/api/admin/security/passkeys/options', cookie);
    const ok = await register(key.register(opts, origin));
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { recoveryCodes: string[] }).recoveryCodes).toHaveLength(10);
    const status = (await (
      await app.request('/api/admin/security', { cookie })
    ).json()) as SecurityStatus;
    expect(status.passkeys.map((p) => p.name)).toEqual(['Test key']);

    // Sign-in: password, then the passkey.
    const { body, step } = await passwordStep(app, m);
    expect(body.secondFactor).toEqual({ methods: ['passkey', 'recovery'] });
    let login = await options(app, '/api/admin/login/passkey-options', step);
    const wrongSite = await second(app, step, {
      method: 'passkey',
      response: key.authenticate(login, 'https://relief-jamaica.example'),
    });
    expect(wrongSite.status).toBe(401);
    expect(((await wrongSite.json()) as { message: string }).message).toBe(
      TWO_FACTOR_MESSAGES.passkeyFailed,
    );
    login = await options(app, '/api/admin/login/passkey-options', step);
    const signed = key.authenticate(login, origin);
    const res = await second(app, step, { method: 'passkey', response: signed });
    expect(res.status).toBe(200);
    expect(cookieOf(res, 'sid')).toBeDefined();
    // The same signed answer on a new sign-in: its challenge is not this step's.
    const again = await passwordStep(app, m);
    await options(app, '/api/admin/login/passkey-options', again.step);
    expect((await second(app, again.step, { method: 'passkey', response: signed })).status).toBe(
      401,
    );
    const entries = await activity(app, m.id);
    expect(entries.find((e) => e.action === 'admin.login' && e.details)?.details).toEqual({
      secondFactor: 'passkey',
    });
    expect(entries.find((e) => e.action === 'admin.second_factor.added')?.details).toEqual({
      method: 'passkey',
      name: 'Test key',
    });
  });

  test('another account’s passkey is no second factor for this one', async ({ app }) => {
    const a = await createMember(app, 'viewer');
    const b = await createMember(app, 'viewer');
    const origin = new URL(app.baseUrl).origin;
    const keyA = softwarePasskey();
    const keyB = softwarePasskey();
    for (const [m, key] of [
      [a, keyA],
      [b, keyB],
    ] as const) {
      const cookie = await m.login();
      const opts = await options(app, '/api/admin/security/passkeys/options', cookie);
      const res = await app.request('/api/admin/security/passkeys', {
        method: 'POST',
        json: { response: key.register(opts, origin) },
        cookie,
      });
      expect(res.status).toBe(200);
    }
    const { step } = await passwordStep(app, a);
    const opts = await options(app, '/api/admin/login/passkey-options', step);
    const res = await second(app, step, {
      method: 'passkey',
      response: keyB.authenticate(opts, origin),
    });
    expect(res.status).toBe(401);
  });

  test('with PUBLIC_URL, the relying party is that origin whatever the Host header says', () => {
    const passkeys = createPasskeys(null as never, {
      now: () => new Date(),
      publicUrl: 'https://relief.example.org',
      campaign: { name: 'Relief' } as never,
    });
    const forged = { protocol: 'http', host: 'relief-jamaica.example' } as FastifyRequest;
    expect(passkeys.relyingParty(forged)).toEqual({
      origin: 'https://relief.example.org',
      rpID: 'relief.example.org',
    });
  });
});
