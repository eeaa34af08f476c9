import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSmtp, type TestSmtp } from '../support/smtp';
import { request } from '../support/http';
import { sleep } from '../support/net';
import { createTarget, type Target } from './support/target';
import { SEND_LANES } from '../../server/modules/email/mailer';

const PLEDGES = 20;
const mailEnv = (smtp: TestSmtp) => ({
  SMTP_URL: smtp.url,
  MAIL_FROM: 'Relief <relief@campaign.test>',
  MAIL_RETRY_BASE_MS: '100',
  MAIL_POLL_MS: '100',
});

/**
 * The outbox (docs/decisions/014-email-outbox.md): the app (`node dist/server.js`) is killed with
 * SIGKILL after it acknowledged pledges and before it sent their e-mails (the SMTP server accepts
 * slowly, so most are still queued). After a restart every pledge's e-mail arrives: none is lost; a
 * message being sent at the kill may arrive twice (same Message-ID), never more.
 */
describe('e-mail outbox across kill -9', () => {
  let target: Target;
  let smtp: TestSmtp;
  beforeAll(async () => {
    target = await createTarget();
    smtp = await startTestSmtp({ delayMs: 150 });
  });
  afterAll(async () => {
    await smtp?.close();
    await target?.dispose();
  });

  // Two server starts, one after a kill -9 (PGlite recovers its data folder): slow on a busy
  // machine.
  it(
    'delivers every acknowledged pledge’s instructions after a crash',
    { timeout: 90_000 },
    async () => {
      const first = await target.start({ env: mailEnv(smtp) });
      const emails: string[] = [];
      for (let i = 0; i < PLEDGES; i++) {
        const email = `kill9.${i}@donors.test`;
        const res = await request(first.baseUrl, 'POST', '/api/pledges', {
          json: { name: `Kill Nine ${i}`, email, amount: 10 + i },
        });
        expect(res.status).toBe(201);
        emails.push(email);
      }
      await first.kill('SIGKILL');
      const beforeRestart = smtp.received.length;
      // The kill came between enqueue and send for most of them.
      expect(beforeRestart).toBeLessThan(PLEDGES);

      const second = await target.start({ env: mailEnv(smtp) });
      try {
        const deadline = Date.now() + 30_000;
        const arrived = () =>
          new Set(
            smtp.received.map((m) => (m.to && 'value' in m.to ? m.to.value[0]!.address : '')),
          );
        while (emails.some((e) => !arrived().has(e))) {
          if (Date.now() > deadline)
            throw new Error(`missing: ${emails.filter((e) => !arrived().has(e)).join(', ')}`);
          await sleep(50);
        }
        await sleep(500);
        const perId = new Map<string, number>();
        for (const m of smtp.received) perId.set(m.messageId!, (perId.get(m.messageId!) ?? 0) + 1);
        expect(perId.size).toBe(PLEDGES);
        // At most a duplicate each, and only of the messages on the wire at the kill (one per
        // lane of the worker).
        expect(Math.max(...perId.values())).toBeLessThanOrEqual(2);
        expect(smtp.received.length - PLEDGES).toBeLessThanOrEqual(SEND_LANES);
        console.info(
          `[email kill9] ${beforeRestart}/${PLEDGES} sent before the kill, ${smtp.received.length - PLEDGES} duplicate(s)`,
        );
      } finally {
        await second.kill('SIGTERM');
      }
    },
  );
});
