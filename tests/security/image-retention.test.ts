import { uploadImage } from '../support/api';
import { describe, expect, test } from '../support/fixtures';
import type { TestApp } from '../support/test-app';

const HOUR = 3600_000;

/**
 * Review finding 9.6 (docs/SECURITY.md): a deleted update's photo (or a replaced one) was still
 * served for ever, cached by browsers and proxies for a year as immutable.
 */
let clock = Date.now();
test.override('appOptions', { now: () => new Date(clock) });

describe('9.6 images no update references', () => {
  let t: TestApp;
  let cookie: string;
  test.beforeAll(({ app, adminClient }) => {
    t = app;
    cookie = adminClient.cookie;
  });

  const get = (url: string) => fetch(url);
  const post = (imageUrl: string) =>
    t.request('/api/updates', {
      method: 'POST',
      cookie,
      json: { imageUrl, recipient: 'Shelter', containerCount: 10, deliveryDate: '2025-01-05' },
    });

  test('serves a referenced image with a short cache lifetime, then 404 once its update is deleted', async () => {
    const imageUrl = await uploadImage(t, cookie);
    const created = await post(imageUrl);
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const res = await get(imageUrl);
    expect(res.status).toBe(200);
    const cache = res.headers.get('cache-control') ?? '';
    expect(cache).not.toMatch(/immutable/);
    const maxAge = Number(/max-age=(\d+)/.exec(cache)?.[1]);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(3600);

    expect((await t.request(`/api/updates/${id}`, { method: 'DELETE', cookie })).status).toBe(200);
    expect((await get(imageUrl)).status).toBe(404);
    expect((await get(`${imageUrl}?w=400`)).status).toBe(404);
  });

  test('stops serving the old image when an update gets a new one', async () => {
    const first = await uploadImage(t, cookie);
    const created = await post(first);
    const { id } = (await created.json()) as { id: string };
    const second = await uploadImage(t, cookie);
    const res = await t.request(`/api/updates/${id}`, {
      method: 'PATCH',
      cookie,
      json: { updates: { imageUrl: second } },
    });
    expect(res.status).toBe(200);
    expect((await get(second)).status).toBe(200);
    expect((await get(first)).status).toBe(404);
  });

  test('serves a fresh upload no update uses yet (the admin is still filling in the form), for a while', async () => {
    const pending = await uploadImage(t, cookie);
    expect((await get(pending)).status).toBe(200);
    clock += 2 * HOUR;
    expect((await get(pending)).status).toBe(200);
    clock += 24 * HOUR;
    expect((await get(pending)).status).toBe(404);
    // Still allowed in an update afterwards? No: it is gone for good, the admin uploads again.
  });
});
