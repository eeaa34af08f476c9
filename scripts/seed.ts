// `npm run seed -- --pledges 100000 --updates 1000`: demo data for a local database (the one the
// server would use: DATABASE_URL, else PGlite in DATA_DIR), written with multi-row inserts.
// On PGlite it refuses to run while a server holds the DATA_DIR lock (two processes on one PGlite
// folder corrupt it); on PostgreSQL it tells running instances to reload (the change feed).
import { sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { containersFor } from '@shared/containers';
import { setCampaignPrices } from '@shared/prices';
import { CHANGE_CHANNEL } from '../server/read-model/change-feed';
import { ConfigError, loadConfig, type AppConfig } from '../server/config';
import { openDatabase, type Database } from '../server/db/client';
import { runMigrations } from '../server/db/migrate';
import { deliveryUpdates } from '../server/db/schema';
import { insertPledges, type NewPledge } from '../server/modules/pledges/repo';
import { OBJECT_PATH_PREFIX } from '../server/lib/object-path';
import { encodeImage } from '../server/storage/image';
import { createObjectStorage } from '../server/storage/create-storage';
import type { ObjectStorage } from '../server/storage/object-storage';

const USAGE = `Usage: npm run seed -- [--pledges N] [--updates N] [--days N]
  --pledges N   pledges to add (default 1000)
  --updates N   delivery updates to add (default 20)
  --days N      spread them over the last N days (default 60)
Writes to DATABASE_URL when set, else to PGlite in DATA_DIR (default ./data).`;

const PLEDGE_BATCH = 5000;
const UPDATE_BATCH = 500;

const FIRST = [
  'Aaliyah',
  'Andre',
  'Beverley',
  'Carlton',
  'Dahlia',
  'Devon',
  'Empress',
  'Garfield',
  'Hyacinth',
  'Jermaine',
  'Kemar',
  'Latoya',
  'Marcia',
  'Nadine',
  'Omar',
  'Patrice',
  'Ricardo',
  'Shanice',
  'Tajay',
  'Yolanda',
];
const LAST = [
  'Brown',
  'Campbell',
  'Clarke',
  'Francis',
  'Grant',
  'Henry',
  'James',
  'Lewis',
  'McKenzie',
  'Morgan',
  'Reid',
  'Robinson',
  'Smith',
  'Thompson',
  'Walker',
  'Williams',
  'Wright',
  'Young',
];
const PLACES = [
  'Black River',
  'Savanna-la-Mar',
  'Lucea',
  'Montego Bay',
  'Mandeville',
  'Santa Cruz',
  'Falmouth',
  'May Pen',
  'Port Maria',
  'Morant Bay',
];
const SITES = ['community centre', 'primary school', 'parish church', 'health clinic', 'shelter'];

/** A small deterministic PRNG (mulberry32): the same arguments give the same demo data. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function parse() {
  const { values } = parseArgs({
    options: {
      pledges: { type: 'string', default: '1000' },
      updates: { type: 'string', default: '20' },
      days: { type: 'string', default: '60' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const count = (name: string, v: string, max: number) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0 || n > max) {
      console.error(`--${name} must be a whole number from 0 to ${max}\n\n${USAGE}`);
      process.exit(2);
    }
    return n;
  };
  return {
    pledges: count('pledges', values.pledges, 10_000_000),
    updates: count('updates', values.updates, 100_000),
    days: Math.max(1, count('days', values.days, 3650)),
  };
}

/** Donors as they come: some give several times (same e-mail, other case), some anonymously. */
function* pledgeRows(n: number, days: number, random: () => number): Generator<NewPledge> {
  const now = Date.now();
  const span = days * 86_400_000;
  for (let i = 0; i < n; i++) {
    // Increasing times: the newest pledge is the last one written, as in real life.
    const createdAt = new Date(now - span + Math.floor(((i + random()) / n) * span));
    const repeat = random() < 0.15;
    const donor = repeat ? Math.floor(random() * Math.max(1, n / 20)) : i;
    const first = FIRST[donor % FIRST.length]!;
    const last = LAST[Math.floor(donor / FIRST.length) % LAST.length]!;
    const email = `${first}.${last}.${donor}@example.com`;
    const jmd = random() < 0.3;
    // Log-uniform amounts: many small gifts, a few large ones.
    const amount = jmd
      ? Math.round(500 * Math.pow(1000, random()))
      : Math.round(5 * Math.pow(1000, random()));
    const isPaid = random() < 0.4;
    const paidAt = new Date(
      Math.min(now, createdAt.getTime() + Math.floor(random() * 3 * 86_400_000)),
    );
    yield {
      name: `${first} ${last}`,
      email: repeat && random() < 0.5 ? email.toUpperCase() : email,
      amount,
      currency: jmd ? 'JMD' : 'USD',
      containers: containersFor(amount, jmd ? 'JMD' : 'USD'),
      isAnonymous: random() < 0.12,
      isPaid,
      paymentConfirmedAt: isPaid ? paidAt : null,
      createdAt,
    };
  }
}

/** A few real images through the upload pipeline (WebP at every width), shared by the updates. */
async function demoImages(storage: ObjectStorage, count: number) {
  const colors = ['#0f766e', '#b45309', '#1d4ed8', '#9d174d'];
  const images: { id: string; width: number; height: number }[] = [];
  for (let i = 0; i < Math.min(count, colors.length); i++) {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800">
      <rect width="1200" height="800" fill="${colors[i]}"/>
      <rect x="420" y="300" width="360" height="220" rx="16" fill="#fef3c7"/>
      <text x="600" y="700" font-size="64" font-family="sans-serif" fill="#fff" text-anchor="middle">Delivery photo ${i + 1}</text>
    </svg>`;
    const png = await sharp(Buffer.from(svg)).png().toBuffer();
    const encoded = await encodeImage(png);
    const id = randomUUID();
    await storage.save(id, encoded);
    images.push({ id, width: encoded.width, height: encoded.height });
  }
  return images;
}

async function seed(database: Database, config: AppConfig, args: ReturnType<typeof parse>) {
  const random = rng(args.pledges * 31 + args.updates);
  const started = Date.now();

  let batch: NewPledge[] = [];
  let written = 0;
  for (const row of pledgeRows(args.pledges, args.days, random)) {
    batch.push(row);
    if (batch.length === PLEDGE_BATCH) {
      await insertPledges(database.db, batch);
      written += batch.length;
      batch = [];
      process.stdout.write(`\r  pledges: ${written.toLocaleString('en-US')}`);
    }
  }
  if (batch.length) await insertPledges(database.db, batch);
  written += batch.length;
  if (args.pledges) process.stdout.write(`\r  pledges: ${written.toLocaleString('en-US')}\n`);

  if (args.updates) {
    const storage = await createObjectStorage(config);
    await storage.init();
    const images = await demoImages(storage, args.updates).finally(() => storage.close());
    // The app accepts only its own upload URLs; they are absolute (product rule,
    // docs/decisions/010-product-rules.md).
    const origin = config.publicUrl ?? `http://localhost:${config.port}`;
    const today = Date.now();
    for (let start = 0; start < args.updates; start += UPDATE_BATCH) {
      const rows = [];
      for (let i = start; i < Math.min(args.updates, start + UPDATE_BATCH); i++) {
        const image = images[i % images.length]!;
        const day = new Date(
          today - Math.floor(((args.updates - i) / args.updates) * args.days * 86_400_000),
        );
        rows.push({
          imageUrl: `${origin}${OBJECT_PATH_PREFIX}${image.id}`,
          imageWidth: image.width,
          imageHeight: image.height,
          recipient:
            `${SITES[i % SITES.length]}, ${PLACES[Math.floor(random() * PLACES.length)]}`.replace(
              /^./,
              (c) => c.toUpperCase(),
            ),
          containerCount: 50 + Math.floor(random() * 2000),
          deliveryDate: day.toISOString().slice(0, 10),
        });
      }
      await database.db.insert(deliveryUpdates).values(rows);
    }
    console.log(
      `  delivery updates: ${args.updates.toLocaleString('en-US')} (${images.length} demo images)`,
    );
  }

  // Fresh planner statistics, and the trigram indexes' too (PGlite has no autovacuum to do it).
  await database.db.execute(sql`vacuum analyze pledges`);
  await database.db.execute(sql`vacuum analyze delivery_updates`);

  if (database.kind === 'postgres') {
    // Running instances hold the campaign in memory: tell them to reload it.
    await database.pool!.query('select pg_notify($1, $2)', [CHANGE_CHANNEL, 'seed']);
  }
  console.log(`Seeded in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

async function main() {
  const args = parse();
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  // The seeded pledges' containers at the campaign's prices, as the server counts them.
  setCampaignPrices(config.campaign);
  let database: Database;
  try {
    // On PGlite this takes the DATA_DIR lock, and fails while a server holds it.
    database = await openDatabase(config);
  } catch (err) {
    console.error(`Cannot seed: ${(err as Error).message}`);
    process.exit(1);
  }
  console.log(
    `Seeding ${database.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}`}: ${args.pledges} pledges, ${args.updates} delivery updates`,
  );
  try {
    await runMigrations(database);
    await seed(database, config, args);
  } finally {
    await database.close();
  }
}

main().catch((err) => {
  console.error(`Seeding failed: ${(err as Error).stack ?? err}`);
  process.exit(1);
});
