import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { simpleParser, type AddressObject } from 'mailparser';
import { describe, expect, test } from '../support/fixtures';
import { eventually } from '../support/net';

let clock = Date.now();
// Clients told apart by X-Forwarded-For, as behind the site's proxy; the pledge limit off.
test.override('appOptions', {
  now: () => new Date(clock),
  env: { TRUST_PROXY: 'true', RATE_LIMIT_PLEDGES_PER_MINUTE: '0', MAIL_PER_CLIENT_PER_DAY: '5' },
});

const PHISH =
  'Your bank account is on hold. Re-verify now at https://evil.example/verify or evil.example';

/**
 * Second review 2.1 (docs/SECURITY.md, threat 49): 40 parallel anonymous pledges to one victim with
 * a phishing text as the name all queued an instructions e-mail starting "Dear Your bank account is
 * on hold…".
 */
describe('2.1 the site cannot be made to spam or phish', () => {
  const queuedTo = async (
    db: { execute: (q: ReturnType<typeof sql>) => Promise<unknown> },
    email: string,
  ) => {
    const res = (await db.execute(sql`select count(*)::int as n from outbox o
      join pledges p on p.id = o.pledge_id where o.kind = 'instructions' and lower(p.email) = ${email}`)) as {
      rows: { n: number }[];
    };
    return Number(res.rows[0]!.n);
  };

  test('2.1 at most 3 instruction e-mails a day to one address; every pledge is stored and answered', async ({
    app,
  }) => {
    const victim = 'victim@example.net';
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        app.request('/api/pledges', {
          method: 'POST',
          // 40 different clients: the per-address cap alone holds.
          headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
          json: { name: PHISH, email: victim, amount: 5, currency: 'USD', isAnonymous: true },
        }),
      ),
    );
    for (const r of responses) {
      expect(r.status).toBe(201);
      // The thank-you screen still gets its reference and status link (the instructions).
      const body = (await r.json()) as { reference: string; statusUrl: string };
      expect(body.reference).toMatch(/^[A-Z]+-/);
      expect(body.statusUrl).toMatch(/^\/pledge\//);
    }
    const stored = (await app.database.db.execute(
      sql`select count(*)::int as n from pledges where email = ${victim}`,
    )) as unknown as { rows: { n: number }[] };
    expect(Number(stored.rows[0]!.n)).toBe(40);
    expect(await queuedTo(app.database.db, victim)).toBe(3);
    // Another case of the same address is the same address.
    await app.request('/api/pledges', {
      method: 'POST',
      headers: { 'x-forwarded-for': '203.0.113.99' },
      json: { name: 'Vic', email: 'Victim@Example.NET', amount: 5, currency: 'USD' },
    });
    expect(await queuedTo(app.database.db, victim)).toBe(3);
    // A day later the address gets mail again.
    clock += 24 * 3_600_000 + 60_000;
    const later = await app.request('/api/pledges', {
      method: 'POST',
      headers: { 'x-forwarded-for': '203.0.113.100' },
      json: { name: 'Vic', email: victim, amount: 5, currency: 'USD' },
    });
    expect(later.status).toBe(201);
    expect(await queuedTo(app.database.db, victim)).toBe(4);
  });

  test('2.1 one client address causes at most MAIL_PER_CLIENT_PER_DAY e-mails, whatever the recipients', async ({
    app,
  }) => {
    const sent = [];
    for (let i = 0; i < 8; i++) {
      const res = await app.request('/api/pledges', {
        method: 'POST',
        headers: { 'x-forwarded-for': '198.51.100.200' },
        json: { name: 'Spray', email: `spray${i}@example.org`, amount: 5, currency: 'USD' },
      });
      expect(res.status).toBe(201);
      sent.push(await queuedTo(app.database.db, `spray${i}@example.org`));
    }
    expect(sent).toEqual([1, 1, 1, 1, 1, 0, 0, 0]);
    // Another client is not affected.
    await app.request('/api/pledges', {
      method: 'POST',
      headers: { 'x-forwarded-for': '198.51.100.201' },
      json: { name: 'Other', email: 'spray-other@example.org', amount: 5, currency: 'USD' },
    });
    expect(await queuedTo(app.database.db, 'spray-other@example.org')).toBe(1);
  });

  test('2.1 the e-mail greets by a first name with no link in it, else "Dear donor"', async ({
    app,
  }) => {
    for (const [name, email] of [
      [PHISH, 'phish1@example.org'],
      ['evil.example/verify Bank', 'phish2@example.org'],
      ['Zoë-Ann Campbell', 'zoe@example.org'],
    ] as const)
      await app.request('/api/pledges', {
        method: 'POST',
        headers: { 'x-forwarded-for': `192.0.2.${email.length}` },
        json: { name, email, amount: 5, currency: 'USD' },
      });
    const dir = path.join(app.dataDir, 'outbox');
    /** The text and HTML of the e-mail to `to`, once the worker has written it. */
    const mailTo = async (to: string): Promise<string> => {
      let found = '';
      await eventually(async () => {
        let files: string[];
        try {
          files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
        } catch {
          return false; // not there yet
        }
        for (const f of files) {
          const parsed = await simpleParser(readFileSync(path.join(dir, f)));
          const address = (parsed.to as AddressObject | undefined)?.value[0]?.address;
          if (address === to) found = `${parsed.text}\n${parsed.html || ''}`;
        }
        return found !== '';
      }, 20_000);
      return found;
    };
    for (const to of ['phish1@example.org', 'phish2@example.org']) {
      const mail = await mailTo(to);
      expect(mail).not.toMatch(/evil|bank account|verify/i);
    }
    expect(await mailTo('phish1@example.org')).toContain('Dear Your,');
    expect(await mailTo('phish2@example.org')).toContain('Dear donor,');
    expect(await mailTo('zoe@example.org')).toContain('Dear Zoë-Ann,');
  });
});
