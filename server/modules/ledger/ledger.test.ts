import { describe, expect, test } from '../../../tests/support/fixtures';

/**
 * "Where the money goes": a public page rendered on the server (no script), with the
 * money received by week per currency and in containers, the deliveries in order and the running
 * totals, following payments and updates.
 */

describe('GET /where-the-money-goes', () => {
  test('adds up received money by week and deliveries in order, without any script', async ({
    app,
    adminClient,
    pledge,
    update,
  }) => {
    const page = async () => {
      const res = await app.request('/where-the-money-goes');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      return res.text();
    };
    const empty = await page();
    expect(empty).toContain('<h1>Where the money goes</h1>');
    expect(empty).toContain('No money has been received yet.');
    expect(empty).not.toContain('<script');

    const usd = await pledge({ amount: 110, currency: 'USD' });
    const jmd = await pledge({ amount: 16_720, currency: 'JMD' });
    for (const [p, amount] of [
      [usd, 110],
      [jmd, 16_720],
    ] as const) {
      const res = await adminClient.request(`/api/pledges/${p.id}/confirm`, {
        method: 'PUT',
        json: { amountReceived: amount },
      });
      expect(res.status, await res.clone().text()).toBe(200);
    }
    await update({ recipient: 'Later Kitchen', containerCount: 700, deliveryDate: '2025-02-10' });
    await update({
      recipient: 'First Shelter <b>',
      containerCount: 300,
      deliveryDate: '2025-01-06',
    });
    const html = await page();
    // US$110 buys 1,000 containers, J$16,720 another 1,000.
    expect(html).toContain('US$110');
    expect(html).toContain('J$16,720');
    expect(html).toMatch(/<td class="num">2,000<\/td>/);
    // The deliveries oldest first, escaped, with their photo and date.
    const first = html.indexOf('First Shelter &lt;b&gt;');
    const later = html.indexOf('Later Kitchen');
    expect(first).toBeGreaterThan(0);
    expect(later).toBeGreaterThan(first);
    expect(html).toContain('alt="Delivery to Later Kitchen"');
    expect(html).toContain('Jan 6, 2025');
    // Running totals: the January week has 300 delivered, February 1,000 in all.
    expect(html).toMatch(
      /Week of Jan 6, 2025<\/th>(?:\s*<td class="num">[^<]*<\/td>){5}\s*<td class="num">300<\/td>/,
    );
    expect(html).toMatch(
      /Week of Feb 10, 2025<\/th>(?:\s*<td class="num">[^<]*<\/td>){5}\s*<td class="num">1,000<\/td>/,
    );
    expect(html).not.toContain('<script');
    // Linked from the footer of the page itself, with the privacy notice.
    expect(html).toContain('href="/privacy"');
  });
});
