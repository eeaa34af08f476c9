// The peer for `POST /api/pledges`: how the spec's pledge call is written in the simplest way a
// starter project would write it (Fastify with a JSON-schema body, one INSERT … RETURNING per
// request, auto-commit, the answer after the commit), on the same database engine as the app. It
// sends no e-mail and keeps no outbox, no idempotency, no totals, no reference: the app's ratio
// to it says what the money loop costs. Run as
// `node bench/peer-server.mjs <port> pglite <dataDir>` or `node bench/peer-server.mjs <port> postgres <url>`.
import Fastify from 'fastify';

const [portArg, kind, where] = process.argv.slice(2);
const PRICE_CENTS = { USD: 11, JMD: 1672 };
const SCHEMA = `CREATE TABLE IF NOT EXISTS peer_pledges (
  id serial PRIMARY KEY, name text NOT NULL, email text NOT NULL, amount integer NOT NULL,
  currency text NOT NULL, containers integer NOT NULL, is_anonymous boolean NOT NULL,
  is_paid boolean NOT NULL DEFAULT false, created_at timestamptz NOT NULL DEFAULT now())`;

/** `query(text, params)` → rows, on PGlite (one connection) or a node-postgres pool. */
async function openDatabase() {
  if (kind === 'pglite') {
    const { PGlite } = await import('@electric-sql/pglite');
    const db = new PGlite(where);
    await db.waitReady;
    return {
      query: async (text, params) => (await db.query(text, params)).rows,
      close: () => db.close(),
    };
  }
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: where, max: 10 });
  return {
    query: async (text, params) => (await pool.query(text, params)).rows,
    close: () => pool.end(),
  };
}

const db = await openDatabase();
await db.query(SCHEMA);
const app = Fastify({ logger: false });
app.get('/api/health', async () => ({ ok: true }));
app.post(
  '/api/pledges',
  {
    schema: {
      body: {
        type: 'object',
        required: ['name', 'email', 'amount', 'currency'],
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 100 },
          email: { type: 'string', format: 'email', maxLength: 254 },
          amount: { type: 'integer', minimum: 1, maximum: 10000000 },
          currency: { enum: ['USD', 'JMD'] },
          isAnonymous: { type: 'boolean' },
        },
      },
    },
  },
  async (request, reply) => {
    const b = request.body;
    const containers = Math.floor((b.amount * 100) / PRICE_CENTS[b.currency]);
    const [row] = await db.query(
      `INSERT INTO peer_pledges (name, email, amount, currency, containers, is_anonymous)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id, created_at`,
      [b.name, b.email, b.amount, b.currency, containers, b.isAnonymous ?? false],
    );
    reply.code(201);
    return {
      id: String(row.id),
      name: b.isAnonymous ? 'Anonymous' : b.name,
      amount: b.amount,
      currency: b.currency,
      containers,
      isPaid: false,
      createdAt: row.created_at,
    };
  },
);
await app.listen({ port: Number(portArg), host: '127.0.0.1' });
process.on(
  'SIGTERM',
  () =>
    void app
      .close()
      .then(() => db.close())
      .then(() => process.exit(0)),
);
