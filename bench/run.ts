// `npm run bench`: one run, one server at a time, on this machine. See bench/README.md.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildIfNeeded } from '../scripts/build-if-needed.mjs';
import { measureHome, type HomeResult } from './lib/home';
import { getJson, rawRequest, type RawResponse } from './lib/http';
import { benchLive, type LiveResult } from './lib/live';
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
import {
  benchPostVsPeer,
  benchReminderSpike,
  type PostVsPeer,
  type ReminderSpike,
} from './lib/spike';
import { benchStatementImport, type ImportResult } from './lib/statement-import';
import { benchReport, REPORT_TARGET_MS, type ReportResult } from './lib/report';
import { freePort, ROOT, sleep, startServer, type Memory } from './lib/servers';

const SEED_PLEDGES = Number(process.env.BENCH_SEED ?? 10_000);
/** Open home pages (SSE clients) in the live-progress scenario; 0 skips it. */
const LIVE_CLIENTS = Number(process.env.BENCH_LIVE_CLIENTS ?? 2000);
/**
 * Pledges per second and for how long: one rate under the stream's two events a second (each
 * pledge goes out at once) and a burst well above it (pledges wait for the next event).
 */
const LIVE_PHASES: [number, number][] = [
  [1, 20],
  [20, 15],
];
/**
 * One scenario alone, `npm run bench -- --only=<name>` or BENCH_ONLY=<name>: `home` (the app on
 * PGlite and the baseline for GET /, Lighthouse and the JavaScript count; no PostgreSQL, no POST
 * run, no live clients), `live` (the live-progress scenario), `import` (a 20,000-line, ~5 MB
 * bank statement imported while GET /api/progress is measured), `report` (the fulfilment
 * report's query time at 100,000 pledges, on PGlite and PostgreSQL; no server, no build) or
 * `spike` (POST /api/pledges against the peer on both databases, and 100,000 reminders sent over
 * SMTP and as files while GET /api/progress is measured).
 */
const ONLY =
  process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length) ??
  process.env.BENCH_ONLY;
const SCENARIOS = ['home', 'live', 'import', 'report', 'spike'];
if (ONLY !== undefined && !SCENARIOS.includes(ONLY)) {
  process.stderr.write(`bench: unknown --only=${ONLY} (known: ${SCENARIOS.join(', ')})\n`);
  process.exit(2);
}
/** The home page's targets (LCP, TBT, CLS, Performance, JavaScript; GET / against the baseline). */
const HOME_TARGETS = {
  lcpMs: 1200,
  tbtMs: 100,
  cls: 0,
  performance: 95,
  jsKb: 120,
  homeRatio: 0.5,
};
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
const HOME_READS: readonly ReadKey[] = ['home', 'homeBr'];
/** The reads this run measures: all of them, or the home's only. */
const MEASURED = READS.filter((r) => ONLY !== 'home' || HOME_READS.includes(r.key));

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

/** A part of the run that --only leaves out. */
class SkipError extends Error {}

