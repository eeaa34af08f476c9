import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../../server/db/client';
import { probeProgress, stats, type Latency } from './latency';
import { cpuMs, measurePost, type LoadResult } from './load';
import { createBenchDatabase } from './postgres';
import { freePort, ROOT, sleep, startServer, type RunningServer } from './servers';

/**
 * The outbox at spike scale (docs/decisions/014-email-outbox.md, "At spike scale"):
 *
 * 1. `POST /api/pledges` of the app against the peer (bench/peer-server.mjs: the spec's call
 *    written the simplest way, one INSERT per request), one after the other on the same database
 *    engine, in one run: the ratio is what the money loop (reference, idempotency, outbox row,
 *    status link, totals) costs against that.
 * 2. 100,000 queued reminders sent by the built app, once to an SMTP server (smtp-server, in this
 *    process) and once as .eml files, while one client asks GET /api/progress again and again (10
 *    ms apart), as the home pages do: the time to send them all and the latency meanwhile.
 */
export interface PostVsPeer {
  db: 'pglite' | 'postgres';
  app: LoadResult;
  peer: LoadResult;
  ratio: number;
  /** Pledges stored by the app = acknowledged (nothing lost). */
  storedExact: boolean;
}
export interface ReminderSpike {
  mailer: 'smtp' | 'files';
  messages: number;
  sendMs: number;
  perSecond: number;
  /** CPU of the app process while it sent, per message. */
  cpuUsPerMessage: number | undefined;
  progress: Latency;
  progressIdle: Latency;
}

export const SPIKE_REMINDERS = Number(process.env.BENCH_SPIKE_REMINDERS ?? 100_000);

type AppEnv = (port: number, extra: Record<string, string>) => Record<string, string>;

async function startApp(
  name: string,
  env: Record<string, string>,
  appEnv: AppEnv,
  resultsDir: string,
) {
  const port = await freePort();
  return startServer({
    name,
    // BENCH_APP_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the app while it runs.
    args: [
      ...(process.env.BENCH_APP_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      path.join(ROOT, 'dist', 'server.js'),
    ],
    env: appEnv(port, env),
    port,
    logFile: path.join(resultsDir, `${name}.log`),
    readyPath: '/api/health',
  });
}

async function storedPledges(baseUrl: string): Promise<number> {
  const res = await fetch(`${baseUrl}/api/progress`);
  const body = (await res.json()) as { pledgeCount?: number; totalPledges?: number };
  return Number(body.pledgeCount ?? body.totalPledges ?? NaN);
}

/** The peer, on a fresh PGlite folder or PostgreSQL database. */
async function startPeer(db: 'pglite' | 'postgres', where: string, resultsDir: string) {
  const port = await freePort();
  return startServer({
    name: `peer-${db}`,
    args: [path.join(ROOT, 'bench', 'peer-server.mjs'), String(port), db, where],
    env: {},
    port,
    logFile: path.join(resultsDir, `peer-${db}.log`),
    readyPath: '/api/health',
  });
}

/** Part 1: the app's POST rate against the peer's on one database engine, one after the other. */
export async function benchPostVsPeer(
  db: 'pglite' | 'postgres',
  appEnv: AppEnv,
  resultsDir: string,
  log: (s: string) => void,
): Promise<PostVsPeer> {
  const cleanup: (() => Promise<void> | void)[] = [];
  try {
    let appTarget: Record<string, string>;
    let peerWhere: string;
    if (db === 'pglite') {
      const appDir = mkdtempSync(path.join(os.tmpdir(), 'relief-bench-spike-'));
      const peerDir = mkdtempSync(path.join(os.tmpdir(), 'relief-bench-peer-'));
      cleanup.push(() => rmSync(appDir, { recursive: true, force: true }));
      cleanup.push(() => rmSync(peerDir, { recursive: true, force: true }));
      appTarget = { DATA_DIR: appDir };
      peerWhere = peerDir;
    } else {
      const appDb = await createBenchDatabase();
      const peerDb = await createBenchDatabase();
      cleanup.push(appDb.drop, peerDb.drop);
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'relief-bench-spike-'));
      cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
      appTarget = { DATABASE_URL: appDb.url, DATA_DIR: dataDir };
      peerWhere = peerDb.url;
    }
    const peerServer = await startPeer(db, peerWhere, resultsDir);
    let peer: LoadResult;
    try {
      peer = (await measurePost(peerServer.baseUrl, `peer-${db}`, undefined, peerServer.pid)).run;
    } finally {
      await peerServer.stop();
    }
    // Every pledge's instructions e-mail is queued and written (.eml) as in a real spike, where
    // the pledges come from many addresses: the bench's all come from one, which the per-client
    // cap would otherwise stop after 30 e-mails.
    const app = await startApp(
      `spike-${db}`,
      { ...appTarget, MAIL_PER_CLIENT_PER_DAY: '0' },
      appEnv,
      resultsDir,
    );
    let run: LoadResult;
    let storedExact = false;
    try {
      let before = 0;
      const result = await measurePost(
        app.baseUrl,
        `spike-${db}`,
        async () => {
          before = await storedPledges(app.baseUrl);
        },
        app.pid,
      );
      run = result.run;
      await sleep(600);
      storedExact = (await storedPledges(app.baseUrl)) === before + run.ok;
    } finally {
      await app.stop();
    }
    const ratio = Math.round((run.reqPerSec / peer.reqPerSec) * 100) / 100;
    log(
      `[spike ${db}] POST /api/pledges app ${run.reqPerSec}/s p99 ${run.p99Ms} ms vs peer ${peer.reqPerSec}/s p99 ${peer.p99Ms} ms: ${ratio}x; stored = acknowledged: ${storedExact}`,
    );
    return { db, app: run, peer, ratio, storedExact };
  } finally {
    for (const c of cleanup.reverse()) await c();
  }
}

