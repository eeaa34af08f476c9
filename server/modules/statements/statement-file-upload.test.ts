import { readFileSync } from 'node:fs';
import path from 'node:path';
import type {
  StatementImportResult,
  StatementMapping,
  StatementPreview,
} from '@shared/schemas/statement';
import { describe, expect, test } from '../../../tests/support/fixtures';
import * as repo from './repo';

/**
 * The statement calls with the file as the raw request body (…/preview/file, …/import/file):
 * the same answers as the JSON calls with base64, the same fingerprints (a file imported one way
 * adds nothing the other way), and a clear 4xx for every malformed request.
 */
const FIXTURES = path.resolve(import.meta.dirname, '../../../tests/fixtures/statements');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));

const fintech: StatementMapping = {
  date: 'Finished on',
  amount: 'Amount',
  currency: 'Currency',
  description: 'Reference',
  payer: 'Source name',
  direction: 'Direction',
  status: 'Status',
  dateOrder: 'YMD',
};

type Client = {
  request: (p: string, init?: RequestInit & { json?: unknown }) => Promise<Response>;
};
const postFile = (
  c: Client,
  url: string,
  body: Buffer | string,
  type = 'application/octet-stream',
) =>
  c.request(url, {
    method: 'POST',
    body: new Uint8Array(Buffer.from(body)),
    headers: { 'content-type': type },
  });
const message = async (res: Response) => ((await res.json()) as { message: string }).message;
const query = (q: Record<string, string>) => `?${new URLSearchParams(q)}`;

