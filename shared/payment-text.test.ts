import { describe, expect, it } from 'vitest';
import { campaignSchema } from './schemas/campaign';
import { paymentFileName, paymentInstructionsText } from './payment-text';

import campaignJson from '../config/campaign.json';

const campaign = campaignSchema.parse(campaignJson);

describe('payment instructions file', () => {
  it('is named after the supplier brand', () => {
    expect(paymentFileName(campaign)).toBe(`${campaign.supplierBrand}-Payment-Instructions.txt`);
    expect(paymentFileName({ ...campaign, supplierBrand: 'Acme-Pack' })).toBe(
      'Acme-Pack-Payment-Instructions.txt',
    );
  });

  it('carries every bank detail, the e-mail contact and the operation name', () => {
    const text = paymentInstructionsText(campaign);
    const { usdWire, jmdTransfer, confirmationEmail, operationName } = campaign.payment;
    for (const value of [
      usdWire.beneficiary,
      usdWire.bank,
      usdWire.branch,
      usdWire.accountNumber,
      usdWire.accountType,
      usdWire.swift,
      usdWire.intermediaryBank.name,
      usdWire.intermediaryBank.address,
      usdWire.intermediaryBank.swift,
      usdWire.intermediaryBank.aba,
      jmdTransfer.accountNumber,
      jmdTransfer.branch,
      confirmationEmail,
      operationName,
    ])
      expect(text).toContain(value);
    expect(text).toContain('Account Type: Savings');
    expect(text).toContain('ABA Number: ');
    expect(text.indexOf('USD WIRE TRANSFER')).toBeLessThan(text.indexOf('JMD LOCAL BANK TRANSFER'));
  });
});

describe('payment reference in the instructions file', () => {
  it('tells the donor to put their reference in the payment note', () => {
    const text = paymentInstructionsText(campaign, 'MRJ-7K4Q-2');
    expect(text).toContain(
      'YOUR PAYMENT REFERENCE\n  MRJ-7K4Q-2\n  Put this reference in the payment note.',
    );
    expect(paymentInstructionsText(campaign)).not.toContain('REFERENCE');
  });
});

describe('clearer for the donor', () => {
  it('states the amount to transfer, with cents when there are some', () => {
    const text = paymentInstructionsText(campaign, 'MRJ-7K4Q-2', {
      amountMinor: 5000,
      currency: 'USD',
    });
    expect(text).toContain('AMOUNT TO TRANSFER\n  US$50\n');
    expect(
      paymentInstructionsText(campaign, null, { amountMinor: 123_456, currency: 'JMD' }),
    ).toContain('J$1,234.56');
  });

  it('asks for the reference alone in the payment note', () => {
    const text = paymentInstructionsText(campaign, 'MRJ-7K4Q-2');
    expect(text).toContain(
      'PAYMENT NOTE\n  In the payment note of your transfer, put only your payment reference: MRJ-7K4Q-2.',
    );
    expect(text).not.toContain(campaign.payment.operationName);
  });

  it('puts the account of the pledge’s currency first', () => {
    const jmd = paymentInstructionsText(campaign, 'MRJ-7K4Q-2', {
      amountMinor: 1_520_000,
      currency: 'JMD',
    });
    expect(jmd.indexOf('JMD LOCAL BANK TRANSFER')).toBeLessThan(jmd.indexOf('USD WIRE TRANSFER'));
    const usd = paymentInstructionsText(campaign, 'MRJ-7K4Q-2', {
      amountMinor: 100,
      currency: 'USD',
    });
    expect(usd.indexOf('USD WIRE TRANSFER')).toBeLessThan(usd.indexOf('JMD LOCAL BANK TRANSFER'));
  });

  it('asks to e-mail a confirmation only when the campaign config says so', () => {
    expect(paymentInstructionsText(campaign)).not.toContain('e-mail your confirmation');
    const asking = campaignSchema.parse({
      ...campaignJson,
      payment: { ...campaignJson.payment, askForConfirmationEmail: true },
    });
    expect(paymentInstructionsText(asking)).toContain(
      `please e-mail your confirmation to ${campaign.payment.confirmationEmail}`,
    );
  });
});
