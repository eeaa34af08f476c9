import { randomUUID } from 'node:crypto';
import type { AdminPledge } from '@shared/schemas/pledge';
import type { AuditPage } from '@shared/schemas/audit';
import type {
  StatementImportList,
  StatementImportResult,
  StatementMapping,
  StatementUndoResult,
} from '@shared/schemas/statement';
import { describe, expect, test } from '../../../tests/support/fixtures';
import type { AdminClient } from '../../../tests/support/fixtures';

/**
 * Undoing a whole import (docs/decisions/013-statement-matching.md): its payments are reversed
 * through the payments use case, its lines removed so the file can be imported again, one audit
 * entry; a second undo is refused.
 */
const mapping: StatementMapping = {
  date: 'Date',
  amount: 'Amount',
  currency: 'Currency',
  description: 'Description',
  payer: 'Payer',
  dateOrder: 'YMD',
};

async function post<T>(c: AdminClient, url: string, json: unknown, status = 200): Promise<T> {
  const res = await c.request(url, { method: 'POST', json });
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

async function adminPledge(c: AdminClient, reference: string): Promise<AdminPledge> {
  const res = await c.request(`/api/admin/pledges?search=${reference}`);
  const page = (await res.json()) as { items: AdminPledge[] };
  expect(page.items).toHaveLength(1);
  return page.items[0]!;
}

describe('undo a whole statement import', () => {
  test('reverses its payments, removes its lines, is audited, and the file imports again', async ({
    adminClient,
    pledge,
  }) => {
    const tag = randomUUID().slice(0, 8);
    const full = (await pledge({ name: `Undo Full ${tag}`, amount: 50, currency: 'USD' })) as {
      reference?: string;
    };
    const part = (await pledge({ name: `Undo Part ${tag}`, amount: 20, currency: 'USD' })) as {
      reference?: string;
    };
    const csv = [
      'Date,Amount,Currency,Description,Payer',
      `2026-11-20,50.00,USD,Gift ${full.reference},Full ${tag}`,
      `2026-11-21,10.00,USD,Gift ${part.reference},Part ${tag}`,
      `2026-11-22,0.12,USD,Interest ${tag},`,
    ].join('\n');
    const importFile = () =>
      post<StatementImportResult>(adminClient, '/api/admin/statements/import', {
        fileName: `undo-${tag}.csv`,
        content: Buffer.from(csv).toString('base64'),
        mapping,
      });
    const before = (await (await adminClient.request('/api/progress')).json()) as {
      confirmedAmount: number;
    };

    const imported = await importFile();
    expect(imported.newLines).toBe(3);
    const ticked = imported.lines.filter(
      (l) => `${l.description} ${l.payer}`.includes(tag) && l.preTicked,
    );
    expect(ticked).toHaveLength(2);
    await post(adminClient, '/api/admin/statements/confirm', {
      lines: ticked.map((l) => ({ lineId: l.id, pledgeId: l.pledge!.id })),
    });
    expect((await adminPledge(adminClient, full.reference!)).paymentState).toBe('paid');
    expect((await adminPledge(adminClient, part.reference!)).paymentState).toBe('part-paid');

    const list = (await (
      await adminClient.request('/api/admin/statements/imports')
    ).json()) as StatementImportList;
    const mine = list.imports.find((i) => i.fileName === `undo-${tag}.csv`)!;
    expect(mine).toMatchObject({ credits: 3, newLines: 3, matchedLines: 2, openLines: 1 });
    expect(mine.undoneAt).toBeNull();

    const undone = await post<StatementUndoResult>(
      adminClient,
      `/api/admin/statements/imports/${mine.id}/undo`,
      {},
    );
    expect(undone).toEqual({
      id: mine.id,
      linesRemoved: 3,
      paymentsReversed: 2,
      pledgesChanged: 2,
    });
    for (const ref of [full.reference!, part.reference!]) {
      const p = await adminPledge(adminClient, ref);
      expect(p).toMatchObject({ paymentState: 'pending', isPaid: false });
    }
    const after = (await (await adminClient.request('/api/progress')).json()) as {
      confirmedAmount: number;
    };
    expect(after.confirmedAmount).toBe(before.confirmedAmount);
    const open = (await (
      await adminClient.request('/api/admin/statements/lines?pageSize=200')
    ).json()) as { lines: { description: string; payer: string }[] };
    expect(open.lines.filter((l) => `${l.description} ${l.payer}`.includes(tag))).toEqual([]);

    const activity = (await (await adminClient.request('/api/admin/activity')).json()) as AuditPage;
    const entry = activity.items.find(
      (e) => e.action === 'statement.undo' && e.targetId === mine.id,
    );
    expect(entry?.details).toMatchObject({
      fileName: `undo-${tag}.csv`,
      linesRemoved: 3,
      paymentsReversed: 2,
    });
    expect(
      activity.items.filter((e) => e.action === 'payment.reverse').length,
    ).toBeGreaterThanOrEqual(2);

    // Undone once only; the same bytes import again as new lines and confirm again.
    const again = await adminClient.request(`/api/admin/statements/imports/${mine.id}/undo`, {
      method: 'POST',
      json: {},
    });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { message: string }).message).toBe(
      'This import was already undone.',
    );
    const reimported = await importFile();
    expect(reimported).toMatchObject({ newLines: 3, alreadyImported: 0 });
    const retick = reimported.lines.filter(
      (l) => `${l.description} ${l.payer}`.includes(tag) && l.preTicked,
    );
    await post(adminClient, '/api/admin/statements/confirm', {
      lines: retick.map((l) => ({ lineId: l.id, pledgeId: l.pledge!.id })),
    });
    expect((await adminPledge(adminClient, full.reference!)).paymentState).toBe('paid');
  });

  test('an unknown import is 404, a malformed id 400, and without a session 401', async ({
    app,
    adminClient,
  }) => {
    const missing = await adminClient.request(
      `/api/admin/statements/imports/${randomUUID()}/undo`,
      { method: 'POST', json: {} },
    );
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { message: string }).message).toBe(
      'Statement import not found',
    );
    const bad = await adminClient.request('/api/admin/statements/imports/nope/undo', {
      method: 'POST',
      json: {},
    });
    expect(bad.status).toBe(400);
    const anonymous = await app.request(`/api/admin/statements/imports/${randomUUID()}/undo`, {
      method: 'POST',
      json: {},
    });
    expect(anonymous.status).toBe(401);
  });
});