function appEnv(port: number, extra: Record<string, string>): Record<string, string> {
  return {
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    ADMIN_PASSWORD: 'bench-admin-password',
    // All the load comes from one address (0 turns a rate limit off).
    RATE_LIMIT_PLEDGES_PER_MINUTE: '0',
    RATE_LIMIT_LOGIN_PER_MINUTE: '0',
    LIVE_MAX_PER_CLIENT: '0',
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
    for (const r of MEASURED) {
      result.load[r.key] = await measureGet(baseUrl, r.path, r.headers, server.pid);
      log(`[${name}] ${line(r.label, result.load[r.key]!)}`);
    }
    await afterReads?.(baseUrl);
    if (ONLY === 'home') {
      result.memory.idleAfterLoad = server.memory();
      result.memory.peakMb = result.memory.idleAfterLoad.peakMb;
      return result;
    }

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

/**
 * The live-progress scenario on the app on PGlite (the default install), in a fresh DATA_DIR of
 * its own, so its memory is not mixed with the load runs' garbage.
 */
async function benchLiveApp(): Promise<LiveResult> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'relief-bench-live-'));
  const port = await freePort();
  const server = await startServer({
    name: 'live',
    args: [path.join(ROOT, 'dist', 'server.js')],
    env: appEnv(port, { DATA_DIR: dataDir }),
    port,
    logFile: path.join(RESULTS_DIR, 'live.log'),
    readyPath: '/api/health',
  });
  try {
    log(`\n[live] ${LIVE_CLIENTS} SSE clients on one instance (PGlite), pledges arriving`);
    // A campaign with some history: the events carry full lists of recent pledges.
    await postPledges(server.baseUrl, 1000, 'live-seed');
    return await benchLive({
      baseUrl: server.baseUrl,
      pid: server.pid,
      clients: LIVE_CLIENTS,
      phases: LIVE_PHASES,
      log,
    });
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
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
    for (const r of MEASURED) {
      load[r.key] = await measureGet(server.baseUrl, r.path, r.headers, server.pid);
      log(`[baseline] ${line(r.label, load[r.key]!)}`);
    }
    if (ONLY === 'home') return { load, memory: server.memory() };
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
  home: HomeResult | undefined,
  live: LiveResult | undefined,
): Target[] {
  const list: Target[] = [];
  if (live) list.push(...liveTargets(live));
  for (const [db, res] of [
    ['pglite', pglite],
    ['postgres', postgres],
  ] as const) {
    if (ONLY === 'home' && db === 'postgres') continue;
    const homeX = ratio(res?.load.home?.reqPerSec, baseline.home?.reqPerSec);
    list.push({
      name: `${db} GET / x baseline`,
      value: homeX,
      target: `>= ${HOME_TARGETS.homeRatio}`,
      pass: (homeX ?? 0) >= HOME_TARGETS.homeRatio,
    });
    if (ONLY === 'home') continue;
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
  const lh = home?.lighthouse;
  list.push({
    name: 'Lighthouse mobile performance',
    value: lh?.performance,
    target: `>= ${HOME_TARGETS.performance}`,
    pass: (lh?.performance ?? 0) >= HOME_TARGETS.performance,
  });
  list.push({
    name: 'LCP ms',
    value: lh?.lcpMs,
    target: `<= ${HOME_TARGETS.lcpMs}`,
    pass: lh !== undefined && lh.lcpMs <= HOME_TARGETS.lcpMs,
  });
  list.push({
    name: 'TBT ms',
    value: lh?.tbtMs,
    target: `<= ${HOME_TARGETS.tbtMs}`,
    pass: lh !== undefined && lh.tbtMs <= HOME_TARGETS.tbtMs,
  });
  list.push({
    name: 'CLS',
    value: lh?.cls,
    target: `= ${HOME_TARGETS.cls}`,
    pass: lh !== undefined && lh.cls === HOME_TARGETS.cls,
  });
  list.push({
    name: 'Home JS before interactive, KB gz',
    value: home?.js?.gzipKb,
    target: `<= ${HOME_TARGETS.jsKb}`,
    pass: home?.js !== undefined && home.js.gzipKb <= HOME_TARGETS.jsKb,
  });
  return list;
}

function liveTargets(live: LiveResult): Target[] {
  const list: Target[] = [
    {
      name: `live clients connected`,
      value: `${live.connected}/${live.clients}`,
      target: 'all, none dropped',
      pass: live.connected === live.clients && live.dropped === 0,
    },
  ];
  for (const ph of live.phases) {
    // Above two pledges a second, pledges wait for the next event by design (at most 500 ms):
    // there the bound is that window plus the fan-out.
    const limit = ph.ratePerSec <= 2 ? 500 : 1000;
    list.push({
      name: `live p99 event delay ${ph.ratePerSec}/s`,
      value: ph.p99Ms,
      target: `<= ${limit} ms, none missing`,
      pass: ph.samples > 0 && ph.p99Ms <= limit && ph.missing === 0,
    });
  }
  list.push({
    name: 'live events per client per s',
    value: Math.max(...live.phases.map((ph) => ph.maxEventsPerSec)),
    target: '<= 2',
    pass: live.phases.every((ph) => ph.maxEventsPerSec <= 2),
  });
  list.push({
    name: 'live RSS increase MB',
    value: live.rssIncreaseMb,
    target: '<= 100',
    pass: live.rssIncreaseMb <= 100,
  });
  return list;
}

async function main() {
  const started = Date.now();
  mkdirSync(RESULTS_DIR, { recursive: true });
  if (ONLY === 'report') return reportOnly(started);
  if (!(await buildIfNeeded(log))) {
    throw new Error('npm run build failed');
  }
  if (ONLY === 'live') return liveOnly(started);
  if (ONLY === 'import') return importOnly(started);
  if (ONLY === 'spike') return spikeOnly(started);
  log(
    `bench: ${CONNECTIONS} connections, ${WARMUP_S} s warm-up + ${DURATION_S} s per endpoint, ${SEED_PLEDGES} pledges seeded through the API; ${os.cpus().length} CPUs, Node ${process.version}, load average ${loadAverage()}`,
  );

  const captured: Record<string, RawResponse> = {};
  let home: HomeResult | undefined;
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
        log(
          `[pglite] the home: Lighthouse mobile (simulated slow 4G, 4x CPU), fresh profile; JavaScript before interactive`,
        );
        home = await measureHome(`${baseUrl}/`, log);
        if (home.lighthouse)
          log(
            `[pglite] Lighthouse (median of ${home.lighthouseRuns.length}): performance ${home.lighthouse.performance}, accessibility ${home.lighthouse.accessibility}, best practices ${home.lighthouse.bestPractices}, SEO ${home.lighthouse.seo}; LCP ${home.lighthouse.lcpMs} ms, FCP ${home.lighthouse.fcpMs} ms, TBT ${home.lighthouse.tbtMs} ms, CLS ${home.lighthouse.cls}`,
          );
        if (home.cpuTbt)
          log(
            `[pglite] TBT re-counted from CPU time (x4, median): ${home.cpuTbt.tbtMs} ms; first-load module evaluation ${home.cpuTbt.moduleEvalMs} ms of it (see bench/lib/cpu-tbt.ts)`,
          );
        if (home.js)
          log(
            `[pglite] home JavaScript before interactive: ${home.js.gzipKb} KB gzip in ${home.js.files.length} file(s) (${home.js.files.map((f) => f.path).join(', ')}); interactive at ${home.js.interactiveMs} ms unthrottled`,
          );
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
    if (ONLY === 'home') throw new SkipError();
    pgDb = await createBenchDatabase();
    postgres = await benchApp('postgres', { DATABASE_URL: pgDb.url, DATA_DIR: pgDataDir });
  } catch (err) {
    if (!(err instanceof SkipError)) {
      errors.push(`postgres: ${(err as Error).message}`);
      log(`[postgres] FAILED (${PG_ADMIN_URL}): ${(err as Error).message}`);
    }
  } finally {
    await pgDb?.drop().catch((err) => log(`could not drop the bench database: ${err}`));
    rmSync(pgDataDir, { recursive: true, force: true });
  }

  if (captured['GET /api/progress'] && ONLY !== 'home')
    baselineRuns.push((await benchBaseline(captured)).load);
  const baseline = meanOf(baselineRuns);

  // 4. Live progress: many open home pages while pledges arrive.
  let live: LiveResult | undefined;
  if (LIVE_CLIENTS > 0 && ONLY !== 'home') {
    try {
      live = await benchLiveApp();
    } catch (err) {
      errors.push(`live: ${(err as Error).message}`);
      log(`[live] FAILED: ${(err as Error).message}`);
    }
  }

  // 5. A 5 MB bank statement imported while the home's progress is asked for.
  let statementImport: ImportResult | undefined;
  if (ONLY !== 'home') {
    try {
      statementImport = await benchStatementImport(appEnv, RESULTS_DIR, log);
    } catch (err) {
      errors.push(`import: ${(err as Error).message}`);
      log(`[import] FAILED: ${(err as Error).message}`);
    }
  }

  // 6. The fulfilment report's queries at 100,000 pledges.
  let report: ReportResult | undefined;
  if (ONLY !== 'home') {
    try {
      report = await benchReport(log);
    } catch (err) {
      errors.push(`report: ${(err as Error).message}`);
      log(`[report] FAILED: ${(err as Error).message}`);
    }
  }

  const checks = [
    ...targets(baseline, pglite, postgres, home, live),
    ...(statementImport ? importTargets(statementImport) : []),
    ...(report ? reportTargets(report) : []),
  ];
  log(`\n${table(baseline, { pglite, postgres })}\n`);
  if (baselineRuns.length > 1) {
    const spread = READS.map(
      (r) => `${r.key} ${baselineRuns.map((b) => b[r.key]?.reqPerSec ?? '-').join('/')}`,
    ).join(', ');
    log(`Baseline runs (req/s, first/second; the table shows their mean): ${spread}`);
  }
  if (home?.js) {
    log(
      `Home JavaScript before interactive (Chromium's network log, gzip): ${home.js.gzipKb} KB in ${home.js.files.length} file(s)`,
    );
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
    only: ONLY ?? null,
    loadAverage: os.loadavg(),
    home,
    live,
    statementImport,
    report,
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
    `\nSUMMARY baseline ${baseline.progress?.reqPerSec ?? '-'} req/s | pglite reads ${x(pglite, 'progress')}x/${x(pglite, 'pledges')}x/${x(pglite, 'home')}x (cpu ${cx(pglite, 'progress')}x/${cx(pglite, 'pledges')}x/${cx(pglite, 'home')}x), POST ${pglite?.load.post?.reqPerSec ?? '-'}/s p99 ${pglite?.load.post?.p99Ms ?? '-'} ms, idle ${pglite?.memory.idleAfterLoad.rssMb ?? '-'} MB | postgres reads ${x(postgres, 'progress')}x/${x(postgres, 'pledges')}x/${x(postgres, 'home')}x (cpu ${cx(postgres, 'progress')}x/${cx(postgres, 'pledges')}x/${cx(postgres, 'home')}x), POST ${postgres?.load.post?.reqPerSec ?? '-'}/s p99 ${postgres?.load.post?.p99Ms ?? '-'} ms, idle ${postgres?.memory.idleAfterLoad.rssMb ?? '-'} MB | live ${live?.connected ?? '-'} clients p99 ${live?.phases.map((ph) => `${ph.p99Ms}`).join('/') ?? '-'} ms +${live?.rssIncreaseMb ?? '-'} MB | Lighthouse ${home?.lighthouse?.performance ?? '-'} LCP ${home?.lighthouse?.lcpMs ?? '-'} ms TBT ${home?.lighthouse?.tbtMs ?? '-'} ms CLS ${home?.lighthouse?.cls ?? '-'} | JS ${home?.js?.gzipKb ?? '-'} KB gz | targets ${passed}/${checks.length} | bench/results/latest.json`,
  );
  log(`load average at the end: ${loadAverage()}`);
  if (errors.length) process.exitCode = 1;
}

