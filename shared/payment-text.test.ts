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
