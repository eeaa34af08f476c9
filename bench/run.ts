// `npm run bench`: one run, one server at a time, on this machine. See bench/README.md.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// @ts-expect-error plain ESM helper shared with `npm start`
import { buildIfNeeded } from '../scripts/build-if-needed.mjs';
import { homeJsSize, type JsSize } from './lib/assets';
import { getJson, rawRequest, type RawResponse } from './lib/http';
import { runLighthouse, type LighthouseResult } from './lib/lighthouse';
import {
  CONNECTIONS,
  DURATION_S,
  WARMUP_S,
  measureGet,
  measurePost,
  pledgeBody,
  postPledges,
  type LoadResult,
} from './lib/load';
import { createBenchDatabase, PG_ADMIN_URL } from './lib/postgres';
import { freePort, ROOT, sleep, startServer, type Memory } from './lib/servers';

const SEED_PLEDGES = Number(process.env.BENCH_SEED ?? 10_000);
const RESULTS_DIR = path.join(ROOT, 'bench', 'results');
const BR = { 'accept-encoding': 'gzip, deflate, br' };

/** The endpoints measured on every server, in order. */
const READS = [
  { key: 'progress', label: 'GET /api/progress', path: '/api/progress', headers: {} },
  { key: 'pledges', label: 'GET /api/pledges?limit=8', path: '/api/pledges?limit=8', headers: {} },
  { key: 'home', label: 'GET / (HTML)', path: '/', headers: {} },
  { key: 'homeBr', label: 'GET / (HTML, br)', path: '/', headers: BR },
] as const;
type ReadKey = (typeof READS)[number]['key'];

interface PostCheck {
  before: number;
  after: number;
  acknowledged: number;
  exact: boolean;
}

interface ServerResult {
  startMs: number;
  load: Partial<Record<ReadKey | 'post', LoadResult>>;
  postCheck?: PostCheck;
  seedPerSec?: number;
  memory: { afterStart: Memory; idleAfterLoad: Memory; peakMb: number };
}

interface Progress {
  pledgeCount: number;
}

const log = (s: string) => process.stdout.write(`${s}\n`);

function appEnv(port: number, extra: Record<string, string>): Record<string, string> {
  return {
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    ADMIN_PASSWORD: 'bench-admin-password',
    // All the load comes from one address (DECISIONS 11: 0 turns a limit off).
    RATE_LIMIT_PLEDGES_PER_MINUTE: '0',
    RATE_LIMIT_LOGIN_PER_MINUTE: '0',
    ...extra,
  };
}

/** Seeds through the API, measures the reads, the POST run and the memory of one app server. */
async function benchApp(
  name: 'pglite' | 'postgres',
  env: Record<string, string>,
  capture?: (baseUrl: string) => Promise<void>,
  afterReads?: (baseUrl: string) => Promise<void>,
): Promise<ServerResult> {
  const port = await freePort();
  const server = await startServer({
    name,
    args: [path.join(ROOT, 'dist', 'server.js')],
    env: appEnv(port, env),
    port,
    logFile: path.join(RESULTS_DIR, `${name}.log`),
    readyPath: '/api/health',
  });
  const { baseUrl } = server;
  try {
    log(`\n[${name}] started in ${server.startMs} ms (pid ${server.pid})`);
    await sleep(1000);
    const afterStart = server.memory();
    log(`[${name}] idle after start: RSS ${afterStart.rssMb} MB, peak ${afterStart.peakMb} MB`);

    const seed = await postPledges(baseUrl, SEED_PLEDGES, `${name}-seed`);
    const seeded = (await getJson<Progress>(`${baseUrl}/api/progress`)).pledgeCount;
    if (seed.ok !== SEED_PLEDGES || seeded !== SEED_PLEDGES) {
      throw new Error(`seeding failed: ${seed.ok} acknowledged, ${seeded} stored`);
    }
    log(`[${name}] seeded ${seeded} pledges through the API (${seed.reqPerSec}/s)`);
    await capture?.(baseUrl);

    const result: ServerResult = {
      startMs: server.startMs,
      load: {},
      seedPerSec: seed.reqPerSec,
      memory: { afterStart, idleAfterLoad: afterStart, peakMb: 0 },
    };
    for (const r of READS) {
      result.load[r.key] = await measureGet(baseUrl, r.path, r.headers, server.pid);
      log(`[${name}] ${line(r.label, result.load[r.key]!)}`);
    }
    await afterReads?.(baseUrl);

    let before = 0;
    const { run } = await measurePost(
      baseUrl,
      name,
      async () => {
        before = (await getJson<Progress>(`${baseUrl}/api/progress`)).pledgeCount;
      },
      server.pid,
    );
    const after = (await getJson<Progress>(`${baseUrl}/api/progress`)).pledgeCount;
    const acknowledged = run.ok;
    result.load.post = run;
    result.postCheck = { before, after, acknowledged, exact: after === before + acknowledged };
    log(`[${name}] ${line('POST /api/pledges', run)}`);
    log(
      `[${name}] stored ${after} = ${before} before + ${acknowledged} acknowledged? ${result.postCheck.exact ? 'yes' : 'NO'}`,
    );

    // Idle: a few quiet seconds after the load, as the server would sit between spikes.
    await sleep(5000);
    result.memory.idleAfterLoad = server.memory();
    result.memory.peakMb = result.memory.idleAfterLoad.peakMb;
    log(
      `[${name}] idle after load: RSS ${result.memory.idleAfterLoad.rssMb} MB, peak ${result.memory.peakMb} MB`,
    );
    return result;
  } finally {
    await server.stop();
  }
}

