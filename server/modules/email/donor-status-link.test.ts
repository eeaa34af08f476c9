import { simpleParser } from 'mailparser';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { pledgeWithLink } from '../../../tests/support/api';
import { describe, expect, test } from '../../../tests/support/fixtures';
import { until } from '../../../tests/support/net';
import type { TestApp } from '../../../tests/support/test-app';

/**
 * The donor's status link (only its token opens it, only its hash is stored) and, with no
 * SMTP_URL, the e-mails written as .eml files under DATA_DIR/outbox. (Over SMTP: email.test.ts.)
 */
const FAST_RETRY = { MAIL_RETRY_BASE_MS: '100', MAIL_POLL_MS: '50' };
test.override('appOptions', { env: FAST_RETRY });

describe('the donor status link', () => {
  let t: TestApp;
  let cookie: string;
  test.beforeAll(async ({ app, adminClient }) => {
    t = app;
    cookie = adminClient.cookie;
  });

  test('opens the status with the right token only, and records "I\'ve sent the transfer"', async () => {
    const created = await pledgeWithLink(t, {
      name: 'Status Donor',
      email: 'status@donors.test',
      amount: 300,
    });
    const other = await pledgeWithLink(t, { name: 'Other', email: 'o@donors.test', amount: 1 });
    const token = new URL(created.statusUrl, 'http://x').searchParams.get('t')!;
    const ok = await t.request(`/api/pledges/${created.id}/status?t=${token}`);
    expect(ok.status).toBe(200);
    const view = await ok.json();
    expect(view).toMatchObject({
      id: created.id,
      name: 'Status Donor',
      amount: 300,
      currency: 'USD',
      containers: 2727,
      status: 'pending',
      donorSaysSentAt: null,
    });
    expect(JSON.stringify(view)).not.toContain('status@donors.test');

    // Wrong, missing, another pledge's token, unknown id, malformed id: one and the same 404.
    const otherToken = new URL(other.statusUrl, 'http://x').searchParams.get('t')!;
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const url of [
      `/api/pledges/${created.id}/status?t=${token.slice(0, -1)}x`,
      `/api/pledges/${created.id}/status`,
      `/api/pledges/${created.id}/status?t=${otherToken}`,
      `/api/pledges/${unknown}/status?t=${token}`,
      `/api/pledges/not-an-id/status?t=${token}`,
    ]) {
      const res = await t.request(url);
      expect(res.status, url).toBe(404);
      expect(await res.json(), url).toEqual({ message: 'Pledge not found' });
    }

    // The page itself: 200 with the token, otherwise the very page any unknown path gets.
    const page = await t.request(created.statusUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const notFoundBody = await (await t.request('/no-such-page')).text();
    for (const url of [
      `/pledge/${created.id}?t=wrong`,
      `/pledge/${created.id}`,
      `/pledge/${unknown}?t=${token}`,
    ]) {
      const res = await t.request(url);
      expect(res.status, url).toBe(404);
      expect(await res.text(), url).toBe(notFoundBody);
    }

    // "I've sent the transfer": needs the token, records the date once, shows in the admin table.
    expect(
      (await t.request(`/api/pledges/${created.id}/sent`, { method: 'POST', json: { t: 'wrong' } }))
        .status,
    ).toBe(404);
    const sent = await t.request(`/api/pledges/${created.id}/sent`, {
      method: 'POST',
      json: { t: token },
    });
    expect(sent.status).toBe(200);
    const { donorSaysSentAt } = (await sent.json()) as { donorSaysSentAt: string };
    expect(Date.now() - Date.parse(donorSaysSentAt)).toBeLessThan(60_000);
    const again = await t.request(`/api/pledges/${created.id}/sent`, {
      method: 'POST',
      json: { t: token },
    });
    expect(((await again.json()) as { donorSaysSentAt: string }).donorSaysSentAt).toBe(
      donorSaysSentAt,
    );
    const table = (await (await t.request('/api/admin/pledges', { cookie })).json()) as {
      items: { id: string; donorSaysSentAt: string | null }[];
    };
    expect(table.items.find((i) => i.id === created.id)!.donorSaysSentAt).toBe(donorSaysSentAt);
    expect(table.items.find((i) => i.id === other.id)!.donorSaysSentAt).toBeNull();

    // Paid after confirmation.
    await t.request(`/api/pledges/${created.id}/confirm`, { method: 'PUT', json: {}, cookie });
    const paid = await (await t.request(`/api/pledges/${created.id}/status?t=${token}`)).json();
    expect(paid).toMatchObject({ status: 'paid' });
  });

  test('stores only a hash of the token', async () => {
    const created = await pledgeWithLink(t, {
      name: 'Hash Donor',
      email: 'hash@donors.test',
      amount: 3,
    });
    const token = new URL(created.statusUrl, 'http://x').searchParams.get('t')!;
    const dump = (await t.database.db.execute(
      sql`select (select json_agg(d) from donor_links d)::text || (select json_agg(o) from outbox o)::text as all`,
    )) as unknown as { rows: { all: string }[] };
    expect(dump.rows[0]!.all).toContain(created.id);
    expect(dump.rows[0]!.all).not.toContain(token);
  });

  test('writes .eml files under DATA_DIR/outbox when no SMTP_URL is set', async () => {
    const created = await pledgeWithLink(t, {
      name: 'File Donor',
      email: 'file@donors.test',
      amount: 20,
      currency: 'USD',
    });
    const dir = path.join(t.dataDir, 'outbox');
    const mail = await until(
      async () => {
        let files: string[] = [];
        try {
          files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
        } catch {
          /* not there yet */
        }
        for (const f of files) {
          const parsed = await simpleParser(readFileSync(path.join(dir, f)));
          if (parsed.text?.includes('Dear File,')) return parsed;
        }
        return undefined;
      },
      (m) => m !== undefined,
    );
    expect(mail!.to).toMatchObject({ value: [{ address: 'file@donors.test' }] });
    expect(mail!.text).toContain('US$20');
    expect(mail!.text).toContain(created.statusUrl);
    expect(readdirSync(dir).some((f) => f.endsWith('.tmp'))).toBe(false);
  });
});
