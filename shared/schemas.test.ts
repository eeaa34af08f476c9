import { describe, expect, it } from 'vitest';
import campaignJson from '../config/campaign.json';
import { loginSchema } from './schemas/admin';
import { campaignSchema } from './schemas/campaign';
import { adminPledgeQuerySchema, pledgeCreateSchema, pledgeEditSchema } from './schemas/pledge';
import { progressUpdateSchema } from './schemas/progress';
import { fieldErrors, firstMessage } from './schemas/text';
import {
  isCalendarDate,
  updateCreateSchema,
  updateEditFormSchema,
  updateEditSchema,
  updateFormSchema,
} from './schemas/update';
import type { z } from 'zod';

/** The first message a schema gives for a value, or 'ok'. */
function verdict(schema: z.ZodType, value: unknown): string {
  const r = schema.safeParse(value);
  return r.success ? 'ok' : firstMessage(r.error);
}

const pledge = { name: 'Ann', email: 'ann@donors.test', amount: 100 };

describe('pledgeCreateSchema (product validation messages)', () => {
  it('fills the defaults and drops unknown keys', () => {
    const out = pledgeCreateSchema.parse({
      ...pledge,
      id: 'x',
      isPaid: true,
      paymentConfirmedAt: '2020-01-01',
      createdAt: '2020-01-01',
    });
    expect(out).toEqual({ ...pledge, currency: 'USD', isAnonymous: false });
  });

  it.each([
    [{ ...pledge, name: '' }, 'Name is required'],
    [{ ...pledge, name: '   ' }, 'Name is required'],
    [{ ...pledge, email: 'nope' }, 'Valid email is required'],
    [{ ...pledge, amount: 0 }, 'Pledge amount must be at least $1'],
    [{ ...pledge, amount: 0.5 }, 'Pledge amount must be at least $1'],
    [{ ...pledge, amount: undefined }, 'Pledge amount must be at least $1'],
    [{ ...pledge, amount: 1.5 }, 'Pledge amount must be a whole number'],
    [{ ...pledge, amount: 1e308 }, 'Pledge amount must be at most 1,000,000,000'],
    [{ ...pledge, currency: 'EUR' }, 'Currency must be USD or JMD'],
    [{ ...pledge, amount: 1 }, 'ok'],
    [{ ...pledge, amount: 1_000_000_000, currency: 'JMD', isAnonymous: true }, 'ok'],
  ])('%j -> %s', (value, message) => {
    expect(verdict(pledgeCreateSchema, value)).toBe(message);
  });

  it('reports every field in fieldErrors, keyed by path', () => {
    const r = pledgeCreateSchema.safeParse({ name: '', email: '', amount: 0 });
    expect(r.success).toBe(false);
    expect(fieldErrors(r.error!)).toEqual({
      name: 'Name is required',
      email: 'Valid email is required',
      amount: 'Pledge amount must be at least $1',
    });
  });
});

describe('pledgeEditSchema', () => {
  it.each([
    [{ updates: { amount: 0 } }, 'Please enter a valid amount (minimum $1)'],
    [{ updates: { amount: 2.5 } }, 'Please enter a valid amount (minimum $1)'],
    [{ updates: {} }, 'ok'],
    [{ updates: { name: 'B', email: 'b@donors.test', amount: 3 } }, 'ok'],
    [{}, 'updates must be an object'],
  ])('%j -> %s', (value, message) => {
    expect(verdict(pledgeEditSchema, value)).toBe(message);
  });

  it('drops fields an admin cannot edit', () => {
    expect(
      pledgeEditSchema.parse({ updates: { name: 'B', currency: 'JMD', isPaid: true } }),
    ).toEqual({ updates: { name: 'B' } });
  });
});

describe('adminPledgeQuerySchema', () => {
  it('has the dashboard defaults: all statuses, date descending, page 1', () => {
    expect(adminPledgeQuerySchema.parse({})).toEqual({
      search: '',
      status: 'all',
      sort: 'date',
      order: 'desc',
      page: 1,
      pageSize: 50,
    });
    expect(adminPledgeQuerySchema.parse({ page: '3', pageSize: '10' })).toMatchObject({
      page: 3,
      pageSize: 10,
    });
  });
});

