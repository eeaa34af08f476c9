import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSmtp, type TestSmtp } from '../support/smtp';
import { request } from '../support/http';
import { sleep } from '../support/net';
import { pool } from './support/load';
import type { ServerProcess } from '../support/server-process';
import { createTarget, type Target } from './support/target';

const PLEDGES = 80;

/**
 * The outbox (docs/decisions/014-email-outbox.md): two app instances (processes) over one
 * PostgreSQL database, each with its own SMTP server, so the test sees which instance sent what.
 * Pledges go to both; every message must arrive exactly once in all (FOR UPDATE SKIP LOCKED), and
 * both instances must have sent some.
 */
describe('e-mail with two instances over one PostgreSQL', () => {
  let target: Target;
  let smtpA: TestSmtp;
  let smtpB: TestSmtp;
  let a: ServerProcess;
  let b: ServerProcess;
  beforeAll(async () => {
    target = await createTarget('postgres');
    // A slow server: the instances overlap while messages are being sent.
    smtpA = await startTestSmtp({ delayMs: 20 });
    smtpB = await startTestSmtp({ delayMs: 20 });
    const env = (smtp: TestSmtp) => ({
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Relief <relief@campaign.test>',
      MAIL_POLL_MS: '20',
      // Every pledge comes from this one client address: no per-client e-mail cap here.
      MAIL_PER_CLIENT_PER_DAY: '0',
    });
    a = await target.start({ env: env(smtpA) });
    b = await target.start({ env: env(smtpB) });
  });
  afterAll(async () => {
    await a?.kill('SIGTERM');
    await b?.kill('SIGTERM');
    await smtpA?.close();
    await smtpB?.close();
    await target?.dispose();
  });

  it('never sends one message twice', async () => {
    await pool(PLEDGES, 8, async (i) => {
      const res = await request(i % 2 ? a.baseUrl : b.baseUrl, 'POST', '/api/pledges', {
        json: { name: `Two ${i}`, email: `two.${i}@donors.test`, amount: 5 + i },
      });
      expect(res.status).toBe(201);
    });
    const deadline = Date.now() + 60_000;
    while (smtpA.received.length + smtpB.received.length < PLEDGES) {
      if (Date.now() > deadline)
        throw new Error(`only ${smtpA.received.length + smtpB.received.length} of ${PLEDGES}`);
      await sleep(50);
    }
    await sleep(1_000);
    const all = [...smtpA.received, ...smtpB.received];
    expect(all).toHaveLength(PLEDGES);
    expect(new Set(all.map((m) => m.messageId)).size).toBe(PLEDGES);
    // One message per donor (the greeting no longer carries the full name: second review 2.1).
    const to = (m: (typeof all)[number]) => (m.to && 'value' in m.to ? m.to.value[0]?.address : '');
    expect(new Set(all.map(to)).size).toBe(PLEDGES);
    expect(smtpA.received.length).toBeGreaterThan(0);
    expect(smtpB.received.length).toBeGreaterThan(0);
    console.info(
      `[email two instances] A sent ${smtpA.received.length}, B ${smtpB.received.length}`,
    );
  });
});