/** The bare node:http server answering the bytes captured from the app. */
async function benchBaseline(captured: Record<string, RawResponse>) {
  const file = path.join(RESULTS_DIR, 'baseline-responses.json');
  writeFileSync(
    file,
    JSON.stringify(
      Object.fromEntries(
        Object.entries(captured).map(([k, r]) => [
          k,
          { status: r.status, headers: r.headers, body: r.body.toString('base64') },
        ]),
      ),
    ),
  );
  const port = await freePort();
  const server = await startServer({
    name: 'baseline',
    args: [path.join(ROOT, 'bench', 'baseline-server.mjs'), file, String(port)],
    env: {},
    port,
    logFile: path.join(RESULTS_DIR, 'baseline.log'),
    readyPath: '/api/progress',
  });
  try {
    log(`\n[baseline] bare node:http on port ${port}`);
    const load: Partial<Record<ReadKey | 'post', LoadResult>> = {};
    for (const r of READS) {
      load[r.key] = await measureGet(server.baseUrl, r.path, r.headers, server.pid);
      log(`[baseline] ${line(r.label, load[r.key]!)}`);
    }
    load.post = (await measurePost(server.baseUrl, 'baseline', undefined, server.pid)).run;
    log(`[baseline] ${line('POST /api/pledges', load.post)}`);
    return { load, memory: server.memory() };
  } finally {
    await server.stop();
  }
}

/** Per endpoint, the mean of the baseline runs (req/s and latencies; counts summed). */
function meanOf(
  runs: Partial<Record<ReadKey | 'post', LoadResult>>[],
): Partial<Record<ReadKey | 'post', LoadResult>> {
  const out: Partial<Record<ReadKey | 'post', LoadResult>> = {};
  const keys = [...READS.map((r) => r.key), 'post'] as const;
  for (const key of keys) {
    const rs = runs.map((r) => r[key]).filter((r): r is LoadResult => r !== undefined);
    if (rs.length === 0) continue;
    const avg = (f: (r: LoadResult) => number) =>
      Math.round((rs.reduce((a, r) => a + f(r), 0) / rs.length) * 100) / 100;
    out[key] = {
      reqPerSec: Math.round(avg((r) => r.reqPerSec)),
      p50Ms: avg((r) => r.p50Ms),
      p99Ms: avg((r) => r.p99Ms),
      non2xx: rs.reduce((a, r) => a + r.non2xx, 0),
      errors: rs.reduce((a, r) => a + r.errors, 0),
      ok: rs.reduce((a, r) => a + r.ok, 0),
      total: rs.reduce((a, r) => a + r.total, 0),
      durationS: avg((r) => r.durationS),
      kbPerReq: avg((r) => r.kbPerReq),
      cpuUsPerReq: rs.every((r) => r.cpuUsPerReq !== undefined)
        ? Math.round(avg((r) => r.cpuUsPerReq!))
        : undefined,
    };
  }
  return out;
}