describe('progressUpdateSchema', () => {
  it.each([
    [{ manualAdjustment: 500 }, 'ok'],
    [{ manualAdjustment: -100, goalAmount: 1 }, 'ok'],
    [{ manualAdjustment: 1.5 }, 'Manual adjustment must be an integer'],
    [{ manualAdjustment: '5' }, 'Manual adjustment must be an integer'],
    [{}, 'Manual adjustment must be an integer'],
    [{ manualAdjustment: 1e308 }, 'Manual adjustment is too large'],
    [{ manualAdjustment: 0, goalAmount: 0 }, 'Goal amount must be at least 1'],
    [{ manualAdjustment: 0, goalAmount: 0.5 }, 'Goal amount must be at least 1'],
  ])('%j -> %s', (value, message) => {
    expect(verdict(progressUpdateSchema, value)).toBe(message);
  });
});

describe('delivery update schemas', () => {
  const update = {
    imageUrl: 'https://relief.example.org/api/objects/uploads/x',
    recipient: 'Kitchen',
    containerCount: 10,
    deliveryDate: '2025-01-05',
  };

  it('knows real calendar dates', () => {
    for (const d of ['2025-01-05', '2024-02-29', '2000-02-29', '1999-12-31']) {
      expect(isCalendarDate(d), d).toBe(true);
    }
    for (const d of [
      '2025-02-30',
      '2025-02-29',
      '1900-02-29',
      '2025-04-31',
      '2025-00-10',
      '2025-1-5',
      'x',
    ]) {
      expect(isCalendarDate(d), d).toBe(false);
    }
  });

  it.each([
    [{ ...update, imageUrl: 'javascript:alert(1)' }, 'Valid image URL is required'],
    [{ ...update, imageUrl: 'ftp://x.test/a.png' }, 'Valid image URL is required'],
    [{ ...update, imageUrl: 'relative/path.png' }, 'Valid image URL is required'],
    [{ ...update, recipient: '' }, 'Recipient is required'],
    [{ ...update, recipient: 'x'.repeat(201) }, 'Recipient must be 200 characters or less'],
    [{ ...update, containerCount: 0 }, 'Container count must be at least 1'],
    [{ ...update, deliveryDate: '2025-02-30' }, 'Invalid date format'],
    [{ ...update, recipient: 'x'.repeat(200) }, 'ok'],
    [update, 'ok'],
  ])('create %j -> %s', (value, message) => {
    expect(verdict(updateCreateSchema, value)).toBe(message);
  });

  it('uses the form wording for a missing image and date', () => {
    expect(verdict(updateFormSchema, { ...update, imageUrl: '' })).toBe(
      'Please upload an image first',
    );
    expect(verdict(updateFormSchema, { ...update, deliveryDate: '' })).toBe(
      'Delivery date is required',
    );
    expect(verdict(updateEditFormSchema, { ...update, imageUrl: undefined })).toBe('ok');
  });

  it('accepts a partial edit and drops unknown keys', () => {
    expect(updateEditSchema.parse({ updates: { recipient: 'New', id: 'x' } })).toEqual({
      updates: { recipient: 'New' },
    });
  });
});

describe('loginSchema', () => {
  it.each([
    [{ password: '' }, 'Password is required'],
    [{}, 'Password is required'],
    [{ password: 'x' }, 'ok'],
  ])('%j -> %s', (value, message) => {
    expect(verdict(loginSchema, value)).toBe(message);
  });
});

describe('campaignSchema', () => {
  it('accepts the shipped config/campaign.json', () => {
    expect(verdict(campaignSchema, campaignJson)).toBe('ok');
  });

  it('names the path of a bad value', () => {
    const broken = { ...campaignJson, supplierBrand: 'Green Box!', partners: [] };
    const r = campaignSchema.safeParse(broken);
    expect(r.success).toBe(false);
    expect(Object.keys(fieldErrors(r.error!)).sort()).toEqual(['partners', 'supplierBrand']);
  });
});
