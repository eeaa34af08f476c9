import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import * as tfRepo from './two-factor-repo';

/**
 * Passkeys (WebAuthn, through @simplewebauthn/server; docs/decisions/023-two-factor.md), as a
 * second factor after the password. The relying party is the site's own origin: PUBLIC_URL's when
 * it is set (and then only that one: a response signed for any other origin, a look-alike
 * domain included, is refused), else the address the request came to (a local install).
 */
export function createPasskeys(db: Db, config: Pick<AppConfig, 'now' | 'publicUrl' | 'campaign'>) {
  function relyingParty(request: FastifyRequest) {
    const origin = config.publicUrl
      ? new URL(config.publicUrl).origin
      : `${request.protocol}://${request.host}`;
    return { origin, rpID: new URL(origin).hostname };
  }

  return {
    relyingParty,

    /** Options for the browser to create a passkey; the challenge is kept with `challengeHash`. */
    async registrationOptions(
      request: FastifyRequest,
      account: { id: string; name: string; email: string | null },
      challengeHash: string,
    ) {
      const existing = await tfRepo.listPasskeys(db, account.id);
      const options = await generateRegistrationOptions({
        rpName: config.campaign.name,
        rpID: relyingParty(request).rpID,
        userName: account.email ?? account.name,
        userDisplayName: account.name,
        userID: new TextEncoder().encode(account.id),
        attestationType: 'none',
        // The same authenticator twice would add nothing.
        excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports })),
        authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
      });
      await tfRepo.setWebauthnChallenge(db, challengeHash, options.challenge);
      return options;
    },

    /** Checks a new passkey's response and stores its public key; false when it does not verify. */
    async register(
      request: FastifyRequest,
      accountId: string,
      challengeHash: string,
      response: RegistrationResponseJSON,
      name: string,
      tx: DbOrTx = db,
    ) {
      const { origin, rpID } = relyingParty(request);
      const result = await verifyRegistrationResponse({
        response,
        // In `tx`: the embedded database is one connection, which the transaction holds.
        expectedChallenge: (c) => tfRepo.consumeWebauthnChallenge(tx, challengeHash, c),
        expectedOrigin: origin,
        expectedRPID: rpID,
        requireUserVerification: false,
      }).catch((err: unknown) => {
        request.log.warn({ err: (err as Error).message }, 'passkey registration refused');
        return { verified: false as const };
      });
      if (!result.verified) return false;
      const { credential } = result.registrationInfo;
      if (await tfRepo.findPasskey(tx, credential.id)) return false;
      await tfRepo.insertPasskey(tx, {
        id: credential.id,
        accountId,
        name,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: credential.transports ?? [],
        createdAt: config.now(),
      });
      return true;
    },

    /** Options for the sign-in step: only this account's passkeys are offered. */
    async authenticationOptions(request: FastifyRequest, accountId: string, challengeHash: string) {
      const passkeys = await tfRepo.listPasskeys(db, accountId);
      const options = await generateAuthenticationOptions({
        rpID: relyingParty(request).rpID,
        allowCredentials: passkeys.map((p) => ({ id: p.id, transports: p.transports as never })),
        userVerification: 'preferred',
      });
      await tfRepo.setWebauthnChallenge(db, challengeHash, options.challenge);
      return options;
    },

    /** Whether `response` is a valid signature by one of the account's passkeys. */
    async authenticate(
      request: FastifyRequest,
      accountId: string,
      challengeHash: string,
      response: AuthenticationResponseJSON,
    ) {
      const passkey = await tfRepo.findPasskey(db, response.id);
      // Another account's passkey is no proof for this one.
      if (!passkey || passkey.accountId !== accountId) return false;
      const { origin, rpID } = relyingParty(request);
      const result = await verifyAuthenticationResponse({
        response,
        expectedChallenge: (c) => tfRepo.consumeWebauthnChallenge(db, challengeHash, c),
        expectedOrigin: origin,
        expectedRPID: rpID,
        credential: {
          id: passkey.id,
          publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
          counter: passkey.counter,
          transports: passkey.transports as never,
        },
        requireUserVerification: false,
      }).catch((err: unknown) => {
        request.log.warn({ err: (err as Error).message }, 'passkey sign-in refused');
        return { verified: false as const, authenticationInfo: undefined };
      });
      if (!result.verified) return false;
      return tfRepo.updatePasskeyCounter(
        db,
        passkey.id,
        passkey.counter,
        result.authenticationInfo.newCounter,
        config.now(),
      );
    },
  };
}
