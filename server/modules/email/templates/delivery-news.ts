import { formatNumber } from '@shared/format';
import { NEWS_CONSENT_LABEL } from '@shared/news';
import type { Campaign } from '@shared/schemas/campaign';
import { button, formatDay, greetingName, html, page, type RenderedEmail } from './layout';

export interface DeliveryNewsData {
  campaign: Campaign;
  /** The name on the pledge the donor consented with (only the first name is used). */
  name: string;
  update: { recipient: string; containerCount: number; deliveryDate: string };
  /** "Where the money goes", absolute. */
  ledgerUrl: string;
  /** The donor's own unsubscribe link (List-Unsubscribe, RFC 8058). */
  unsubscribeUrl: string;
}

/**
 * Delivery news (sent only to addresses that ticked the box, one message per address): a delivery
 * update in words, a link to the ledger, and an unsubscribe link in the text and in the headers,
 * which mail programs show as their own "Unsubscribe" button and POST to in one click.
 */
export function deliveryNewsEmail(d: DeliveryNewsData): RenderedEmail {
  const { campaign, update } = d;
  const containers = formatNumber(update.containerCount);
  const noun = update.containerCount === 1 ? 'meal container' : 'meal containers';
  // A calendar date, not an instant: read in UTC it is that day, wherever the campaign is.
  const day = formatDay(new Date(`${update.deliveryDate}T00:00:00Z`), 'UTC');
  const subject = `Delivered: ${containers} ${noun} to ${update.recipient}`;
  const verb = update.containerCount === 1 ? 'was' : 'were';
  const delivered = `${containers} ${noun} ${verb} delivered to ${update.recipient} on ${day}.`;
  const why = `You get this e-mail because you ticked “${NEWS_CONSENT_LABEL}” when you pledged to ${campaign.name}.`;

  const text = [
    `Dear ${greetingName(d.name)},`,
    '',
    `${delivered} Thank you: your pledge helps make this happen.`,
    '',
    'See every delivery and where the money goes:',
    d.ledgerUrl,
    '',
    why,
    'To stop these e-mails, open this link and press "Unsubscribe":',
    d.unsubscribeUrl,
    '',
    'With gratitude,',
    campaign.name,
  ].join('\n');

  const body = html`<p>Dear ${greetingName(d.name)},</p>
    <p>${delivered} Thank you: your pledge helps make this happen.</p>
    ${button(d.ledgerUrl, 'See where the money goes')}
    <p style="margin:24px 0 0;font-size:13px;color:#4b5563;">
      ${why}
      <a href="${d.unsubscribeUrl}" style="color:#166534;">Unsubscribe from delivery news</a>.
    </p>
    <p>With gratitude,<br />${campaign.name}</p>`;

  return {
    subject,
    text,
    html: page(campaign, subject, body),
    headers: {
      'List-Unsubscribe': `<${d.unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