describe('statement files sent as the raw request body', () => {
  test('the preview reads the bytes as the JSON call reads their base64', async ({
    adminClient,
  }) => {
    for (const name of ['us-checking-headerless.csv', 'fintech-direction-status.csv']) {
      const file = fixture(name);
      const raw = await postFile(adminClient, '/api/admin/statements/preview/file', file);
      expect(raw.status, await raw.clone().text()).toBe(200);
      const json = await adminClient.request('/api/admin/statements/preview', {
        method: 'POST',
        json: { content: file.toString('base64') },
      });
      expect(json.status).toBe(200);
      const a = (await raw.json()) as StatementPreview;
      expect(a.format).toBe('csv');
      expect(a).toEqual(await json.json());
    }
    // The first-row switch in the query overrides the detection.
    const forced = await postFile(
      adminClient,
      `/api/admin/statements/preview/file${query({ firstRowIsData: 'false' })}`,
      fixture('us-checking-headerless.csv'),
    );
    expect(((await forced.json()) as StatementPreview).firstRowIsData).toBe(false);
  });

  test('an import by file skips money out and the cancelled transfer; the JSON call of the same bytes adds nothing', async ({
    adminClient,
  }) => {
    const file = fixture('fintech-direction-status.csv');
    const res = await postFile(
      adminClient,
      `/api/admin/statements/import/file${query({
        fileName: 'fintech.csv',
        mappingName: 'Fintech by file',
        mapping: JSON.stringify(fintech),
      })}`,
      file,
      'text/csv',
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const r = (await res.json()) as StatementImportResult;
    expect(r).toMatchObject({
      credits: 3,
      skippedBy: { moneyOut: 2, notCompleted: 1, other: 0 },
      refused: [{ line: 8, reason: 'Currency "EUR" is neither USD nor JMD.' }],
    });
    expect(r.newLines + r.alreadyImported).toBe(3);

    const again = await adminClient.request('/api/admin/statements/import', {
      method: 'POST',
      json: { fileName: 'fintech.csv', content: file.toString('base64'), mapping: fintech },
    });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ credits: 3, newLines: 0, alreadyImported: 3 });

    // The mapping was saved under the name given in the query.
    const p = await postFile(adminClient, '/api/admin/statements/preview/file', file);
    expect(((await p.json()) as StatementPreview).mappingName).toBe('Fintech by file');
  });

  test('malformed requests get a 4xx that says what is wrong, and store nothing', async ({
    app,
    adminClient,
  }) => {
    const url = '/api/admin/statements/import/file';
    const file = fixture('fintech-direction-status.csv');
    const before = await adminClient.request('/api/admin/statements/imports');
    const countBefore = ((await before.json()) as { imports: unknown[] }).imports.length;

    const json = await adminClient.request(url, { method: 'POST', json: { content: 'eA==' } });
    expect(json.status).toBe(415);
    expect(await message(json)).toMatch(/file itself as the request body/);

    const empty = await postFile(adminClient, url, Buffer.alloc(0));
    expect(empty.status).toBe(400);
    expect(await message(empty)).toBe('The file is empty');

    const big = await postFile(adminClient, url, Buffer.alloc(5 * 1024 * 1024 + 1, 0x41));
    expect(big.status).toBe(400);
    expect(await message(big)).toBe('The file is larger than 5 MB. Export a shorter period.');

    const badJson = await postFile(adminClient, `${url}${query({ mapping: '{date:' })}`, file);
    expect(badJson.status).toBe(400);
    expect(await message(badJson)).toMatch(/The mapping is not valid JSON/);

    const incomplete = await postFile(
      adminClient,
      `${url}${query({ mapping: JSON.stringify({ date: 'Finished on', description: 'Reference' }) })}`,
      file,
    );
    expect(incomplete.status).toBe(400);
    expect(await message(incomplete)).toMatch(/Choose the amount column/);

    const noMapping = await postFile(adminClient, url, file);
    expect(noMapping.status).toBe(400);
    expect(await message(noMapping)).toBe('Choose which column holds what before importing.');

    const flag = await postFile(
      adminClient,
      `/api/admin/statements/preview/file${query({ firstRowIsData: 'maybe' })}`,
      file,
    );
    expect(flag.status).toBe(400);
    expect(await message(flag)).toMatch(/true or false/);

    const anonymous = await app.request(url, {
      method: 'POST',
      body: new Uint8Array(file),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(anonymous.status).toBe(401);

    // A form on another site can send a file-like body without JSON: the origin check refuses it.
    const crossSite = await adminClient.request(url, {
      method: 'POST',
      body: new Uint8Array(file),
      headers: { 'content-type': 'text/plain', origin: 'https://evil.example' },
    });
    expect(crossSite.status).toBe(403);

    const after = await adminClient.request('/api/admin/statements/imports');
    expect(((await after.json()) as { imports: unknown[] }).imports).toHaveLength(countBefore);
  });

  test("an import answers with the review's first lines: read by position when the file fills the page", async ({
    app,
    adminClient,
  }) => {
    const csv = (day: number, n: number) =>
      [
        'Date,Description,Amount,Currency',
        ...Array.from(
          { length: n },
          (_, i) => `2026-03-${day},TRANSFER ${day}-${i},${i + 1}.00,USD`,
        ),
      ].join('\n');
    const mapping = JSON.stringify({
      date: 'Date',
      amount: 'Amount',
      currency: 'Currency',
      description: 'Description',
      dateOrder: 'YMD',
    });
    const ids: string[] = [];
    for (const day of [10, 11]) {
      const res = await postFile(
        adminClient,
        `/api/admin/statements/import/file${query({ mapping })}`,
        csv(day, 6),
      );
      expect(res.status).toBe(200);
      ids.push(((await res.json()) as StatementImportResult).importId!);
    }
    const { db } = app.database;
    // The newest file fills a page of 4: its lines by position, as the full query orders them.
    const page = await repo.openLinesPage(db, { page: 1, pageSize: 4 });
    const fast = await repo.firstOpenLinesAfterImport(db, ids[1]!, undefined, 4);
    expect(fast.map((l) => l.description)).toEqual([
      'TRANSFER 11-0',
      'TRANSFER 11-1',
      'TRANSFER 11-2',
      'TRANSFER 11-3',
    ]);
    expect(fast.map((l) => l.id)).toEqual(page.rows.map((l) => l.id));
    // A page larger than the file: the ordinary query, older files after the newest.
    const all = await repo.firstOpenLinesAfterImport(db, ids[1]!, undefined, 10);
    expect(all.map((l) => l.id)).toEqual(
      (await repo.openLinesPage(db, { page: 1, pageSize: 10 })).rows.map((l) => l.id),
    );
    expect(all.slice(6).every((l) => l.importId !== ids[1])).toBe(true);
  });
});