/**
 * Queues SPIKE_REMINDERS first reminders the way the scheduler does (a claimed step in
 * pledge_reminders and an outbox row per pledge, for unpaid pledges eight days old), straight in
 * SQL on a database the app has migrated and is not running on.
 */
async function seedReminders(target: { dataDir: string; databaseUrl?: string }) {
  const database = await openDatabase({ ...target, pgliteFsync: false });
  try {
    await database.db.execute(sql`
      insert into pledges (name, email, amount, currency, containers, created_at)
      select 'Spike Donor ' || g, 'spike-' || g || '@bench.example', 25, 'USD', 227,
        now() - interval '8 days'
      from generate_series(1, ${SPIKE_REMINDERS}::int) g`);
    // Every pledge gets its status link when it is made (the token's hash: any unique text will
    // do here, the worker only needs the row to exist).
    await database.db.execute(sql`
      insert into donor_links (pledge_id, token_hash)
      select id, md5(id::text) from pledges where email like 'spike-%'`);
    await database.db.execute(sql`
      insert into pledge_reminders (pledge_id, sent_steps, last_sent_at)
      select id, 1, now() from pledges where email like 'spike-%'`);
    await database.db.execute(sql`
      insert into outbox (pledge_id, kind, step, created_at)
      select id, 'reminder', 1, now() from pledges where email like 'spike-%'`);
  } finally {
    await database.close();
  }
}

/** An SMTP server that accepts everything and counts the messages (no parsing: that is the bench's CPU). */
async function countingSmtp() {
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // Its reverse DNS lookup of 127.0.0.1 takes ~100 ms here: the bench measures the app, not DNS.
    disableReverseLookup: true,
    onData(stream, _session, cb) {
      stream.on('data', () => {});
      stream.on('end', () => {
        received += 1;
        cb();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    url: `smtp://127.0.0.1:${port}`,
    received: () => received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Part 2: SPIKE_REMINDERS reminders sent by the app, with GET /api/progress measured meanwhile. */
export async function benchReminderSpike(
  mailer: 'smtp' | 'files',
  appEnv: AppEnv,
  resultsDir: string,
  log: (s: string) => void,
): Promise<ReminderSpike> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'relief-bench-reminders-'));
  const smtp = mailer === 'smtp' ? await countingSmtp() : undefined;
  let app: RunningServer | undefined;
  try {
    // First start: initdb and the migrations; no reminders scheduled (the campaign's own
    // scheduler looks every 15 minutes: it would find these pledges already claimed anyway).
    const first = await startApp('reminders-migrate', { DATA_DIR: dataDir }, appEnv, resultsDir);
    await first.stop();
    await seedReminders({ dataDir });
    const outboxDir = path.join(dataDir, 'outbox');
    const sent = () =>
      smtp ? smtp.received() : readdirSafe(outboxDir).filter((f) => f.endsWith('.eml')).length;
    const env: Record<string, string> = { DATA_DIR: dataDir };
    if (smtp)
      Object.assign(env, { SMTP_URL: smtp.url, MAIL_FROM: 'Relief <relief@bench.example>' });
    app = await startApp(`reminders-${mailer}`, env, appEnv, resultsDir);
    // From the moment it answers: the worker starts with the app and may have sent some already.
    const started = performance.now();
    const cpuBefore = cpuMs(app.pid);
    const base = app.baseUrl;
    const allSent = (async () => {
      let last = 0;
      let lastChange = performance.now();
      while (sent() < SPIKE_REMINDERS) {
        await sleep(250);
        const n = sent();
        if (n !== last) {
          last = n;
          lastChange = performance.now();
        } else if (performance.now() - lastChange > 30_000) {
          throw new Error(`reminders (${mailer}): stuck at ${n} of ${SPIKE_REMINDERS} for 30 s`);
        }
      }
    })();
    const probing = probeProgress(base, allSent);
    await allSent;
    const sendMs = Math.round(performance.now() - started);
    const cpuAfter = cpuMs(app.pid);
    const progress = stats(await probing);
    // The same probe for 5 s with nothing to send: what this (shared) machine gives anyway.
    const progressIdle = stats(await probeProgress(base, sleep(5000)));
    const perSecond = Math.round((SPIKE_REMINDERS / sendMs) * 1000);
    const cpuUsPerMessage =
      cpuBefore !== undefined && cpuAfter !== undefined
        ? Math.round(((cpuAfter - cpuBefore) * 1000) / SPIKE_REMINDERS)
        : undefined;
    log(
      `[reminders ${mailer}] ${SPIKE_REMINDERS} sent in ${sendMs} ms (${perSecond}/s, ${cpuUsPerMessage ?? '-'} µs CPU each); /api/progress p50 ${progress.p50Ms} / p99 ${progress.p99Ms} / max ${progress.maxMs} ms over ${progress.count} requests (idle p99 ${progressIdle.p99Ms} ms)`,
    );
    return {
      mailer,
      messages: SPIKE_REMINDERS,
      sendMs,
      perSecond,
      cpuUsPerMessage,
      progress,
      progressIdle,
    };
  } finally {
    await app?.stop();
    await smtp?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
