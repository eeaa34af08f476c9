import type { ParsedMail } from 'mailparser';
import { sql } from 'drizzle-orm';
import { afterAll } from 'vitest';
import { NEWS_CONSENT_VERSION } from '@shared/news';
import { UNSUBSCRIBE_LINK_INVALID } from '@shared/schemas/news';
import { uploadImage } from '../../../tests/support/api';
import { describe, expect, test } from '../../../tests/support/fixtures';
import { until } from '../../../tests/support/net';
import { startTestSmtp } from '../../../tests/support/smtp';
import type { TestApp } from '../../../tests/support/test-app';
import { siteBaseUrl } from '../../lib/site-url';

/**
 * Delivery news by e-mail, by consent: the consent is stored with its time and wording's version,
 * news go only to consenting addresses, one message per address, with RFC 8058 one-click
 * unsubscribe headers; the link unsubscribes by POST without a session (GET changes nothing); an
 * unsubscribed or erased address gets nothing more. Over real SMTP.
 */
/** The links' origin: the test app's own address (no PUBLIC_URL: the photos upload to it). */
let PUBLIC_URL: string;

interface Created {
  id: string;
  statusUrl: string;
}

// The SMTP server first: its address is one of the file's app options.
const smtp = await startTestSmtp();
afterAll(() => smtp.close());
test.override('appOptions', {
  env: {
    ...smtp.env,
    MAIL_RETRY_BASE_MS: '100',
    MAIL_POLL_MS: '50',
    RATE_LIMIT_PLEDGES_PER_MINUTE: '0',
  },
});

let t: TestApp;
let cookie: string;
let run = 0;

test.beforeAll(async ({ app, adminClient }) => {
  t = app;
  cookie = adminClient.cookie;
  PUBLIC_URL = siteBaseUrl(t.config);
});

/** Addresses unique to this file's run (the database may be a pooled one). */
const addr = (local: string) => `${local}.${process.pid}.${run}@donors.test`;

async function pledge(body: Record<string, unknown>): Promise<Created> {
  const res = await t.request('/api/pledges', {
    method: 'POST',
    json: { name: 'Nadine News', amount: 50, ...body },
  });
  expect(res.status).toBe(201);
  return (await res.json()) as Created;
}

const tokenOf = (c: Created) => new URL(c.statusUrl, PUBLIC_URL).searchParams.get('t')!;

async function consentOf(id: string) {
  const res = (await t.database.db.execute(
    sql`select news_consent_at, news_consent_version, news_withdrawn_at, created_at, email
        from pledges where id = ${id}`,
  )) as unknown as {
    rows: {
      news_consent_at: string | Date | null;
      news_consent_version: string | null;
      news_withdrawn_at: string | Date | null;
      created_at: string | Date;
      email: string;
    }[];
  };
  return res.rows[0]!;
}

async function subscriberCount(): Promise<number> {
  const res = await t.request('/api/admin/news/subscribers', { cookie });
  expect(res.status).toBe(200);
  return ((await res.json()) as { count: number }).count;
}

