import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { NEWS_UNSUBSCRIBE_PATH } from '@shared/news';
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
   * A team invitation's token, under the same key: the worker writes the link when it
   * sends the e-mail; admin_invitations keeps only its SHA-256.
   */
  invitationToken(invitationId: string): string {
    return createHmac('sha256', this.key).update(`team-invite:${invitationId}`).digest('base64url');
  }

  /** The set-password page of an invitation, absolute. */
  invitationUrl(invitationId: string): string {
    return `${this.baseUrl}/admin/join?t=${this.invitationToken(invitationId)}`;
  }

  /**
   * The delivery news' unsubscribe token: the pledge the message went to and an HMAC of it under
   * the same key, so it cannot be guessed and needs nothing stored. It unsubscribes that pledge's
   * address (every pledge with it).
   */
  newsToken(pledgeId: string): string {
    return `${pledgeId}.${this.newsMac(pledgeId)}`;
  }

  /** The pledge id a news token names, or undefined when it was not made here. */
  newsPledgeId(token: unknown): string | undefined {
    if (typeof token !== 'string') return undefined;
    const m = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([\w-]{43})$/.exec(
      token,
    );
    if (!m) return undefined;
    const a = Buffer.from(this.newsMac(m[1]!));
    const b = Buffer.from(m[2]!);
    return a.length === b.length && timingSafeEqual(a, b) ? m[1] : undefined;
  }

  private newsMac(pledgeId: string): string {
    return createHmac('sha256', this.key)
      .update(`news-unsubscribe:${pledgeId}`)
      .digest('base64url');
  }

  /** The List-Unsubscribe link: GET shows a page with a button, POST unsubscribes (RFC 8058). */
  newsUnsubscribeUrl(pledgeId: string): string {
    return `${this.baseUrl}${NEWS_UNSUBSCRIBE_PATH}?t=${this.newsToken(pledgeId)}`;
  }

  /** A page of the site, absolute (e-mails). */
  siteUrl(path: string): string {
    return this.baseUrl + path;
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
