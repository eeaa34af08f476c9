import { describe, expect, it } from 'vitest';
import { formatMinor } from './format';
import { convertMinor, paymentProgressText, paymentSummary, PAYMENT_STATE_LABEL } from './received';

describe('money in minor units', () => {
  it('formats cents only when there are some', () => {
    expect(formatMinor(1234, 'JMD')).toBe('J$12.34');
    expect(formatMinor(3000, 'USD')).toBe('US$30');
    expect(formatMinor(123_456_705, 'USD')).toBe('US$1,234,567.05');
    expect(formatMinor(0, 'JMD')).toBe('J$0');
  });

  it('converts at the campaign rate, rounded down', () => {
    expect(convertMinor(100, 'USD', 'JMD')).toBe(15_200);
    expect(convertMinor(15_199, 'JMD', 'USD')).toBe(99);
  });
});

describe('payment states', () => {
  const usd50 = { amount: 50, currency: 'USD' as const, isPaid: true };
  it('tells the four states apart, with what is owed or over', () => {
    expect(paymentSummary({ ...usd50, isPaid: false }).state).toBe('pending');
    expect(paymentSummary({ ...usd50, receivedMinor: 3000 })).toMatchObject({
      state: 'part-paid',
      outstandingMinor: 2000,
    });
    expect(paymentSummary({ ...usd50, receivedMinor: 5000 }).state).toBe('paid');
    expect(paymentSummary({ ...usd50, receivedMinor: 15_000 })).toMatchObject({
      state: 'over-paid',
      overpaidMinor: 10_000,
    });
    expect(PAYMENT_STATE_LABEL['over-paid']).toBe('Over paid');
  });

  it('says it in words, with amounts', () => {
    expect(paymentProgressText({ ...usd50, receivedMinor: 3000, amountReceivedMinor: 3000 })).toBe(
      'US$30 of US$50 received · US$20 to go',
    );
    expect(
      paymentProgressText({ ...usd50, receivedMinor: 15_000, amountReceivedMinor: 15_000 }),
    ).toBe('US$150 of US$50 received · US$100 over');
    expect(paymentProgressText({ ...usd50, receivedMinor: 5000, amountReceivedMinor: 5000 })).toBe(
      'US$50 received',
    );
    expect(
      paymentProgressText({
        ...usd50,
        currencyReceived: 'JMD',
        amountReceivedMinor: 304_000,
        receivedMinor: 2000,
      }),
    ).toBe('J$3,040 (≈ US$20 at the campaign rate) of US$50 received · US$30 to go');
    expect(paymentProgressText({ ...usd50, isPaid: false })).toBe('');
  });

  it('does not call a J$ pledge paid in US$ short or over by less than one US cent', () => {
    // J$1,000 is US$6.5789…: US$6.57 is J$998.64, US$6.58 is J$1,000.16.
    const jmd = {
      amount: 1000,
      currency: 'JMD' as const,
      isPaid: true,
      currencyReceived: 'USD' as const,
    };
    expect(paymentSummary({ ...jmd, receivedMinor: convertMinor(657, 'USD', 'JMD') }).state).toBe(
      'paid',
    );
    expect(paymentSummary({ ...jmd, receivedMinor: convertMinor(658, 'USD', 'JMD') }).state).toBe(
      'paid',
    );
    expect(paymentSummary({ ...jmd, receivedMinor: convertMinor(600, 'USD', 'JMD') }).state).toBe(
      'part-paid',
    );
  });
});