/** The fulfilment report at 100,000 pledges, on each database. */
function reportTargets(r: ReportResult): Target[] {
  return (['pglite', 'postgres'] as const).flatMap((db) => {
    const t = r[db];
    return t
      ? [
          {
            name: `report: ${db} p50 ms`,
            value: t.p50Ms,
            target: `<= ${REPORT_TARGET_MS}`,
            pass: t.p50Ms <= REPORT_TARGET_MS,
          },
        ]
      : [];
  });
}

/** `BENCH_ONLY=report`: the fulfilment report's query time alone, with its target. */
async function reportOnly(started: number) {
  log(
    `bench (report only): ${os.cpus().length} CPUs, Node ${process.version}, load ${loadAverage()}`,
  );
  const report = await benchReport(log);
  const checks = reportTargets(report);
  log('\nTargets:');
  for (const t of checks)
    log(
      `  ${t.pass ? 'ok  ' : 'MISS'} ${t.name.padEnd(32)} ${String(t.value ?? '-').padStart(9)}  (${t.target})`,
    );
  writeFileSync(
    path.join(RESULTS_DIR, 'report.json'),
    `${JSON.stringify({ date: new Date().toISOString(), report, targets: checks, elapsedS: Math.round((Date.now() - started) / 1000) }, null, 2)}\n`,
  );
  log(`load average after: ${loadAverage()}`);
}

