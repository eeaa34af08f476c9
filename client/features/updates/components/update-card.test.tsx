// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DeliveryUpdate } from '@shared/schemas/update';
import { UpdateCard } from './update-card';

afterEach(cleanup);

const update: DeliveryUpdate = {
  id: 'u1',
  imageUrl: 'https://example.org/api/objects/uploads/abc',
  recipient: 'Black River Community Kitchen',
  containerCount: 1200,
  deliveryDate: '2025-01-05',
  createdAt: '2025-01-06T10:00:00Z',
  srcset: 'https://example.org/api/objects/uploads/abc?w=400 400w',
  width: 1200,
  height: 900,
};

describe('UpdateCard', () => {
  it('shows the image, recipient, units and the delivery date', () => {
    render(<UpdateCard update={update} />);
    const img = screen.getByRole('img', { name: 'Delivery to Black River Community Kitchen' });
    expect(img.getAttribute('src')).toBe(update.imageUrl);
    expect(img.getAttribute('srcset')).toBe(update.srcset);
    expect(img.getAttribute('sizes')).toMatch(/\d+(px|vw)$/);
    expect(img.getAttribute('width')).toBe('1200');
    expect(img.getAttribute('height')).toBe('900');
    expect(img.getAttribute('loading')).toBe('lazy');
    const text = screen.getByRole('article').textContent!;
    expect(text).toContain('Black River Community Kitchen');
    expect(text).toContain('1,200 units');
    expect(text).toContain('Jan 5, 2025');
  });

  it('leaves srcset, sizes and dimensions out when the server gave none', () => {
    render(
      <UpdateCard update={{ ...update, srcset: undefined, width: undefined, height: undefined }} />,
    );
    const img = screen.getByRole('img');
    expect(img.hasAttribute('srcset')).toBe(false);
    expect(img.hasAttribute('sizes')).toBe(false);
    expect(img.hasAttribute('width')).toBe(false);
  });

  it('shows an edit button only when given a handler', () => {
    const { unmount } = render(<UpdateCard update={update} />);
    expect(screen.queryByRole('button')).toBeNull();
    unmount();
    const onEdit = vi.fn();
    render(<UpdateCard update={update} onEdit={onEdit} />);
    fireEvent.click(screen.getByRole('button', { name: /edit/i }));
    expect(onEdit).toHaveBeenCalledWith(update);
  });
});