async function postUpdate(recipient: string, notifySubscribers?: boolean) {
  const imageUrl = await uploadImage(t, cookie);
  const res = await t.request('/api/updates', {
    method: 'POST',
    cookie,
    json: {
      imageUrl,
      recipient,
      containerCount: 1200,
      deliveryDate: '2026-11-20',
      ...(notifySubscribers === undefined ? {} : { notifySubscribers }),
    },
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; notified?: number };
}

/** The delivery news received so far about one update (by its recipient). */
const newsAbout = (recipient: string) =>
  smtp.received.filter((m) => m.subject?.endsWith(`to ${recipient}`));
const recipientOf = (m: ParsedMail) =>
  m.to && 'value' in m.to ? m.to.value[0]!.address!.toLowerCase() : '';

async function outboxOfUpdate(updateId: string) {
  const res = (await t.database.db.execute(
    sql`select pledge_id, kind, attempts, sent_at, failed_at, last_error from outbox
        where update_id = ${updateId}`,
  )) as unknown as {
    rows: {
      pledge_id: string;
      attempts: number;
      sent_at: unknown;
      failed_at: unknown;
      last_error: string | null;
    }[];
  };
  return res.rows;
}

describe('delivery news by consent', () => {
  test('records the consent with its time and wording version; absent or false is no consent', async () => {
    run += 1;
    const yes = await pledge({ email: addr('yes'), deliveryNews: true });
    const absent = await pledge({ email: addr('absent') });
    const no = await pledge({ email: addr('no'), deliveryNews: false });
    const row = await consentOf(yes.id);
    expect(row.news_consent_version).toBe(NEWS_CONSENT_VERSION);
    // The consent's time is the pledge's own.
    expect(new Date(row.news_consent_at!).getTime()).toBe(new Date(row.created_at).getTime());
    for (const c of [absent, no]) {
      expect(await consentOf(c.id)).toMatchObject({
        news_consent_at: null,
        news_consent_version: null,
      });
    }
    // The status page reads it.
    const view = await t.request(`/api/pledges/${yes.id}/status?t=${tokenOf(yes)}`);
    expect(((await view.json()) as { deliveryNews: boolean }).deliveryNews).toBe(true);
    // Anything but true or false is a clear 400.
    const bad = await t.request('/api/pledges', {
      method: 'POST',
      json: { name: 'Bad Box', email: addr('bad'), amount: 5, deliveryNews: 'yes' },
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toBe(
      'deliveryNews must be true or false',
    );
  });

  test('mails one message per consenting address, none to others, with one-click unsubscribe headers', async () => {
    run += 1;
    const shared = addr('shared');
    const first = await pledge({ email: shared, deliveryNews: true, name: 'Andre First' });
    // A second pledge of the same address (another case): still one message.
    const second = await pledge({
      email: shared.toUpperCase(),
      deliveryNews: true,
      name: 'Andre Second',
    });
    const other = await pledge({ email: addr('other'), deliveryNews: true });
    const silent = await pledge({ email: addr('silent') });
    const before = await subscriberCount();

    // Posting without the choice mails nobody.
    const quiet = await postUpdate(`Quiet Shelter ${run}`);
    expect(quiet.notified).toBeUndefined();
    expect(await outboxOfUpdate(quiet.id)).toEqual([]);

    const recipient = `Harbour View Shelter ${run}`;
    const posted = await postUpdate(recipient, true);
    expect(posted.notified).toBe(before);
    const mails = await until(
      () => newsAbout(recipient),
      (ms) => ms.length >= before,
    );
    // Give a duplicate the time to arrive, then count: exactly one per address.
    await until(
      () => outboxOfUpdate(posted.id),
      (rs) => rs.every((r) => r.sent_at !== null),
    );
    const to = newsAbout(recipient).map(recipientOf);
    expect(to.filter((a) => a === shared.toLowerCase())).toHaveLength(1);
    expect(to).toContain(addr('other'));
    expect(to).not.toContain(addr('silent'));
    expect(new Set(to).size).toBe(to.length);
    expect(to).toHaveLength(before);

    const mail = mails.find((m) => recipientOf(m) === shared.toLowerCase())!;
    expect(mail.subject).toBe(`Delivered: 1,200 meal containers to ${recipient}`);
    // The address's latest consenting pledge greets and signs the link.
    expect(mail.text).toContain('Dear Andre,');
    expect(mail.text).toContain('1,200 meal containers were delivered to');
    expect(mail.text).toContain(`${PUBLIC_URL}/where-the-money-goes`);
    // The raw header lines, as a mail program reads them (RFC 8058).
    const line = (name: string) =>
      mail.headerLines.find((h) => h.key === name)?.line.replace(/\r?\n\s+/g, ' ');
    const url = /^List-Unsubscribe: <(https?:\/\/[^>\s]+)>$/.exec(line('list-unsubscribe')!)![1]!;
    expect(url).toMatch(
      new RegExp(`^${PUBLIC_URL}/api/news/unsubscribe\\?t=${second.id}\\.[\\w-]{43}$`),
    );
    expect(line('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    // The same link in the text and the HTML.
    expect(mail.text).toContain(url);
    expect(mail.html).toContain(url);
    expect(first.id).not.toBe(second.id);
    expect(other.id).not.toBe(silent.id);
  });

  test('unsubscribes by POST without a session (GET changes nothing); the address gets no more', async () => {
    run += 1;
    const email = addr('leaver');
    const a = await pledge({ email, deliveryNews: true });
    const b = await pledge({ email, deliveryNews: true });
    const stayer = await pledge({ email: addr('stayer'), deliveryNews: true });
    const recipient = `Old Harbour School ${run}`;
    await postUpdate(recipient, true);
    const mail = (
      await until(
        () => newsAbout(recipient).filter((m) => recipientOf(m) === email),
        (ms) => ms.length === 1,
      )
    )[0]!;
    const url = /https?:\/\/\S+unsubscribe\?t=[\w.-]+/.exec(mail.text!)![0];
    const local = url.replace(PUBLIC_URL, '');

    // Opening the link (a mail scanner does) only shows the button.
    const page = await t.request(local);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('<button type="submit"');
    expect(html).toContain('Unsubscribe');
    expect((await consentOf(b.id)).news_consent_at).not.toBeNull();

    // The one-click POST as a mail program sends it: a form body, no cookie, no Origin.
    const count = await subscriberCount();
    const res = await t.request(local, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('You are unsubscribed');
    for (const id of [a.id, b.id]) {
      const row = await consentOf(id);
      expect(row.news_consent_at).toBeNull();
      expect(row.news_withdrawn_at).not.toBeNull();
    }
    expect((await consentOf(stayer.id)).news_consent_at).not.toBeNull();
    expect(await subscriberCount()).toBe(count - 1);
    // Again: still fine (a second click, a retry).
    expect((await t.request(local, { method: 'POST' })).status).toBe(200);

    const next = `Port Royal Clinic ${run}`;
    const posted = await postUpdate(next, true);
    await until(
      () => outboxOfUpdate(posted.id),
      (rs) => rs.length > 0 && rs.every((r) => r.sent_at !== null),
    );
    const to = newsAbout(next).map(recipientOf);
    expect(to).toContain(addr('stayer'));
    expect(to).not.toContain(email);
  });

  test('does not send news queued before the address unsubscribed', async () => {
    run += 1;
    const email = addr('late');
    const c = await pledge({ email, deliveryNews: true });
    smtp.refuse = true;
    try {
      const posted = await postUpdate(`Refused Shelter ${run}`, true);
      const mine = async () => (await outboxOfUpdate(posted.id)).find((r) => r.pledge_id === c.id)!;
      // Queued and refused once: it is waiting for its retry when the donor unsubscribes.
      await until(mine, (r) => r.attempts >= 1);
      const res = await t.request(`/api/pledges/${c.id}/news`, {
        method: 'POST',
        json: { t: tokenOf(c), subscribe: false },
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { deliveryNews: boolean }).deliveryNews).toBe(false);
      // Its retry (the server still refusing, so an attempt begun before the unsubscribe cannot
      // get through) finds no consent: kept, marked, not sent.
      expect(await until(mine, (r) => r.failed_at !== null)).toMatchObject({
        sent_at: null,
        last_error: 'Not sent: the address unsubscribed before it went',
      });
      smtp.refuse = false;
      await until(
        () => outboxOfUpdate(posted.id),
        (rs) => rs.every((r) => r.sent_at !== null || r.failed_at !== null),
      );
      expect(newsAbout(`Refused Shelter ${run}`).map(recipientOf)).not.toContain(email);
    } finally {
      smtp.refuse = false;
    }
  });

  test('answers a bad unsubscribe link with a clear 404, GET and POST', async () => {
    run += 1;
    const c = await pledge({ email: addr('forged'), deliveryNews: true });
    const forged = `${c.id}.${'A'.repeat(43)}`;
    for (const query of ['', '?t=', '?t=nonsense', `?t=${forged}`, `?t=${'x'.repeat(300)}`]) {
      for (const method of ['GET', 'POST']) {
        const res = await t.request(`/api/news/unsubscribe${query}`, { method });
        expect(res.status, `${method} ${query}`).toBe(404);
        expect(await res.text()).toContain(UNSUBSCRIBE_LINK_INVALID.slice(0, 40));
      }
    }
    expect((await consentOf(c.id)).news_consent_at).not.toBeNull();
  });

  test('the status page subscribes and unsubscribes with its token, and only with it', async () => {
    run += 1;
    const c = await pledge({ email: addr('status') });
    const wrong = await t.request(`/api/pledges/${c.id}/news`, {
      method: 'POST',
      json: { t: 'wrong', subscribe: true },
    });
    expect(wrong.status).toBe(404);
    const noChoice = await t.request(`/api/pledges/${c.id}/news`, {
      method: 'POST',
      json: { t: tokenOf(c) },
    });
    expect(noChoice.status).toBe(400);
    expect(((await noChoice.json()) as { message: string }).message).toBe(
      'subscribe must be true or false',
    );
    const on = await t.request(`/api/pledges/${c.id}/news`, {
      method: 'POST',
      json: { t: tokenOf(c), subscribe: true },
    });
    expect(on.status).toBe(200);
    expect(((await on.json()) as { deliveryNews: boolean }).deliveryNews).toBe(true);
    expect(await consentOf(c.id)).toMatchObject({ news_consent_version: NEWS_CONSENT_VERSION });
    const off = await t.request(`/api/pledges/${c.id}/news`, {
      method: 'POST',
      json: { t: tokenOf(c), subscribe: false },
    });
    expect(((await off.json()) as { deliveryNews: boolean }).deliveryNews).toBe(false);
  });

  test('erasing the donor clears the consent, and the export shows it before', async () => {
    run += 1;
    const c = await pledge({ email: addr('erased'), deliveryNews: true });
    const data = await t.request(`/api/pledges/${c.id}/my-data?t=${tokenOf(c)}`);
    expect(((await data.json()) as { consent: unknown }).consent).toMatchObject({
      deliveryNews: true,
      deliveryNewsWording: { version: NEWS_CONSENT_VERSION },
    });
    const count = await subscriberCount();
    const res = await t.request(`/api/pledges/${c.id}/erase`, {
      method: 'POST',
      json: { t: tokenOf(c), confirm: true },
    });
    expect(res.status).toBe(200);
    expect(await consentOf(c.id)).toMatchObject({
      news_consent_at: null,
      news_consent_version: null,
      news_withdrawn_at: null,
    });
    expect(await subscriberCount()).toBe(count - 1);
  });

  test('the subscriber count is for the content roles only', async () => {
    expect((await t.request('/api/admin/news/subscribers')).status).toBe(401);
  });
});
