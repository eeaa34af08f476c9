import { describe, expect, it } from 'vitest';
import campaignJson from '../../../../config/campaign.json';
import { campaignSchema } from '@shared/schemas/campaign';
import { instructionsEmail } from './instructions';
import { greetingName, type EmailData } from './layout';
import { receiptEmail } from './receipt';

const campaign = campaignSchema.parse(campaignJson);
const base: EmailData = {
  campaign,
  pledge: {
    name: 'Ann "Annie" <Brown>',
    amount: 1000,
    currency: 'USD',
    containers: 9090,
    createdAt: new Date('2026-11-20T15:00:00Z'),
  },
  statusUrl: 'https://relief.example.org/pledge/abc?t=tok&x=1',
};

describe('e-mail templates', () => {
  it('show the payment reference and the amount received when the pledge has them', () => {
    const plain = instructionsEmail(base);
    expect(plain.text).not.toContain('payment reference');
    const withRef = instructionsEmail({
      ...base,
      pledge: { ...base.pledge, reference: 'MFR-7K3Q' },
    });
    expect(withRef.text).toContain('Your payment reference is MFR-7K3Q.');
    expect(withRef.html).toContain('MFR-7K3Q');

    const receipt = receiptEmail({
      ...base,
      pledge: {
        ...base.pledge,
        reference: 'MFR-7K3Q',
        amountReceived: 990,
        currencyReceived: 'USD',
        outstandingAmount: 10,
        paymentConfirmedAt: new Date('2026-11-23T12:00:00Z'),
      },
    });
    expect(receipt.text).toContain('We have received your payment of US$990 on November 23, 2026.');
    expect(receipt.text).toContain('Payment reference: MFR-7K3Q');
    expect(receipt.text).toContain('Pledged: US$1,000 (9,090 meal containers)');
    expect(receipt.text).toContain('Still to pay: US$10');
    expect(receipt.html).toContain('US$990');
  });

  it('greet by the first name only, and escape the link in the HTML part', () => {
    const { html, text } = instructionsEmail(base);
    expect(text).toContain('Dear Ann,');
    expect(html).toContain('Dear Ann,');
    expect(html).toContain('href="https://relief.example.org/pledge/abc?t=tok&amp;x=1"');
    expect(html).not.toContain('Brown');
  });

  it('2.1 greet with no link or address from the name (second review)', () => {
    for (const [name, expected] of [
      ['Zoë-Ann Campbell', 'Zoë-Ann'],
      ["O'Brien & Sons", "O'Brien"],
      ['https://evil.example/verify', 'donor'],
      ['evil.example Bank', 'donor'],
      ['www.evil Bank', 'donor'],
      ['me@evil.example', 'donor'],
      ['Your bank account is on hold. https://evil.example', 'Your'],
      ['<>', 'donor'],
      ['🎉🎉', 'donor'],
      ['A'.repeat(200), 'A'.repeat(40)],
      ['李小龙 x', '李小龙'],
    ])
      expect(greetingName(name), name).toBe(expected);
    for (const email of [instructionsEmail, receiptEmail])
      expect(
        email({ ...base, pledge: { ...base.pledge, name: 'http://evil.example' } }).text,
      ).toContain('Dear donor,');
  });
});
