import type { DeliveryUpdate } from '@shared/schemas/update';
import { sampleJpeg, samplePng } from '../../../tests/fixtures';
import { uploadImage, uploadUrl } from '../../../tests/support/api';
import { describe, expect, test } from '../../../tests/support/fixtures';
import { startTestApp, type TestApp } from '../../../tests/support/test-app';

const MISSING_ID = '00000000-0000-4000-8000-000000000000';
const NO_CHANGES = 'No changes detected. Please modify at least one field.';

describe('delivery updates', () => {
  let t: TestApp;
  let cookie: string;
  let imageUrl: string;
  let otherImageUrl: string;

  const list = async (): Promise<DeliveryUpdate[]> => {
    const res = await t.request('/api/updates');
    expect(res.status).toBe(200);
    return res.json();
  };
  const post = (json: unknown) => t.request('/api/updates', { method: 'POST', json, cookie });
  const create = async (fields: Partial<Record<string, unknown>> = {}) => {
    const res = await post({
      imageUrl,
      recipient: 'St. Elizabeth community kitchen',
      containerCount: 1200,
      deliveryDate: '2025-01-05',
      ...fields,
    });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as DeliveryUpdate;
  };
  const patch = (id: string, json: unknown) =>
    t.request(`/api/updates/${id}`, { method: 'PATCH', json, cookie });

  test.beforeAll(async ({ app, adminClient }) => {
    t = app;
    cookie = adminClient.cookie;
    imageUrl = await uploadImage(t, cookie, samplePng(), 'image/png');
    otherImageUrl = await uploadImage(t, cookie, sampleJpeg(), 'image/jpeg');
  });

  test('starts with an empty feed', async () => {
    expect(await list()).toEqual([]);
  });

  test('publishes an update with an uploaded image, with its size and srcset', async () => {
    const res = await post({
      imageUrl,
      recipient: 'Westmoreland parish shelter',
      containerCount: 500,
      deliveryDate: '2025-01-05',
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({
      imageUrl,
      recipient: 'Westmoreland parish shelter',
      containerCount: 500,
      deliveryDate: '2025-01-05',
      width: 640,
      height: 480,
      srcset: `${imageUrl}?w=400 400w, ${imageUrl}?w=800 800w, ${imageUrl}?w=1200 1200w`,
    });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(body.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(await list()).toEqual([body]);
    // The image itself is public.
    expect((await fetch(imageUrl)).status).toBe(200);
  });

  test('orders the feed by delivery date, newest first, then by creation', async () => {
    const old = await create({ recipient: 'Old', deliveryDate: '2024-11-30' });
    const newer = await create({ recipient: 'Newer', deliveryDate: '2025-02-01' });
    const sameDayLater = await create({ recipient: 'Same day, later', deliveryDate: '2025-01-05' });
    const feed = (await list()).map((u) => u.recipient);
    expect(feed).toEqual([
      newer.recipient,
      sameDayLater.recipient,
      'Westmoreland parish shelter',
      old.recipient,
    ]);
  });

  test('drops unknown fields (id, createdAt)', async () => {
    const u = await create({ id: MISSING_ID, createdAt: '2000-01-01T00:00:00.000Z' });
    expect(u.id).not.toBe(MISSING_ID);
    expect(u.createdAt).not.toBe('2000-01-01T00:00:00.000Z');
  });

  test('accepts a recipient of exactly 200 characters and a leap day', async () => {
    expect((await create({ recipient: 'r'.repeat(200) })).recipient).toHaveLength(200);
    expect((await create({ deliveryDate: '2024-02-29' })).deliveryDate).toBe('2024-02-29');
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ['no imageUrl', { imageUrl: undefined }, 'Valid image URL is required'],
    ['an imageUrl that is not a URL', { imageUrl: 'not a url' }, 'Valid image URL is required'],
    ['a javascript: URL', { imageUrl: 'javascript:alert(1)' }, 'Valid image URL is required'],
    [
      'a data: URL',
      { imageUrl: 'data:image/png;base64,iVBORw0KGgo=' },
      'Valid image URL is required',
    ],
    [
      'an image of another site',
      { imageUrl: 'https://evil.test/cat.png' },
      'Valid image URL is required',
    ],
    [
      'our path on another site',
      { imageUrl: `https://evil.test/api/objects/uploads/${MISSING_ID}` },
      'Valid image URL is required',
    ],
    [
      'an unknown upload of ours',
      { imageUrl: `URL:/api/objects/uploads/${MISSING_ID}` },
      'Valid image URL is required',
    ],
    ['our image with a query', { imageUrl: 'IMAGE?w=400' }, 'Valid image URL is required'],
    ['a missing recipient', { recipient: undefined }, 'Recipient is required'],
    ['an empty recipient', { recipient: '' }, 'Recipient is required'],
    ['a blank recipient', { recipient: '   ' }, 'Recipient is required'],
    [
      'a recipient of 201 characters',
      { recipient: 'r'.repeat(201) },
      'Recipient must be 200 characters or less',
    ],
    [
      'a recipient with a NUL byte',
      { recipient: 'Kitchen\u0000' + 'x' },
      'Only letters, numbers and punctuation are allowed',
    ],
    ['containerCount 0', { containerCount: 0 }, 'Container count must be at least 1'],
    ['a negative containerCount', { containerCount: -3 }, 'Container count must be at least 1'],
    ['a fractional containerCount', { containerCount: 1.5 }, 'Container count must be at least 1'],
    ['containerCount as a string', { containerCount: '10' }, 'Container count must be at least 1'],
    ['no containerCount', { containerCount: undefined }, 'Container count must be at least 1'],
    [
      'containerCount past the integer range',
      { containerCount: 2 ** 31 },
      'Container count is too large',
    ],
    ['2025-02-30', { deliveryDate: '2025-02-30' }, 'Invalid date format'],
    ['2025-02-29 (not a leap year)', { deliveryDate: '2025-02-29' }, 'Invalid date format'],
    ['month 13', { deliveryDate: '2025-13-01' }, 'Invalid date format'],
    ['a date without leading zeros', { deliveryDate: '2025-1-5' }, 'Invalid date format'],
    ['a US date', { deliveryDate: '01/05/2025' }, 'Invalid date format'],
    ['a timestamp', { deliveryDate: '2025-01-05T00:00:00Z' }, 'Invalid date format'],
    ['an empty date', { deliveryDate: '' }, 'Invalid date format'],
    ['a numeric date', { deliveryDate: 20250105 }, 'Invalid date format'],
  ];

  test.each(invalid)(
    'refuses %s with 400 and the exact message, storing nothing',
    async (_w, fields, message) => {
      const before = await list();
      const resolved = Object.fromEntries(
        Object.entries(fields).map(([k, v]) => [
          k,
          typeof v === 'string' ? v.replace(/^URL:/, t.baseUrl).replace(/^IMAGE/, imageUrl) : v,
        ]),
      );
      const res = await post({
        imageUrl,
        recipient: 'Kitchen',
        containerCount: 10,
        deliveryDate: '2025-01-05',
        ...resolved,
      });
      expect(res.status).toBe(400);
      expect((await res.json()).message).toBe(message);
      expect(await list()).toEqual(before);
    },
  );

  test('edits only the fields sent', async () => {
    const u = await create({ recipient: 'Before', containerCount: 10, deliveryDate: '2025-03-01' });
    const res = await patch(u.id, { updates: { recipient: 'After' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id: u.id,
      recipient: 'After',
      containerCount: 10,
      deliveryDate: '2025-03-01',
      imageUrl,
      createdAt: u.createdAt,
    });

    const more = await patch(u.id, { updates: { containerCount: 25, deliveryDate: '2025-03-02' } });
    expect(await more.json()).toMatchObject({
      recipient: 'After',
      containerCount: 25,
      deliveryDate: '2025-03-02',
    });
    expect((await list()).find((x) => x.id === u.id)).toMatchObject({ containerCount: 25 });
  });

  test('replaces the image with another upload, with its own size', async () => {
    const u = await create();
    const res = await patch(u.id, { updates: { imageUrl: otherImageUrl } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      imageUrl: otherImageUrl,
      width: 640,
      height: 480,
      srcset: expect.stringContaining(`${otherImageUrl}?w=400 400w`),
    });
  });

  test('answers "No changes detected..." for an empty or unchanged edit', async () => {
    const u = await create({ recipient: 'Same', containerCount: 7, deliveryDate: '2025-04-04' });
    for (const updates of [
      {},
      { recipient: 'Same' },
      { recipient: 'Same', containerCount: 7, deliveryDate: '2025-04-04', imageUrl },
      { createdAt: '2000-01-01T00:00:00Z' },
    ]) {
      const res = await patch(u.id, { updates });
      expect(res.status).toBe(400);
      expect((await res.json()).message).toBe(NO_CHANGES);
    }
  });

  test.each([
    [{ updates: { recipient: '' } }, 'Recipient is required'],
    [{ updates: { recipient: 'r'.repeat(201) } }, 'Recipient must be 200 characters or less'],
    [{ updates: { containerCount: 0 } }, 'Container count must be at least 1'],
    [{ updates: { deliveryDate: '2025-02-30' } }, 'Invalid date format'],
    [{ updates: { imageUrl: 'javascript:alert(1)' } }, 'Valid image URL is required'],
    [{ updates: { imageUrl: 'https://evil.test/x.png' } }, 'Valid image URL is required'],
    [{ updates: null }, 'updates must be an object'],
    [{ recipient: 'flat' }, 'updates must be an object'],
  ])('refuses the edit %j with 400 and changes nothing', async (body, message) => {
    const u = await create({ recipient: 'Untouched' });
    const res = await patch(u.id, body);
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe(message);
    expect((await list()).find((x) => x.id === u.id)).toEqual(u);
  });

  test('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const unknown = await patch(MISSING_ID, { updates: { recipient: 'X' } });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: 'Delivery update not found' });
    const malformed = await patch('12', { updates: { recipient: 'X' } });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).message).toBe('Invalid update id');
    expect(
      (await t.request(`/api/updates/${MISSING_ID}`, { method: 'DELETE', cookie })).status,
    ).toBe(404);
    expect((await t.request('/api/updates/zzz', { method: 'DELETE', cookie })).status).toBe(400);
  });

  test('deletes an update; a second delete is 404', async () => {
    const u = await create({ recipient: 'To delete' });
    const res = await t.request(`/api/updates/${u.id}`, { method: 'DELETE', cookie });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, id: u.id });
    expect((await list()).some((x) => x.id === u.id)).toBe(false);
    expect((await t.request(`/api/updates/${u.id}`, { method: 'DELETE', cookie })).status).toBe(
      404,
    );
  });
});

describe('delivery updates behind a PUBLIC_URL', () => {
  test('hands out upload URLs on the public origin and accepts images of that origin', async () => {
    const t = await startTestApp({ env: { PUBLIC_URL: 'https://relief.example.org/' } });
    try {
      const cookie = await t.login();
      const signed = new URL(await uploadUrl(t, cookie));
      expect(signed.origin).toBe('https://relief.example.org');
      // Behind the proxy the same path reaches this server.
      const res = await fetch(`${t.baseUrl}${signed.pathname}${signed.search}`, {
        method: 'PUT',
        body: new Uint8Array(samplePng()),
        headers: { 'content-type': 'image/png' },
      });
      expect(res.status).toBe(200);
      const { url } = await res.json();
      expect(url).toBe(`https://relief.example.org${signed.pathname}`);
      const created = await t.request('/api/updates', {
        method: 'POST',
        cookie,
        json: { imageUrl: url, recipient: 'Clinic', containerCount: 3, deliveryDate: '2025-01-05' },
      });
      expect(created.status).toBe(201);
      expect((await created.json()).imageUrl).toBe(url);
    } finally {
      await t.close();
    }
  });
});