/** GET /api/progress stays answered while a statement is read and stored. */
function importTargets(r: ImportResult): Target[] {
  return [
    {
      name: 'import: /api/progress p99 ms',
      value: r.progressDuringImport.p99Ms,
      target: '<= 100',
      pass: r.progressDuringImport.p99Ms <= 100,
    },
    {
      name: 'preview: /api/progress p99 ms',
      value: r.progressDuringPreview.p99Ms,
      target: '<= 100',
      pass: r.progressDuringPreview.p99Ms <= 100,
    },
  ];
}

/** `BENCH_ONLY=import`: the statement-import scenario alone, with its targets. */
async function importOnly(started: number) {
  log(
    `bench (import only): ${os.cpus().length} CPUs, Node ${process.version}, load ${loadAverage()}`,
  );
  const statementImport = await benchStatementImport(appEnv, RESULTS_DIR, log);
  const checks = importTargets(statementImport);
  log('\nTargets:');
  for (const t of checks)
    log(
      `  ${t.pass ? 'ok  ' : 'MISS'} ${t.name.padEnd(32)} ${String(t.value ?? '-').padStart(9)}  (${t.target})`,
    );
  writeFileSync(
    path.join(RESULTS_DIR, 'import.json'),
    `${JSON.stringify({ date: new Date().toISOString(), statementImport, targets: checks, elapsedS: Math.round((Date.now() - started) / 1000) }, null, 2)}\n`,
  );
  log(`load average after: ${loadAverage()}`);
}

