import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, test } from '../../../tests/support/fixtures';
import type { TestApp } from '../../../tests/support/test-app';
import { MIGRATIONS_FOLDER } from '../../db/migrate';
import { auditLog, statementImports, statementLines } from '../../db/schema';

/**
 * The audit log refers to a pledge by id and reference and never keeps a donor's name or
 * e-mail, so deleting or erasing a pledge leaves no copy. The test walks every admin action that
 * touches a pledge and scans every row of the log.
 */

async function allAuditText(app: TestApp): Promise<string> {
  const rows = await app.database.db.select().from(auditLog);
  expect(rows.length).toBeGreaterThan(0);
  return JSON.stringify(rows).toLowerCase();
}

async function statementLine(app: TestApp, payer: string, description: string) {
  const [imp] = await app.database.db
    .insert(statementImports)
    .values({ fileName: `privacy-${randomUUID()}.csv`, importedAt: new Date() })
    .returning();
  const [line] = await app.database.db
    .insert(statementLines)
    .values({
      fingerprint: randomUUID(),
      bookedOn: '2025-02-01',
      amountCents: 5_000,
      currency: 'USD',
      payer,
      description,
      importId: imp!.id,
      position: 0,
    })
    .returning();
  return line!;
}

describe('no donor data in the audit log', () => {
  test('after every admin action on pledges, no entry holds a name or e-mail', async ({
    app,
    adminClient,
    pledge,
  }) => {
    const suffix = randomUUID().slice(0, 8);
    const donor = { name: `Audra Privacy ${suffix}`, email: `audra-${suffix}@donors.test` };
    const renamed = { name: `Audra Renamed ${suffix}`, email: `audra-new-${suffix}@donors.test` };
    const other = { name: `Stan Statement ${suffix}`, email: `stan-${suffix}@donors.test` };
    const a = (await pledge({ ...donor, amount: 100, currency: 'USD' })) as unknown as {
      id: string;
      reference: string;
    };
    const b = (await pledge({ ...other, amount: 50, currency: 'USD' })) as unknown as {
      id: string;
      reference: string;
    };
    const call = async (method: string, url: string, json?: unknown) => {
      const res = await adminClient.request(url, { method, ...(json ? { json } : {}) });
      expect(res.status, `${method} ${url}: ${await res.clone().text()}`).toBeLessThan(300);
      return res;
    };
    await call('PUT', `/api/pledges/${a.id}/confirm`, { amountReceived: 80 });
    await call('PATCH', `/api/pledges/${a.id}`, { updates: { amountReceived: 90 } });
    await call('DELETE', `/api/pledges/${a.id}/confirm`);
    await call('PATCH', `/api/pledges/${a.id}`, { updates: { ...renamed, amount: 120 } });
    await call('POST', `/api/admin/pledges/${a.id}/emails/resend`);
    // A bank line that names the donor: confirmed, and another dismissed and restored.
    const paid = await statementLine(app, other.name, `TRF ${b.reference} ${other.name}`);
    await call('POST', '/api/admin/statements/confirm', {
      lines: [{ lineId: paid.id, pledgeId: b.id }],
    });
    const stray = await statementLine(app, other.name.toUpperCase(), `GIFT FROM ${other.email}`);
    await call('POST', `/api/admin/statements/lines/${stray.id}/dismiss`, { reason: 'Not ours' });
    await call('POST', `/api/admin/statements/lines/${stray.id}/restore`);
    await call('GET', '/api/pledges/export');
    await call('DELETE', `/api/pledges/${a.id}`);
    await call('DELETE', `/api/pledges/${b.id}`);

    const actions = (await app.database.db.select().from(auditLog)).map((r) => r.action);
    for (const action of [
      'pledge.confirm',
      'pledge.unconfirm',
      'pledge.edit',
      'pledge.resend_instructions',
      'statement.dismiss',
      'statement.restore',
      'pledges.export',
      'pledge.delete',
    ])
      expect(actions, action).toContain(action);
    const text = await allAuditText(app);
    for (const value of [donor, renamed, other].flatMap((d) => [d.name, d.email]))
      expect(text, value).not.toContain(value.toLowerCase());
    // The trail still names the pledge by reference, and says which personal field changed.
    const [edit] = await app.database.db
      .select()
      .from(auditLog)
      .where(sql`${auditLog.action} = 'pledge.edit' and ${auditLog.pledgeId} = ${a.id}`);
    expect(edit!.pledgeReference).toBe(a.reference);
    expect(edit!.details).toEqual({
      before: { amount: 100 },
      after: { amount: 120 },
      personalDataChanged: ['name', 'email'],
    });
  });

  test('the migration cleans entries written before', async ({ app }) => {
    const id = randomUUID();
    const old = { name: 'Olive Oldentry', email: 'olive@old.test' };
    await app.database.db.insert(auditLog).values([
      {
        action: 'pledge.delete',
        pledgeId: id,
        pledgeReference: 'MRJ-OLD1-1',
        details: { deleted: { id, ...old, amount: 10, currency: 'USD' } },
      },
      {
        action: 'pledge.unconfirm',
        pledgeId: id,
        details: { before: { id, ...old, amount: 10 } },
      },
      {
        action: 'pledge.edit',
        pledgeId: id,
        details: {
          before: { name: 'Olive Before', email: 'before@old.test', amount: 5 },
          after: { ...old, amount: 10 },
        },
      },
      {
        action: 'pledge.confirm',
        pledgeId: id,
        details: { amount: 10, statementLine: { id, payer: old.name, description: old.email } },
      },
      { action: 'statement.dismiss', details: { reason: 'x', payer: old.name, description: 'y' } },
    ]);
    const file = path.join(MIGRATIONS_FOLDER, '0020_privacy.sql');
    for (const statement of readFileSync(file, 'utf8').split('--> statement-breakpoint'))
      await app.database.db.execute(sql.raw(statement));
    const rows = await app.database.db
      .select()
      .from(auditLog)
      .where(sql`${auditLog.pledgeId} = ${id} or ${auditLog.action} = 'statement.dismiss'`);
    const text = JSON.stringify(rows);
    for (const value of [old.name, old.email, 'Olive Before', 'before@old.test'])
      expect(text).not.toContain(value);
    const byAction = new Map(rows.map((r) => [r.action, r.details]));
    expect(byAction.get('pledge.delete')).toEqual({ deleted: { id, amount: 10, currency: 'USD' } });
    expect(byAction.get('pledge.edit')).toEqual({
      before: { amount: 5 },
      after: { amount: 10 },
      personalDataChanged: ['email', 'name'],
    });
    expect(byAction.get('pledge.confirm')).toEqual({ amount: 10, statementLine: { id } });
  });
});
