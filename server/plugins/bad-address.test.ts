import { describe, expect, test } from '../../tests/support/fixtures';

/**
 * Addresses the router refuses before routing (a broken percent-escape, an over-long part): the
 * site's 404 page for a page address, our JSON error otherwise, and the headers of every answer.
 */
function expectOurHeaders(res: Response) {
  expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('x-request-id')).toMatch(/^[\w.:-]{8,128}$/);
}

describe('an address that cannot be decoded', () => {
  test.for(['/%zz', '/pledge/%E0%A4%A', '/pledges/%', `/pledge/${'a'.repeat(300)}`])(
    'GET %s shows the 404 page',
    async (path, { app }) => {
      const res = await app.request(path);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await res.text();
      expect(html).toContain('"notFound":true');
      expectOurHeaders(res);
    },
  );

  test('under /api, it is a 400 with a sentence', async ({ app }) => {
    const res = await app.request('/api/pledges/%zz');
    expect(res.status).toBe(400);
    expectOurHeaders(res);
    expect(await res.json()).toEqual({
      message: 'This address is not valid: a "%" in it must be followed by two hexadecimal digits.',
    });
  });

  test('a POST to it is a 400 with a sentence, and the site still answers', async ({ app }) => {
    const res = await app.request('/api/%zz', { method: 'POST', json: {} });
    expect(res.status).toBe(400);
    expectOurHeaders(res);
    expect(((await res.json()) as { message: string }).message).toMatch(/not valid/);
    expect((await app.request('/api/progress')).status).toBe(200);
  });
});
