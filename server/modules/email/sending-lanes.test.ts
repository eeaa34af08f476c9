import { sql } from 'drizzle-orm';
import { eventually } from '../../../tests/support/net';
import { startTestSmtp } from '../../../tests/support/smtp';
import { describe, expect, test } from '../../../tests/support/fixtures';
import { SEND_LANES } from './mailer';

// A slow SMTP server (40 ms per message), so that messages sent one after another and messages
// sent side by side take measurably different paths.
const smtp = await startTestSmtp({ delayMs: 40 });
test.override('appOptions', {
  env: {
    ...smtp.env,
    MAIL_POLL_MS: '50',
    RATE_LIMIT_PLEDGES_PER_MINUTE: '0',
    MAIL_PER_CLIENT_PER_DAY: '0',
  },
});

/** The outbox at spike scale (docs/decisions/014-email-outbox.md, "At spike scale"). */
describe('sending a backlog', () => {
  test('goes out side by side over a few reused connections, each message once', async ({
    app,
  }) => {
    const before = smtp.received.length;
    const n = 24;
    for (let i = 0; i < n; i++) {
      const res = await app.request('/api/pledges', {
        method: 'POST',
        json: { name: `Lane Donor ${i}`, email: `lane.${i}@donors.test`, amount: 10 + i },
      });
      expect(res.status).toBe(201);
    }
    const got = await smtp.waitFor(before + n, 30_000);
    const mine = got.slice(before);
    // Each message once, to its own donor.
    const to = mine.map((m) => (m.to && 'value' in m.to ? m.to.value[0]!.address : ''));
    expect(new Set(to).size).toBe(n);
    expect(new Set(mine.map((m) => m.messageId)).size).toBe(n);
    // Several on the wire at once, never more than the lanes; over pooled connections, not one
    // connection per message.
    expect(smtp.maxInFlight).toBeGreaterThan(1);
    expect(smtp.maxInFlight).toBeLessThanOrEqual(SEND_LANES);
    expect(smtp.connections).toBeLessThanOrEqual(SEND_LANES * 2);
    // Each is marked sent right after its server accepted it (the last ones a moment after).
    const waiting = async () => {
      const rows = (await app.database.db.execute(
        sql`select count(*)::int as n from outbox where sent_at is null and failed_at is null`,
      )) as unknown as { rows: { n: number }[] };
      return Number(rows.rows[0]!.n);
    };
    await eventually(async () => (await waiting()) === 0);
    expect(await waiting()).toBe(0);
  });
});

test.afterAll(() => smtp.close());
