import { escapeHtml } from '../../lib/html';
import { plainPage } from '../../lib/plain-page';

const TITLE = 'Delivery news by e-mail';

/**
 * The unsubscribe link's pages (plain HTML, no script): opening the link only shows a button,
 * because mail scanners open links; the button POSTs the same link.
 */
export function unsubscribePage(
  siteName: string,
  state: { kind: 'ask'; action: string } | { kind: 'done' } | { kind: 'invalid'; message: string },
): string {
  let body: string;
  if (state.kind === 'ask')
    body = `<h1>${TITLE}</h1>
<p>You get an e-mail from us when containers are delivered. Press the button to stop these e-mails. Your pledge and its receipts are not affected.</p>
<form method="post" action="${escapeHtml(state.action)}">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit" style="font:inherit;font-weight:700;background:#14532d;color:#fff;border:0;border-radius:.5rem;padding:.7rem 1.2rem;cursor:pointer">Unsubscribe</button>
</form>`;
  else if (state.kind === 'done')
    body = `<h1>You are unsubscribed</h1>
<p>We will not send delivery news to this address again. You can still follow every delivery on <a href="/where-the-money-goes">Where the money goes</a>, and subscribe again from your pledge status page.</p>`;
  else body = `<h1>${TITLE}</h1>\n<p>${escapeHtml(state.message)}</p>`;
  return plainPage({ title: TITLE, siteName, body });
}
