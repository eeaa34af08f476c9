import { describe, expect, it } from 'vitest';
import campaignJson from '../../../../config/campaign.json';
import { campaignSchema } from '@shared/schemas/campaign';
import { deliveryNewsEmail } from './delivery-news';

const campaign = campaignSchema.parse(campaignJson);
const unsubscribeUrl =
  'https://relief.example.org/api/news/unsubscribe?t=0b0e4b1e-6a55-4c1b-9a52-8d0f0b1c2d3e.abc';

describe('delivery news e-mail', () => {
  const mail = deliveryNewsEmail({
    campaign,
    name: 'Marcia <b>Brown</b>',
    update: {
      recipient: 'St. Bess <Shelter> & Kitchen',
      containerCount: 1,
      deliveryDate: '2026-11-20',
    },
    ledgerUrl: 'https://relief.example.org/where-the-money-goes',
    unsubscribeUrl,
  });

  it('tells the delivery in words, on its calendar day, greeting by first name only', () => {
    expect(mail.subject).toBe('Delivered: 1 meal container to St. Bess <Shelter> & Kitchen');
    expect(mail.text).toContain('Dear Marcia,');
    expect(mail.text).not.toContain('Brown');
    expect(mail.text).toContain(
      '1 meal container was delivered to St. Bess <Shelter> & Kitchen on November 20, 2026.',
    );
    expect(mail.text).toContain('https://relief.example.org/where-the-money-goes');
  });

  it('escapes what the admin typed in the HTML part', () => {
    expect(mail.html).toContain('St. Bess &lt;Shelter&gt; &amp; Kitchen');
    expect(mail.html).not.toContain('<Shelter>');
  });

  it('carries the unsubscribe link in the text, the HTML and the RFC 8058 headers', () => {
    expect(mail.text).toContain(unsubscribeUrl);
    expect(mail.html).toContain('Unsubscribe from delivery news');
    expect(mail.headers).toEqual({
      'List-Unsubscribe': `<${unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });
});
