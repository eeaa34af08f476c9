import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { probeProgress, stats, type Latency } from './latency';
import { postPledges } from './load';
import { freePort, ROOT, sleep, startServer } from './servers';

/**
 * The statement-import scenario (docs/decisions/013-statement-matching.md): the built
 * app on PGlite imports the largest statement it accepts, 20,000 lines padded to about 5 MB (a
 * 5 MB export of short lines, ~80,000, is refused above 20,000), while one client asks
 * GET /api/progress again and again, as the home pages do. Reports the file's size, the wall time
 * of the preview and of the import, and the latency of /api/progress during each (p50/p99/max).
 */
export interface ImportResult {
  bytes: number;
  lines: number;
  previewMs: number;
  importMs: number;
  newLines: number;
  progressDuringImport: Latency;
  progressDuringPreview: Latency;
  /** The same requests for 5 s with no import: what this (shared) machine gives anyway. */
  progressIdle: Latency;
}

const LINES = 20_000;
const TARGET_BYTES = 5 * 1024 * 1024 - 64 * 1024;

/** A CSV statement of `LINES` lines with descriptions padded to reach about 5 MB. */
export function bigStatement(): string {
  const header = 'Date,Description,Payer,Amount,Currency,Balance';
  const row = (i: number, pad: string) =>
    `2025-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')},"INCOMING TRANSFER ${i} ${pad}",PAYER NUMBER ${i},"${(i % 900) + 100}.${String(i % 100).padStart(2, '0')}",${i % 3 ? 'USD' : 'JMD'},"${(1_000_000 + i * 37).toLocaleString('en-US')}.00"`;
  const base = [header, ...Array.from({ length: LINES }, (_, i) => row(i, ''))].join('\n').length;
  const pad = 'X'.repeat(Math.max(0, Math.floor((TARGET_BYTES - base) / LINES)));
  return [header, ...Array.from({ length: LINES }, (_, i) => row(i, pad))].join('\n');
}

export async function benchStatementImport(
  appEnv: (port: number, extra: Record<string, string>) => Record<string, string>,
  resultsDir: string,
  log: (s: string) => void,
): Promise<ImportResult> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'relief-bench-import-'));
  const port = await freePort();
  const server = await startServer({
    name: 'import',
    args: [path.join(ROOT, 'dist', 'server.js')],
    env: appEnv(port, { DATA_DIR: dataDir }),
    port,
    logFile: path.join(resultsDir, 'import.log'),
    readyPath: '/api/health',
  });
  const { baseUrl } = server;
  try {
    await postPledges(baseUrl, 500, 'import-seed');
    const login = await fetch(`${baseUrl}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: appEnv(port, {}).ADMIN_PASSWORD }),
    });
    if (!login.ok) throw new Error(`login: ${login.status}`);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const csv = bigStatement();
    const bytes = Buffer.byteLength(csv);
    const file = Buffer.from(csv);
    // As the admin page sends it: the file as the raw body, the options in the query.
    const post = (url: string, query: Record<string, string>) =>
      fetch(`${baseUrl}${url}?${new URLSearchParams(query)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', cookie },
        body: new Uint8Array(file),
      }).then(async (res) => {
        if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
        return res.json() as Promise<Record<string, unknown>>;
      });
    // Warm: the first requests of a fresh server compile its code paths.
    for (let i = 0; i < 50; i++) await (await fetch(`${baseUrl}/api/progress`)).arrayBuffer();
    log(
      `[import] a statement of ${LINES.toLocaleString('en-US')} lines, ${(bytes / 1024 / 1024).toFixed(2)} MB; GET /api/progress one at a time meanwhile`,
    );

    const idle = await probeProgress(baseUrl, sleep(5000));
    let t0 = performance.now();
    const preview = post('/api/admin/statements/preview/file', {});
    const duringPreview = await probeProgress(baseUrl, preview);
    await preview;
    const previewMs = Math.round(performance.now() - t0);

    const mapping = {
      date: 'Date',
      amount: 'Amount',
      currency: 'Currency',
      description: 'Description',
      payer: 'Payer',
      dateOrder: 'YMD',
    };
    t0 = performance.now();
    const imported = post('/api/admin/statements/import/file', {
      fileName: 'bench.csv',
      mapping: JSON.stringify(mapping),
    });
    const duringImport = await probeProgress(baseUrl, imported);
    const result = await imported;
    const importMs = Math.round(performance.now() - t0);
    const out: ImportResult = {
      bytes,
      lines: LINES,
      previewMs,
      importMs,
      newLines: Number(result.newLines),
      progressDuringPreview: stats(duringPreview),
      progressDuringImport: stats(duringImport),
      progressIdle: stats(idle),
    };
    log(
      `[import] no import: /api/progress p50 ${out.progressIdle.p50Ms} ms, p99 ${out.progressIdle.p99Ms} ms, max ${out.progressIdle.maxMs} ms over ${out.progressIdle.count} requests`,
    );
    log(
      `[import] preview ${previewMs} ms (/api/progress p50 ${out.progressDuringPreview.p50Ms} ms, p99 ${out.progressDuringPreview.p99Ms} ms, max ${out.progressDuringPreview.maxMs} ms over ${out.progressDuringPreview.count} requests)`,
    );
    log(
      `[import] import ${importMs} ms, ${out.newLines} new lines (/api/progress p50 ${out.progressDuringImport.p50Ms} ms, p99 ${out.progressDuringImport.p99Ms} ms, max ${out.progressDuringImport.maxMs} ms over ${out.progressDuringImport.count} requests)`,
    );
    return out;
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