function line(label: string, r: LoadResult): string {
  return `${label.padEnd(26)} ${String(r.reqPerSec).padStart(7)} req/s  p50 ${r.p50Ms} ms  p99 ${r.p99Ms} ms  non-2xx ${r.non2xx}  errors ${r.errors}  cpu ${r.cpuUsPerReq ?? '-'} µs/req`;
}

const ratio = (a: number | undefined, b: number | undefined) =>
  a !== undefined && b ? Math.round((a / b) * 100) / 100 : undefined;

function table(
  baseline: Partial<Record<ReadKey | 'post', LoadResult>>,
  apps: Record<string, ServerResult | undefined>,
): string {
  const rows: string[][] = [
    [
      'server',
      'endpoint',
      'req/s',
      'p50 ms',
      'p99 ms',
      'non-2xx',
      'x baseline',
      's',
      'cpu µs/req',
      'x baseline (cpu)',
    ],
  ];
  const endpoints = [
    ...READS.map((r) => [r.key, r.label] as const),
    ['post', 'POST /api/pledges'] as const,
  ];
  for (const [server, load] of [
    ['baseline', baseline] as const,
    ...Object.entries(apps).map(([k, v]) => [k, v?.load ?? {}] as const),
  ]) {
    for (const [key, label] of endpoints) {
      const r = load[key];
      if (!r) continue;
      rows.push([
        server,
        label,
        String(r.reqPerSec),
        String(r.p50Ms),
        String(r.p99Ms),
        String(r.non2xx + r.errors),
        String(ratio(r.reqPerSec, baseline[key]?.reqPerSec) ?? '-'),
        String(Math.round(r.durationS * 10) / 10),
        String(r.cpuUsPerReq ?? '-'),
        String(ratio(baseline[key]?.cpuUsPerReq, r.cpuUsPerReq) ?? '-'),
      ]);
    }
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ')).join('\n');
}

interface Target {
  name: string;
  value: number | string | undefined;
  target: string;
  pass: boolean;
}

function targets(
  baseline: Partial<Record<ReadKey | 'post', LoadResult>>,
  pglite: ServerResult | undefined,
  postgres: ServerResult | undefined,
  lighthouse: LighthouseResult | undefined,
): Target[] {
  const list: Target[] = [];
  for (const [db, res] of [
    ['pglite', pglite],
    ['postgres', postgres],
  ] as const) {
    for (const key of ['progress', 'pledges'] as const) {
      const x = ratio(res?.load[key]?.reqPerSec, baseline[key]?.reqPerSec);
      list.push({
        name: `${db} ${key} x baseline`,
        value: x,
        target: '>= 0.6',
        pass: (x ?? 0) >= 0.6,
      });
    }
    const post = res?.load.post;
    const min = db === 'postgres' ? 3000 : 1000;
    list.push({
      name: `${db} POST req/s`,
      value: post?.reqPerSec,
      target: `>= ${min}`,
      pass: (post?.reqPerSec ?? 0) >= min,
    });
    list.push({
      name: `${db} POST p99 ms`,
      value: post?.p99Ms,
      target: '< 100',
      pass: post !== undefined && post.p99Ms < 100 && post.non2xx === 0 && post.errors === 0,
    });
    list.push({
      name: `${db} POST nothing lost`,
      value: res?.postCheck
        ? `${res.postCheck.after - res.postCheck.before}/${res.postCheck.acknowledged}`
        : undefined,
      target: 'stored = acknowledged',
      pass: res?.postCheck?.exact ?? false,
    });
    const idle = res
      ? Math.max(res.memory.afterStart.rssMb, res.memory.idleAfterLoad.rssMb)
      : undefined;
    const maxIdle = db === 'postgres' ? 120 : 350;
    list.push({
      name: `${db} idle RSS MB`,
      value: idle,
      target: `<= ${maxIdle}`,
      pass: idle !== undefined && idle <= maxIdle,
    });
  }
  list.push({
    name: 'Lighthouse mobile performance',
    value: lighthouse?.performance,
    target: '>= 95',
    pass: (lighthouse?.performance ?? 0) >= 95,
  });
  list.push({
    name: 'LCP ms',
    value: lighthouse?.lcpMs,
    target: '<= 1500',
    pass: lighthouse !== undefined && lighthouse.lcpMs <= 1500,
  });
  list.push({
    name: 'CLS',
    value: lighthouse?.cls,
    target: '< 0.05',
    pass: lighthouse !== undefined && lighthouse.cls < 0.05,
  });
  return list;
}

async function main() {
  const started = Date.now();
  if (!(buildIfNeeded as (log?: (s: string) => void) => boolean)(log)) {
    throw new Error('npm run build failed');
  }
  mkdirSync(RESULTS_DIR, { recursive: true });
  log(
    `bench: ${CONNECTIONS} connections, ${WARMUP_S} s warm-up + ${DURATION_S} s per endpoint, ${SEED_PLEDGES} pledges seeded through the API; ${os.cpus().length} CPUs, Node ${process.version}`,
  );

  const jsSize: JsSize | null = homeJsSize(path.join(ROOT, 'dist', 'client'));
  const captured: Record<string, RawResponse> = {};
  let lighthouse: LighthouseResult | undefined;
  let lighthouseError: string | undefined;
  const errors: string[] = [];

  // 1. The app on PGlite, in a fresh DATA_DIR: its first start (initdb) is part of the measure.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'relief-bench-'));
  let pglite: ServerResult | undefined;
  try {
    pglite = await benchApp(
      'pglite',
      { DATA_DIR: dataDir },
      async (baseUrl) => {
        for (const r of READS) {
          const res = await rawRequest(baseUrl + r.path, { headers: r.headers });
          captured[`GET ${r.path}${r.key === 'homeBr' ? ' br' : ''}`] = res;
        }
        captured['POST /api/pledges'] = await rawRequest(`${baseUrl}/api/pledges`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: pledgeBody(0, 'capture'),
        });
      },
      async (baseUrl) => {
        if (process.env.BENCH_LIGHTHOUSE === '0') return;
        log('[pglite] Lighthouse (mobile, simulated throttling)…');
        try {
          lighthouse = runLighthouse(`${baseUrl}/`);
          log(
            `[pglite] Lighthouse performance ${lighthouse.performance}, accessibility ${lighthouse.accessibility}, best practices ${lighthouse.bestPractices}, SEO ${lighthouse.seo}; LCP ${lighthouse.lcpMs} ms, FCP ${lighthouse.fcpMs} ms, CLS ${lighthouse.cls}, TBT ${lighthouse.tbtMs} ms`,
          );
        } catch (err) {
          lighthouseError = (err as Error).message;
          log(`[pglite] Lighthouse failed: ${lighthouseError}`);
        }
      },
    );
  } catch (err) {
    errors.push(`pglite: ${(err as Error).message}`);
    log(`[pglite] FAILED: ${(err as Error).message}`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }

  // 2. The baseline, answering the bytes the app answered: measured between the two apps and
  // again after the last, and the ratios use the mean of both runs, so that a slower or faster
  // spell of this (shared) machine weighs on the app and on the baseline alike.
  const baselineRuns: Partial<Record<ReadKey | 'post', LoadResult>>[] = [];
  if (captured['GET /api/progress']) {
    baselineRuns.push((await benchBaseline(captured)).load);
  } else {
    errors.push('baseline: nothing captured from the app');
  }

  // 3. The app on PostgreSQL, in a database of its own, dropped at the end.
  let postgres: ServerResult | undefined;
  let pgDb: Awaited<ReturnType<typeof createBenchDatabase>> | undefined;
  const pgDataDir = mkdtempSync(path.join(os.tmpdir(), 'relief-bench-pg-'));
  try {
    pgDb = await createBenchDatabase();
    postgres = await benchApp('postgres', { DATABASE_URL: pgDb.url, DATA_DIR: pgDataDir });
  } catch (err) {
    errors.push(`postgres: ${(err as Error).message}`);
    log(`[postgres] FAILED (${PG_ADMIN_URL}): ${(err as Error).message}`);
  } finally {
    await pgDb?.drop().catch((err) => log(`could not drop the bench database: ${err}`));
    rmSync(pgDataDir, { recursive: true, force: true });
  }

  if (captured['GET /api/progress']) baselineRuns.push((await benchBaseline(captured)).load);
  const baseline = meanOf(baselineRuns);

  const checks = targets(baseline, pglite, postgres, lighthouse);
  log(`\n${table(baseline, { pglite, postgres })}\n`);
  if (baselineRuns.length > 1) {
    const spread = READS.map(
      (r) => `${r.key} ${baselineRuns.map((b) => b[r.key]?.reqPerSec ?? '-').join('/')}`,
    ).join(', ');
    log(`Baseline runs (req/s, first/second; the table shows their mean): ${spread}`);
  }
  if (jsSize) {
    log(
      `Home JS (${jsSize.files.length} file(s) from dist/client/index.html): ${jsSize.rawKb} KB raw, ${jsSize.gzipKb} KB gzip, ${jsSize.brotliKb} KB brotli`,
    );
  } else {
    log('Home JS: dist/client/index.html not found');
  }
  for (const [name, r] of [
    ['pglite', pglite],
    ['postgres', postgres],
  ] as const) {
    if (r)
      log(
        `RSS ${name}: after start ${r.memory.afterStart.rssMb} MB, idle after load ${r.memory.idleAfterLoad.rssMb} MB, peak ${r.memory.peakMb} MB (start ${r.startMs} ms)`,
      );
  }
  log('\nTargets:');
  for (const t of checks) {
    log(
      `  ${t.pass ? 'ok  ' : 'MISS'} ${t.name.padEnd(32)} ${String(t.value ?? '-').padStart(9)}  (${t.target})`,
    );
  }

  const result = {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version },
    settings: {
      connections: CONNECTIONS,
      durationS: DURATION_S,
      warmupS: WARMUP_S,
      seedPledges: SEED_PLEDGES,
    },
    baseline,
    baselineRuns,
    pglite,
    postgres,
    jsSize,
    lighthouse: lighthouse ?? { error: lighthouseError },
    targets: checks,
    errors,
    elapsedS: Math.round((Date.now() - started) / 1000),
  };
  writeFileSync(path.join(RESULTS_DIR, 'latest.json'), `${JSON.stringify(result, null, 2)}\n`);

  const x = (r: ServerResult | undefined, k: ReadKey) =>
    ratio(r?.load[k]?.reqPerSec, baseline[k]?.reqPerSec) ?? '-';
  const passed = checks.filter((t) => t.pass).length;
  const cx = (r: ServerResult | undefined, k: ReadKey) =>
    ratio(baseline[k]?.cpuUsPerReq, r?.load[k]?.cpuUsPerReq) ?? '-';
  log(
    `\nSUMMARY baseline ${baseline.progress?.reqPerSec ?? '-'} req/s | pglite reads ${x(pglite, 'progress')}x/${x(pglite, 'pledges')}x/${x(pglite, 'home')}x (cpu ${cx(pglite, 'progress')}x/${cx(pglite, 'pledges')}x/${cx(pglite, 'home')}x), POST ${pglite?.load.post?.reqPerSec ?? '-'}/s p99 ${pglite?.load.post?.p99Ms ?? '-'} ms, idle ${pglite?.memory.idleAfterLoad.rssMb ?? '-'} MB | postgres reads ${x(postgres, 'progress')}x/${x(postgres, 'pledges')}x/${x(postgres, 'home')}x (cpu ${cx(postgres, 'progress')}x/${cx(postgres, 'pledges')}x/${cx(postgres, 'home')}x), POST ${postgres?.load.post?.reqPerSec ?? '-'}/s p99 ${postgres?.load.post?.p99Ms ?? '-'} ms, idle ${postgres?.memory.idleAfterLoad.rssMb ?? '-'} MB | Lighthouse ${lighthouse?.performance ?? '-'} LCP ${lighthouse?.lcpMs ?? '-'} ms | JS ${jsSize?.gzipKb ?? '-'} KB gz | targets ${passed}/${checks.length} | bench/results/latest.json`,
  );
  if (errors.length) process.exitCode = 1;
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
