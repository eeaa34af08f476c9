import { randomUUID } from 'node:crypto';
import type { AuditPage } from '@shared/schemas/audit';
import type { DismissedLinesPage, ReviewLine, ReviewLinesPage } from '@shared/schemas/statement';
import { MISSING_ID } from '../../../tests/support/api';
import { describe, expect, test } from '../../../tests/support/fixtures';
import type { TestApp } from '../../../tests/support/test-app';
import { statementImports, statementLines } from '../../db/schema';

/**
 * The review of open statement lines (docs/decisions/013-statement-matching.md): paging in the
 * bank file's order, dismiss and restore, and the proposals as the API answers them. The lines are
 * written straight into the tables the import fills, so these tests hold whatever reads the file.
 */

type LineSeed = Partial<typeof statementLines.$inferInsert> & { description: string };

async function addImport(app: TestApp, importedAt: Date) {
  const [row] = await app.database.db
    .insert(statementImports)
    .values({ fileName: `statement-${importedAt.toISOString()}.csv`, importedAt })
    .returning();
  return row!.id;
}

async function addLines(app: TestApp, lines: LineSeed[]) {
  return app.database.db
    .insert(statementLines)
    .values(
      lines.map((l) => ({
        fingerprint: randomUUID(),
        bookedOn: '2025-02-01',
        amountCents: 1_000,
        currency: 'USD' as const,
        payer: '',
        ...l,
      })),
    )
    .returning();
}

async function openPage(app: TestApp, cookie: string, query = '') {
  const res = await app.request(`/api/admin/statements/lines${query}`, { cookie });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as ReviewLinesPage;
}

describe('the open lines, paged in the bank file order', () => {
  test('newest import first, each in its file order; lines without an import last by date', async ({
    app,
    adminClient,
  }) => {
    const older = await addImport(app, new Date('2025-03-01T10:00:00Z'));
    const newer = await addImport(app, new Date('2025-03-02T10:00:00Z'));
    // Inserted out of order, with booking dates that disagree with the file order.
    await addLines(app, [
      { description: 'OLD 2', importId: older, position: 2, bookedOn: '2025-02-01' },
      { description: 'NEW 1', importId: newer, position: 1, bookedOn: '2025-02-20' },
      { description: 'LEGACY B', bookedOn: '2025-01-09' },
      { description: 'OLD 0', importId: older, position: 0, bookedOn: '2025-02-05' },
      { description: 'NEW 0', importId: newer, position: 0, bookedOn: '2025-02-28' },
      { description: 'LEGACY A', bookedOn: '2025-01-02' },
      { description: 'OLD 1', importId: older, position: 1, bookedOn: '2025-02-03' },
      { description: 'NEW 2', importId: newer, position: 2, bookedOn: '2025-02-10' },
      // Not open: never listed.
      { description: 'MATCHED', importId: newer, position: 3, status: 'matched' },
      { description: 'DISMISSED', importId: newer, position: 4, status: 'ignored' },
    ]);
    const all = await openPage(app, adminClient.cookie);
    expect(all).toMatchObject({ total: 8, page: 1, pageSize: 50 });
    const order = ['NEW 0', 'NEW 1', 'NEW 2', 'OLD 0', 'OLD 1', 'OLD 2', 'LEGACY A', 'LEGACY B'];
    expect(all.lines.map((l) => l.description)).toEqual(order);

    const first = await openPage(app, adminClient.cookie, '?page=1&pageSize=3');
    const second = await openPage(app, adminClient.cookie, '?page=2&pageSize=3');
    const third = await openPage(app, adminClient.cookie, '?page=3&pageSize=3');
    expect([first, second, third].map((p) => p.total)).toEqual([8, 8, 8]);
    expect([...first.lines, ...second.lines, ...third.lines].map((l) => l.description)).toEqual(
      order,
    );
    expect(third.lines).toHaveLength(2);

    for (const bad of ['?pageSize=201', '?pageSize=0', '?page=0', '?page=x']) {
      const res = await adminClient.request(`/api/admin/statements/lines${bad}`);
      expect(res.status, bad).toBe(400);
    }
    expect((await openPage(app, adminClient.cookie, '?pageSize=200')).pageSize).toBe(200);
    expect((await app.request('/api/admin/statements/lines')).status).toBe(401);
  });
});

