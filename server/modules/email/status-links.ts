import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { statusPagePath } from '@shared/pages';

/**
 * The donor's status page link, /pledge/{id}?t={token}. The token is an HMAC of the pledge id under
 * a random key kept in settings (one per installation, shared by every instance), so that the
 * receipt and a resent e-mail can carry the same link as the first one; the database keeps only its
 * SHA-256 (donor_links), which is what a request is checked against.
 * docs/decisions/014-email-outbox.md
 */
export class StatusLinks {
  constructor(
    private readonly key: string,
    private readonly baseUrl: string,
  ) {}

  token(pledgeId: string): string {
    return createHmac('sha256', this.key).update(`pledge-status:${pledgeId}`).digest('base64url');
  }

  /**
   * A team invitation's token (issue 27), under the same key: the worker writes the link when it
   * sends the e-mail; admin_invitations keeps only its SHA-256.
   */
  invitationToken(invitationId: string): string {
    return createHmac('sha256', this.key).update(`team-invite:${invitationId}`).digest('base64url');
  }

  /** The set-password page of an invitation, absolute. */
  invitationUrl(invitationId: string): string {
    return `${this.baseUrl}/admin/join?t=${this.invitationToken(invitationId)}`;
  }

  /** The site-relative link (the thank-you page) ... */
  path(pledgeId: string): string {
    return statusPagePath(pledgeId, this.token(pledgeId));
  }

  /** ... and the absolute one (e-mails). */
  url(pledgeId: string): string {
    return this.baseUrl + this.path(pledgeId);
  }
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Does the presented token hash to the stored one? Constant time; anything malformed is false. */
export function tokenMatches(presented: unknown, storedHash: string | undefined): boolean {
  if (typeof presented !== 'string' || presented.length === 0 || presented.length > 200)
    return false;
  if (!storedHash) return false;
  const a = Buffer.from(hashToken(presented), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
