import type { Campaign } from '@shared/schemas/campaign';
import { escapeHtml } from '../../lib/html';
import { plainPage } from '../../lib/plain-page';

const PRIVACY_TITLE = 'Privacy notice';

const list = (items: string[]) =>
  `<ul>\n${items.map((i) => `<li>${escapeHtml(i)}</li>`).join('\n')}\n</ul>`;

/** /privacy: the campaign's notice from campaign.json, plain server-rendered HTML. */
export function privacyPage(campaign: Campaign): string {
  const n = campaign.privacy?.notice;
  const body = n
    ? `<h1>${PRIVACY_TITLE}</h1>
<p>Version of ${escapeHtml(n.version)}.</p>
<h2>Who is responsible</h2>
<p>${escapeHtml(n.controller)}</p>
<h2>What we use your data for</h2>
${list(n.purposes)}
<h2>How long we keep it</h2>
<p>${escapeHtml(n.retention)}</p>
<h2>Your rights</h2>
${list(n.rights)}
<h2>Contact</h2>
<p>${/@/.test(n.contact) ? `<a href="mailto:${escapeHtml(n.contact)}">${escapeHtml(n.contact)}</a>` : escapeHtml(n.contact)}</p>`
    : `<h1>${PRIVACY_TITLE}</h1>
<p>Your name, e-mail address and pledge are used only to record your pledge, send you its payment instructions and receipt, and show the campaign's progress. Contact ${escapeHtml(campaign.payment.confirmationEmail)} about your data.</p>`;
  return plainPage({ title: PRIVACY_TITLE, siteName: campaign.name, body });
}
