import { describe, expect, it } from 'vitest';
import { formatCents } from './format-cents';

describe('formatCents', () => {
  it('shows cents only when there are any', () => {
    expect(formatCents(1_234, 'JMD')).toBe('J$12.34');
    expect(formatCents(1_200, 'JMD')).toBe('J$12');
    expect(formatCents(105, 'USD')).toBe('US$1.05');
    expect(formatCents(123_456_700, 'USD')).toBe('US$1,234,567');
    expect(formatCents(-250, 'USD')).toBe('-US$2.50');
  });
});
