import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AppContext } from '../context';

declare module 'fastify' {
  interface FastifyInstance {
    /** The separate metrics listener's port (METRICS_PORT set). */
    metricsPort?: () => number;
  }
}

/**
 * Prometheus metrics. One registry per app (tests run several apps in one process). Off unless
 * METRICS_TOKEN (then GET /metrics needs `Authorization: Bearer <token>`) or METRICS_PORT (then a
 * separate listener serves it, for a network the public cannot reach) is set: request counts and
 * timings by route would otherwise tell anyone how busy the campaign is and where it hurts.
 */
export async function registerMetrics(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { config, database } = ctx;
  if (!config.metricsToken && config.metricsPort === undefined) return;

  const registry = new Registry();
  // Event-loop lag, heap, GC, open handles: Node's own gauges.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, matched route and status code.',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request to answer, by method and matched route.',
    labelNames: ['method', 'route'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const pledgesCreated = new Counter({
    name: 'pledges_created_total',
    help: 'Pledges created through this instance (a retried request with the same key counts once).',
    registers: [registry],
  });
  new Gauge({
    name: 'email_outbox_waiting',
    help: 'E-mails waiting to be sent (all instances: read from the database at each scrape).',
    registers: [registry],
    async collect() {
      this.set(await ctx.email.countWaiting().catch(() => NaN));
    },
  });
  new Gauge({
    name: 'db_pool_connections',
    help: 'Database connections of this instance by state (PostgreSQL; the embedded database has one).',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const pool = database.pool;
      if (!pool) {
        this.set({ state: 'total' }, 1);
        return;
      }
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });

  new Gauge({
    name: 'live_streams_open',
    help: 'Live-progress streams this instance serves now.',
    registers: [registry],
    collect() {
      this.set(app.liveStream?.size ?? 0);
    },
  });
  new Gauge({
    name: 'live_stream_clients',
    help: 'Client keys (IPv4 addresses, IPv6 /64s) holding at least one live-progress stream here.',
    registers: [registry],
    collect() {
      this.set(app.liveStream?.clientKeys ?? 0);
    },
  });
  new Gauge({
    name: 'live_streams_refused_per_client',
    help: 'Live-progress streams refused (429) because their client key held LIVE_MAX_PER_CLIENT.',
    registers: [registry],
    collect() {
      this.set(app.liveStream?.refusedPerClient ?? 0);
    },
  });

  app.addHook('onResponse', async (request, reply) => {
    // The route's pattern, never the raw URL: ids and junk paths must not create new series.
    const route = request.routeOptions.url ?? 'unmatched';
    if (route === '/metrics') return;
    const labels = { method: request.method, route };
    requests.inc({ ...labels, status: String(reply.statusCode) });
    duration.observe(labels, reply.elapsedTime / 1000);
    if (route === '/api/pledges' && request.method === 'POST' && reply.statusCode === 201)
      pledgesCreated.inc();
  });

  if (config.metricsToken) {
    const expected = Buffer.from(`Bearer ${config.metricsToken}`);
    app.get(
      '/metrics',
      { config: { access: 'public' }, logLevel: 'warn', compress: false },
      async (request, reply) => {
        const given = Buffer.from(request.headers.authorization ?? '');
        if (given.length !== expected.length || !timingSafeEqual(given, expected))
          return reply
            .code(401)
            .header('WWW-Authenticate', 'Bearer')
            .send({ message: 'A valid metrics token is required.' });
        return reply
          .header('Content-Type', registry.contentType)
          .header('Cache-Control', 'no-store')
          .send(await registry.metrics());
      },
    );
  }

  if (config.metricsPort !== undefined) {
    const server = http.createServer((req, res) => {
      if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
        return;
      }
      registry.metrics().then(
        (body) => res.writeHead(200, { 'content-type': registry.contentType }).end(body),
        () => res.writeHead(500).end(),
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.metricsPort, config.metricsHost, () => resolve());
    });
    server.unref();
    app.decorate('metricsPort', () => (server.address() as { port: number }).port);
    app.addHook('onClose', async () => {
      await new Promise<void>((r) => server.close(() => r()));
    });
  }
}