/** The app's POST rate is at least 3× the peer's, and 100,000 reminders leave reads fast. */
function spikeTargets(posts: PostVsPeer[], reminders: ReminderSpike[]): Target[] {
  return [
    ...posts.flatMap((p) => [
      {
        name: `${p.db} POST x peer`,
        value: p.ratio,
        target: '>= 3',
        pass: p.ratio >= 3,
      },
      {
        name: `${p.db} POST stored = acked`,
        value: p.storedExact ? 'exact' : 'NO',
        target: 'exact',
        pass: p.storedExact,
      },
    ]),
    ...reminders.map((r) => ({
      name: `reminders ${r.mailer}: progress p99 ms`,
      value: r.progress.p99Ms,
      target: '< 50',
      pass: r.progress.p99Ms < 50,
    })),
  ];
}

/** `BENCH_ONLY=spike`: the outbox at spike scale (bench/lib/spike.ts), with its targets. */
async function spikeOnly(started: number) {
  log(
    `bench (spike only): ${os.cpus().length} CPUs, Node ${process.version}, load ${loadAverage()}`,
  );
  const parts = (process.env.BENCH_SPIKE_PARTS ?? 'post,smtp,files').split(',');
  const posts: PostVsPeer[] = [];
  for (const db of ['pglite', 'postgres'] as const)
    if (parts.includes('post')) posts.push(await benchPostVsPeer(db, appEnv, RESULTS_DIR, log));
  const reminders: ReminderSpike[] = [];
  for (const mailer of ['smtp', 'files'] as const)
    if (parts.includes(mailer))
      reminders.push(await benchReminderSpike(mailer, appEnv, RESULTS_DIR, log));
  const checks = spikeTargets(posts, reminders);
  log('\nTargets:');
  for (const t of checks)
    log(
      `  ${t.pass ? 'ok  ' : 'MISS'} ${t.name.padEnd(32)} ${String(t.value ?? '-').padStart(9)}  (${t.target})`,
    );
  writeFileSync(
    path.join(RESULTS_DIR, 'spike.json'),
    `${JSON.stringify({ date: new Date().toISOString(), posts, reminders, targets: checks, elapsedS: Math.round((Date.now() - started) / 1000) }, null, 2)}\n`,
  );
  log(`load average after: ${loadAverage()}`);
}

/** `BENCH_ONLY=live`: the live-progress scenario alone, with its targets. */
async function liveOnly(started: number) {
  log(
    `bench (live only): ${os.cpus().length} CPUs, Node ${process.version}, load ${loadAverage()}`,
  );
  const live = await benchLiveApp();
  const checks = liveTargets(live);
  log('\nTargets:');
  for (const t of checks)
    log(
      `  ${t.pass ? 'ok  ' : 'MISS'} ${t.name.padEnd(32)} ${String(t.value ?? '-').padStart(9)}  (${t.target})`,
    );
  writeFileSync(
    path.join(RESULTS_DIR, 'live.json'),
    `${JSON.stringify({ date: new Date().toISOString(), live, targets: checks, elapsedS: Math.round((Date.now() - started) / 1000) }, null, 2)}\n`,
  );
  log(`load average after: ${loadAverage()}`);
}

/** The machine's 1, 5 and 15 minute load averages: how busy it was apart from the bench. */
function loadAverage(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
