/**
 * Delivery news by e-mail, by consent (Jamaica's Data Protection Act 2020: marketing needs
 * consent). The wording the donor agrees to and its version are stored with each consent, so a
 * changed wording gets a new version and old consents keep saying what the donor saw.
 */
export const NEWS_CONSENT_LABEL = 'E-mail me when containers are delivered';
export const NEWS_CONSENT_VERSION = '2026-11-26';

/** The admin's choice when posting an update (the count is filled in). */
export function notifySubscribersLabel(count: number): string {
  return `Notify ${count.toLocaleString('en-US')} ${count === 1 ? 'subscriber' : 'subscribers'} by e-mail`;
}

/**
 * The unsubscribe link of every delivery news e-mail (List-Unsubscribe): GET shows a page with a
 * button, POST unsubscribes (RFC 8058 one-click; mail scanners that open links only GET).
 */
export const NEWS_UNSUBSCRIBE_PATH = '/api/news/unsubscribe';