describe('dismissing a line', () => {
  test('takes it out of the review with its reason, audited, and restore puts it back', async ({
    app,
    adminClient,
  }) => {
    const [interest] = await addLines(app, [
      { description: 'CREDIT INTEREST', payer: 'BANK', amountCents: 1_234, currency: 'JMD' },
    ]);
    const id = interest!.id;
    const post = (path: string, json?: unknown) =>
      adminClient.request(path, { method: 'POST', ...(json ? { json } : {}) });
    const before = await openPage(app, adminClient.cookie);
    expect(before.lines.map((l) => l.id)).toContain(id);

    const dismissed = await post(`/api/admin/statements/lines/${id}/dismiss`, {
      reason: ' Bank interest ',
    });
    expect(dismissed.status, await dismissed.clone().text()).toBe(200);
    expect(await dismissed.json()).toEqual({ id, status: 'ignored' });
    const after = await openPage(app, adminClient.cookie);
    expect(after.lines.map((l) => l.id)).not.toContain(id);
    expect(after.total).toBe(before.total - 1);

    const list = (await (
      await adminClient.request('/api/admin/statements/dismissed')
    ).json()) as DismissedLinesPage;
    expect(list.lines.find((l) => l.id === id)).toMatchObject({
      reason: 'Bank interest',
      amountCents: 1_234,
      currency: 'JMD',
      payer: 'BANK',
    });

    // Once only; a bad id, an unknown line, no reason, no session: refused with reasons.
    const again = await post(`/api/admin/statements/lines/${id}/dismiss`, { reason: 'Other' });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { message: string }).message).toBe(
      'This line is already dismissed.',
    );
    expect((await post(`/api/admin/statements/lines/nope/dismiss`, { reason: 'x' })).status).toBe(
      400,
    );
    expect(
      (await post(`/api/admin/statements/lines/${MISSING_ID}/dismiss`, { reason: 'x' })).status,
    ).toBe(404);
    const [other] = await addLines(app, [{ description: 'SUPPLIER REFUND' }]);
    const noReason = await post(`/api/admin/statements/lines/${other!.id}/dismiss`, {
      reason: '  ',
    });
    expect(noReason.status).toBe(400);
    expect(((await noReason.json()) as { message: string }).message).toBe(
      'Say why the line is dismissed',
    );
    const anonymous = await app.request(`/api/admin/statements/lines/${other!.id}/dismiss`, {
      method: 'POST',
      json: { reason: 'x' },
    });
    expect(anonymous.status).toBe(401);

    const restored = await post(`/api/admin/statements/lines/${id}/restore`);
    expect(restored.status, await restored.clone().text()).toBe(200);
    expect(await restored.json()).toEqual({ id, status: 'open' });
    expect((await openPage(app, adminClient.cookie)).lines.map((l) => l.id)).toContain(id);
    const twice = await post(`/api/admin/statements/lines/${id}/restore`);
    expect(twice.status).toBe(409);
    expect(((await twice.json()) as { message: string }).message).toBe(
      'This line is open, not dismissed.',
    );

    const log = (await (
      await adminClient.request('/api/admin/activity?limit=20')
    ).json()) as AuditPage;
    const mine = log.items.filter((e) => e.targetId === id);
    expect(mine.map((e) => [e.action, e.label])).toEqual([
      ['statement.restore', 'Restored statement line'],
      ['statement.dismiss', 'Dismissed statement line'],
    ]);
    expect(mine[1]!.details).toMatchObject({ reason: 'Bank interest', amountCents: 1_234 });
    expect(mine[0]!.details).toMatchObject({ dismissedReason: 'Bank interest' });
  });
});

