import { sql } from 'drizzle-orm';
import { afterAll } from 'vitest';
import campaign from '../../../config/campaign.json';
import { configProblems } from '../../../tests/support/config-problems';
import { pledgeWithLink } from '../../../tests/support/api';
import { describe, expect, test } from '../../../tests/support/fixtures';
import { until } from '../../../tests/support/net';
import { startTestSmtp } from '../../../tests/support/smtp';
import type { TestApp } from '../../../tests/support/test-app';
import { loadConfig } from '../../config';
import { statementLines } from '../../db/schema';

/**
 * Instruction and receipt e-mails through the outbox, over real SMTP. (The status link and the
 * .eml files written without SMTP_URL: donor-status-link.test.ts.)
 */
const FAST_RETRY = { MAIL_RETRY_BASE_MS: '100', MAIL_POLL_MS: '50' };

// The SMTP server first: its address is one of the file's app options.
const smtp = await startTestSmtp();
afterAll(() => smtp.close());
test.override('appOptions', {
  env: {
    ...smtp.env,
    PUBLIC_URL: 'https://relief.example.org',
    ...FAST_RETRY,
  },
});

async function outboxRows(t: TestApp) {
  const res = (await t.database.db.execute(
    sql`select id, pledge_id, kind, attempts, sent_at, last_error from outbox order by created_at`,
  )) as unknown as {
    rows: { id: string; pledge_id: string; kind: string; attempts: number; sent_at: unknown }[];
  };
  return res.rows;
}

