import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../tests/helpers/test-app';

describe('pledges smoke', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('creates a pledge and counts its containers', async () => {
    const res = await t.request('/api/pledges', {
      method: 'POST',
      json: { name: 'Ann', email: 'ann@x.test', amount: 110, currency: 'USD' },
    });
    expect(res.status).toBe(201);
    const progress = await (await t.request('/api/progress')).json();
    expect(progress.currentAmount).toBe(1000);
  });
});