describe('proposals as the review shows them', () => {
  test('certain, needs a look, near references, duplicates and cents', async ({
    app,
    adminClient,
    pledge,
  }) => {
    const jane = await pledge({ name: 'Jane Brown', amount: 100, currency: 'USD' });
    const cy = await pledge({ name: 'Cy Cole', amount: 200, currency: 'USD' });
    const paid = await pledge({ name: 'Paula Paid', amount: 30, currency: 'USD' });
    const confirmed = await adminClient.request(`/api/pledges/${paid.id}/confirm`, {
      method: 'PUT',
      json: {},
    });
    expect(confirmed.status).toBe(200);
    // The public answer carries the reference (tests/support/api.ts types only what it uses).
    const ref = (p: object) => (p as { reference: string }).reference;
    const importId = await addImport(app, new Date('2030-01-01T00:00:00Z'));
    const typo = `${ref(jane).slice(0, -1)}${ref(jane).endsWith('2') ? '3' : '2'}`;
    const seeds: LineSeed[] = [
      { description: `TRF ${ref(jane)}`, payer: 'J BROWN', amountCents: 10_000 },
      { description: `${ref(jane)} AND ${ref(cy)}`, payer: 'FAMILY' },
      { description: `GIFT ${ref(cy)}`, amountCents: 20_000, currency: 'JMD' },
      { description: `TOP UP ${ref(paid)}`, amountCents: 3_000 },
      { description: `PLEDGE ${typo}`, amountCents: 9_999 },
      { description: 'CASH DEPOSIT', amountCents: 1_234, currency: 'JMD' },
    ];
    const rows = await addLines(
      app,
      seeds.map((s, position) => ({ ...s, importId, position })),
    );
    const [dup] = await addLines(app, [
      {
        description: `TRF ${ref(jane)}`,
        payer: 'J BROWN',
        amountCents: 10_000,
        importId,
        position: seeds.length,
        duplicateOf: rows[0]!.id,
      },
    ]);
    const page = await openPage(app, adminClient.cookie);
    const byId = new Map(page.lines.map((l) => [l.id, l]));
    const get = (i: number): ReviewLine => byId.get(rows[i]!.id)!;

    expect(get(0)).toMatchObject({ confidence: 'certain', preTicked: true, amount: 100 });
    expect(get(0).pledge!.id).toBe(jane.id);
    expect(get(0).why).toBe(`Reference ${ref(jane)} is in the description; exact amount`);

    expect(get(1)).toMatchObject({ confidence: 'review', pledge: null, preTicked: false });
    expect(get(1).why).toBe(
      `References ${ref(jane)} and ${ref(cy)} are both in the description; choose one`,
    );
    expect(
      get(1)
        .candidates.map((c) => c.id)
        .sort(),
    ).toEqual([jane.id, cy.id].sort());

    expect(get(2)).toMatchObject({ confidence: 'review', preTicked: false });
    expect(get(2).why).toContain(
      'J$200 paid on a US$200 pledge: J$200 ≈ US$1.31 at the campaign rate',
    );

    expect(get(3)).toMatchObject({ confidence: 'certain', preTicked: false });
    expect(get(3).why).toContain('already paid in full');

    expect(get(4)).toMatchObject({ confidence: 'likely', preTicked: false });
    expect(get(4).pledge!.id).toBe(jane.id);
    expect(get(4).why).toContain(`looks like ${ref(jane)} (one character differs)`);
    expect(get(4).why).toContain('short by US$0.01');

    expect(get(5)).toMatchObject({ confidence: 'unmatched', amount: 12.34, amountCents: 1_234 });

    const d = byId.get(dup!.id)!;
    expect(d).toMatchObject({ confidence: 'review', preTicked: false });
    expect(d.duplicateOf).toMatchObject({ id: rows[0]!.id, bookedOn: '2025-02-01' });
    expect(d.why).toMatch(
      /^Possible duplicate of the line of 2025-02-01 \(US\$100, J BROWN\)\. Reference/,
    );
  });
});

describe('a line assigned by hand, and a large backlog', () => {
  test('any open line confirms the pledge the treasurer chose, then leaves the review', async ({
    app,
    adminClient,
    pledge,
  }) => {
    const chosen = await pledge({ name: 'Odette Nobody', amount: 40, currency: 'USD' });
    const [cash] = await addLines(app, [
      { description: 'CASH DEPOSIT BRANCH 7', amountCents: 4_000, bookedOn: '2025-02-02' },
    ]);
    const before = (await openPage(app, adminClient.cookie, '?pageSize=200')).lines.find(
      (l) => l.id === cash!.id,
    )!;
    expect(before).toMatchObject({ confidence: 'unmatched', pledge: null, preTicked: false });
    const res = await adminClient.request('/api/admin/statements/confirm', {
      method: 'POST',
      json: { lines: [{ lineId: cash!.id, pledgeId: chosen.id }] },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const after = await openPage(app, adminClient.cookie, '?pageSize=200');
    expect(after.lines.map((l) => l.id)).not.toContain(cash!.id);
    const paid = (await (await adminClient.request('/api/pledges')).json()) as {
      id: string;
      isPaid: boolean;
    }[];
    expect(paid.find((p) => p.id === chosen.id)?.isPaid).toBe(true);
  });

  test('a newer statement is on the first page however many older lines are open', async ({
    app,
    adminClient,
  }) => {
    await addLines(
      app,
      Array.from({ length: 2_100 }, (_, i) => ({
        description: `BACKLOG ${i}`,
        bookedOn: '2024-12-01',
      })),
    );
    const latest = await addImport(app, new Date('2031-01-01T00:00:00Z'));
    await addLines(app, [
      { description: 'LATEST 1', importId: latest, position: 1 },
      { description: 'LATEST 0', importId: latest, position: 0 },
    ]);
    const first = await openPage(app, adminClient.cookie);
    expect(first.lines.slice(0, 2).map((l) => l.description)).toEqual(['LATEST 0', 'LATEST 1']);
    expect(first.lines).toHaveLength(50);
    expect(first.total).toBeGreaterThan(2_100);
    // The last page ends with the lines that have no import, by booking date: the backlog of
    // 2024 before the earlier tests' lines of 2025.
    const lastPage = Math.ceil(first.total / 200);
    const last = await openPage(app, adminClient.cookie, `?page=${lastPage}&pageSize=200`);
    const tail = last.lines.slice(-5).map((l) => l.description);
    expect(tail[0]).toMatch(/^BACKLOG \d+$/);
    expect(tail.slice(1, 3)).toEqual(['LEGACY A', 'LEGACY B']);
    expect(tail.slice(3).sort()).toEqual(['CREDIT INTEREST', 'SUPPLIER REFUND']);
  });
});