describe('e-mail over SMTP', () => {
  let t: TestApp;
  let cookie: string;

  test.beforeAll(async ({ app, adminClient }) => {
    t = app;
    cookie = adminClient.cookie;
  });

  test('sends the instructions of a new pledge: amount, containers, bank details, status link', async () => {
    // Another donor's pledge first: it must never appear in this donor's e-mail.
    await pledgeWithLink(t, { name: 'Other Donor', email: 'other@donors.test', amount: 77 });
    await smtp.waitFor(1);
    const created = await pledgeWithLink(t, {
      name: 'Marcia <b>Brown</b>',
      email: 'marcia@donors.test',
      amount: 1250,
      currency: 'USD',
      isAnonymous: true,
    });
    expect(created.statusUrl).toMatch(new RegExp(`^/pledge/${created.id}\\?t=[\\w-]{40,}$`));
    const [, mail] = await smtp.waitFor(2);
    expect(mail!.to).toMatchObject({ value: [{ address: 'marcia@donors.test' }] });
    expect(mail!.from!.value[0]).toMatchObject({ address: 'relief@campaign.test' });
    expect(mail!.replyTo!.value[0]!.address).toBe(campaign.payment.confirmationEmail);
    expect(mail!.subject).toBe(`Thank you for your pledge to ${campaign.name}: how to complete it`);
    const text = mail!.text!;
    // Greeted by the first name only (second review 2.1): the rest of what was typed stays out.
    expect(text).toContain('Dear Marcia,');
    expect(text).not.toContain('Brown');
    expect(text).toContain('US$1,250');
    expect(text).toContain('11,363 meal containers');
    for (const value of [
      campaign.payment.usdWire.accountNumber,
      campaign.payment.usdWire.swift,
      campaign.payment.usdWire.intermediaryBank.aba,
      campaign.payment.jmdTransfer.accountNumber,
      campaign.payment.confirmationEmail,
      // The amount to send; the reference alone in the note; the USD account first for a US$
      // pledge; no request to e-mail a confirmation.
      'Amount to transfer: US$1,250',
      'In the payment note of your transfer, put only your payment reference: ',
    ])
      expect(text).toContain(value);
    expect(text).not.toContain(campaign.payment.operationName);
    expect(text).not.toContain('please e-mail your confirmation');
    expect(text.indexOf('USD WIRE TRANSFER')).toBeLessThan(text.indexOf('JMD LOCAL BANK TRANSFER'));
    expect(text).toContain(`https://relief.example.org${created.statusUrl}`);
    expect(text).not.toContain('Other Donor');
    expect(text).not.toContain('other@donors.test');
    // The HTML part: the same facts, the first name only, the link as a button.
    const htmlPart = mail!.html as string;
    expect(htmlPart).toContain('Dear Marcia,');
    expect(htmlPart).not.toContain('Brown');
    expect(htmlPart).toContain('US$1,250');
    expect(htmlPart).toContain(campaign.payment.usdWire.accountNumber);
    expect(htmlPart).toContain(
      `href="https://relief.example.org${created.statusUrl.replace('?', '?')}"`,
    );
    expect(htmlPart).not.toContain('Other Donor');
    // Marked sent once the server accepted it (on PostgreSQL at the end of the batch's
    // transaction).
    const rows = await until(
      () => outboxRows(t),
      (rs) => rs.filter((r) => r.pledge_id === created.id && r.sent_at !== null).length === 1,
    );
    expect(rows.filter((r) => r.pledge_id === created.id)).toMatchObject([
      { kind: 'instructions', attempts: 1 },
    ]);
    expect(mail!.messageId).toBe(
      `<${rows.find((r) => r.pledge_id === created.id)!.id}@campaign.test>`,
    );
  });

  test('sends a receipt with the amount received and the date when the payment is confirmed', async () => {
    const created = await pledgeWithLink(t, {
      name: 'Devon Receipt',
      email: 'devon@donors.test',
      amount: 15200,
      currency: 'JMD',
    });
    const before = (await smtp.waitFor(3)).length;
    const res = await t.request(`/api/pledges/${created.id}/confirm`, {
      method: 'PUT',
      json: {},
      cookie,
    });
    expect(res.status).toBe(200);
    const { paymentConfirmedAt } = (await res.json()) as { paymentConfirmedAt: string };
    const mails = await smtp.waitFor(before + 1);
    const receipt = mails[before]!;
    expect(receipt.to).toMatchObject({ value: [{ address: 'devon@donors.test' }] });
    expect(receipt.subject).toBe(`Receipt: your donation to ${campaign.name} has arrived`);
    const day = new Intl.DateTimeFormat('en-US', {
      dateStyle: 'long',
      timeZone: 'America/Jamaica',
    }).format(new Date(paymentConfirmedAt));
    expect(receipt.text).toContain(`We have received your payment of J$15,200 on ${day}.`);
    expect(receipt.text).toContain('Amount received: J$15,200');
    expect(receipt.html).toContain('J$15,200');
    expect(receipt.html).toContain(day);
    expect(receipt.text).toContain(`https://relief.example.org${created.statusUrl}`);
    // A second confirm changes nothing and sends nothing.
    await t.request(`/api/pledges/${created.id}/confirm`, { method: 'PUT', json: {}, cookie });
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.received.length).toBe(before + 1);
  });

  test('sends a receipt over SMTP for a payment confirmed from a bank statement, with its cents', async () => {
    const created = await pledgeWithLink(t, {
      name: 'Statement Receipt',
      email: 'statement@donors.test',
      amount: 100,
      currency: 'JMD',
    });
    await until(
      async () => (await outboxRows(t)).find((r) => r.pledge_id === created.id),
      (r) => r?.sent_at !== null && r !== undefined,
    );
    const before = smtp.received.length;
    const [line] = await t.database.db
      .insert(statementLines)
      .values({
        fingerprint: `smtp-${created.id}`,
        bookedOn: '2026-11-04',
        amountCents: 1234,
        currency: 'JMD',
        description: 'TRANSFER',
        payer: 'STATEMENT RECEIPT',
      })
      .returning({ id: statementLines.id });
    const res = await t.request('/api/admin/statements/confirm', {
      method: 'POST',
      cookie,
      json: { lines: [{ lineId: line!.id, pledgeId: created.id }] },
    });
    expect(await res.json()).toMatchObject({ confirmed: 1 });
    const mails = await smtp.waitFor(before + 1);
    const receipt = mails.slice(before).find((m) => m.subject?.startsWith('Receipt'))!;
    expect(receipt.to).toMatchObject({ value: [{ address: 'statement@donors.test' }] });
    expect(receipt.text).toContain('Amount received: J$12.34');
    expect(receipt.text).toContain('Still to pay: J$87.66');
  });

  test('retries while the server refuses, then delivers once', async () => {
    smtp.refuse = true;
    const before = smtp.received.length;
    const created = await pledgeWithLink(t, {
      name: 'Retry Donor',
      email: 'retry@donors.test',
      amount: 40,
    });
    await until(
      async () => (await outboxRows(t)).find((r) => r.pledge_id === created.id)!,
      (r) => r.attempts >= 3,
    );
    expect(smtp.refusals).toBeGreaterThanOrEqual(3);
    expect(smtp.received.length).toBe(before);
    const admin = await t.request(`/api/admin/pledges/${created.id}/emails`, { cookie });
    expect(((await admin.json()) as { items: unknown[] }).items).toMatchObject([
      { kind: 'instructions', status: 'waiting', lastError: expect.stringContaining('451') },
    ]);
    smtp.refuse = false;
    const mails = await smtp.waitFor(before + 1);
    expect(mails[before]!.to).toMatchObject({ value: [{ address: 'retry@donors.test' }] });
    await until(
      async () => (await outboxRows(t)).find((r) => r.pledge_id === created.id)!,
      (r) => r.sent_at !== null,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(
      smtp.received.filter(
        (m) => m.subject?.startsWith('Thank you') && m.text?.includes('Dear Retry,'),
      ),
    ).toHaveLength(1);
  });

  test('shows the admin each pledge’s messages and resends the instructions', async () => {
    const created = await pledgeWithLink(t, {
      name: 'Resend Donor',
      email: 'resend@donors.test',
      amount: 5,
    });
    await until(
      async () => (await outboxRows(t)).find((r) => r.pledge_id === created.id)!,
      (r) => r.sent_at !== null,
    );
    const before = smtp.received.length;
    expect((await t.request(`/api/admin/pledges/${created.id}/emails`)).status).toBe(401);
    expect(
      (
        await t.request(`/api/admin/pledges/${created.id}/emails/resend`, {
          method: 'POST',
          json: {},
        })
      ).status,
    ).toBe(401);
    const res = await t.request(`/api/admin/pledges/${created.id}/emails/resend`, {
      method: 'POST',
      json: {},
      cookie,
    });
    expect(res.status).toBe(201);
    const mails = await smtp.waitFor(before + 1);
    expect(mails[before]!.to).toMatchObject({ value: [{ address: 'resend@donors.test' }] });
    // The same link as the first e-mail: it keeps working.
    expect(mails[before]!.text).toContain(`https://relief.example.org${created.statusUrl}`);
    const list = await until(
      async () =>
        (
          (await (
            await t.request(`/api/admin/pledges/${created.id}/emails`, { cookie })
          ).json()) as {
            items: { kind: string; status: string }[];
          }
        ).items,
      (items) => items.every((i) => i.status === 'sent'),
    );
    expect(list.map((i) => i.kind)).toEqual(['instructions', 'instructions']);
    const missing = await t.request(
      '/api/admin/pledges/00000000-0000-4000-8000-000000000000/emails',
      { cookie },
    );
    expect(missing.status).toBe(404);
    const bad = await t.request('/api/admin/pledges/nope/emails', { cookie });
    expect(bad.status).toBe(400);
  });
});

