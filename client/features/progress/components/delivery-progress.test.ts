import { describe, expect, it } from 'vitest';
import { deliveryProgressText } from './delivery-progress';

describe('the status page’s delivery sentence', () => {
  it('says how many of the containers paid for were delivered', () => {
    expect(deliveryProgressText(41_200, 60_000)).toBe(
      'So far 41,200 of the 60,000 containers paid for have been delivered.',
    );
    expect(deliveryProgressText(0, 60_000)).toMatch(/^No containers have been delivered yet/);
    expect(deliveryProgressText(70_000, 60_000)).toBe(
      'So far 70,000 containers have been delivered.',
    );
  });
});
