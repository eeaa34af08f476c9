import { describe, expect, it } from 'vitest';
import type { DeliveryUpdate } from '@shared/schemas/update';
import { imageUrlFromUploadUrl } from './api';
import { changedFields } from './components/edit-update-dialog';
import { updateCountLabel } from './components/updates-grid';

const update: DeliveryUpdate = {
  id: 'u1',
  imageUrl: 'https://relief.example/api/objects/uploads/a',
  recipient: 'Black River Community Kitchen',
  containerCount: 1200,
  deliveryDate: '2025-01-05',
  createdAt: '2025-01-05T12:00:00.000Z',
};
const same = {
  imageUrl: '',
  recipient: update.recipient,
  containerCount: update.containerCount,
  deliveryDate: update.deliveryDate,
};

describe('edit update: only changed fields are sent', () => {
  it('finds no change when the form holds the update as it is', () => {
    expect(changedFields(update, same)).toEqual({});
    expect(changedFields(update, { ...same, imageUrl: update.imageUrl })).toEqual({});
  });

  it('lists each changed field, and the image only when a new one was uploaded', () => {
    expect(changedFields(update, { ...same, containerCount: 1500 })).toEqual({
      containerCount: 1500,
    });
    expect(
      changedFields(update, {
        imageUrl: 'https://relief.example/api/objects/uploads/b',
        recipient: 'Savanna-la-Mar Shelter',
        containerCount: 1200,
        deliveryDate: '2025-01-06',
      }),
    ).toEqual({
      imageUrl: 'https://relief.example/api/objects/uploads/b',
      recipient: 'Savanna-la-Mar Shelter',
      deliveryDate: '2025-01-06',
    });
  });
});

describe('small admin texts', () => {
  it('counts updates as "1 Update" / "N Updates"', () => {
    expect(updateCountLabel(0)).toBe('0 Updates');
    expect(updateCountLabel(1)).toBe('1 Update');
    expect(updateCountLabel(2)).toBe('2 Updates');
    expect(updateCountLabel(1200)).toBe('1,200 Updates');
  });

  it('stores the upload URL without its signature', () => {
    expect(
      imageUrlFromUploadUrl('https://relief.example/api/objects/uploads/x?expires=1&signature=abc'),
    ).toBe('https://relief.example/api/objects/uploads/x');
  });
});