describe('e-mail configuration', () => {
  test('rejects a malformed SMTP_URL with a clear message, and wants MAIL_FROM with it', () => {
    for (const bad of [
      'smtp.example.org',
      'http://smtp.example.org',
      'smtps://',
      'smtps://user:p@ss@',
    ]) {
      expect(configProblems({ SMTP_URL: bad, MAIL_FROM: 'a@b.org' }).join('\n'), bad).toMatch(
        /^SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL with a host, e\.g\. smtps:\/\/user:pass@smtp\.example\.org:465/,
      );
    }
    expect(configProblems({ SMTP_URL: 'smtps://u:p@smtp.example.org:465' })).toEqual([
      expect.stringMatching(/^MAIL_FROM: required when SMTP_URL is set/),
    ]);
    expect(
      configProblems({ SMTP_URL: 'smtps://u:p@smtp.example.org:465', MAIL_FROM: 'nobody' }),
    ).toEqual([expect.stringMatching(/^MAIL_FROM: must be an e-mail address/)]);
    const ok = loadConfig({
      SMTP_URL: 'smtps://u:p@smtp.example.org:465',
      MAIL_FROM: 'Relief <relief@example.org>',
    });
    expect(ok).toMatchObject({
      smtpUrl: 'smtps://u:p@smtp.example.org:465',
      mailFrom: 'Relief <relief@example.org>',
    });
    expect(loadConfig({}).smtpUrl).toBeUndefined();
  });
});
