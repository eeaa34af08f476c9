import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { REFERENCE_KEY_SETTING, type ReferenceKey } from '@shared/payment-reference';
import type { AppConfig } from './config';
import type { Database, Db } from './db/client';
import { runMigrations } from './db/migrate';
import { keepPlannerStatistics } from './db/planner-statistics';
import { generatePassword, hashPassword, verifyPassword } from './modules/admin/password';
import * as adminRepo from './modules/admin/repo';
import * as pledgesRepo from './modules/pledges/repo';
import { applyConfiguredGoal } from './modules/progress/repo';
import { startChangeFeed, type ChangeFeed } from './read-model/change-feed';
import { CampaignSnapshot } from './read-model/snapshot';
import { readModelLoader } from './read-model-loader';
import { createObjectStorage } from './storage/create-storage';
import type { ObjectStorage } from './storage/object-storage';

/**
 * The admin password hash: from ADMIN_PASSWORD, or generated once and stored
 * (docs/decisions/003-sessions-and-passwords.md).
 */
async function resolvePasswordHash(db: Db, config: AppConfig, onGenerated?: (pw: string) => void) {
  if (config.adminPassword) {
    const stored = await adminRepo.getSetting(db, 'admin_password_hash');
    if (stored && (await verifyPassword(config.adminPassword, stored))) return stored;
    // A changed password (or the first start with this one): sessions signed in with the old one
    // end now, so a leaked password stops working everywhere once it is replaced.
    const hash = await hashPassword(config.adminPassword);
    await db.transaction(async (tx) => {
      await adminRepo.setSetting(tx, 'admin_password_hash', hash);
      await adminRepo.deleteAllSessions(tx);
    });
    return hash;
  }
  const stored = await adminRepo.getSetting(db, 'admin_password_hash');
  if (stored) return stored;
  // No stored hash: the first start, or the README's reset (the row deleted). The new hash and
  // the end of every session commit together: a cookie from before the reset
  // would otherwise stay an admin with a password nobody knows any more.
  const generated = generatePassword();
  const hash = await hashPassword(generated);
  const { value, created } = await db.transaction(async (tx) => {
    const result = await adminRepo.getOrCreateSetting(tx, 'admin_password_hash', () => hash);
    if (result.created) await adminRepo.deleteAllSessions(tx);
    return result;
  });
  // Another instance starting at the same moment stored its own first: it prints that one.
  if (created) onGenerated?.(generated);
  return value;
}

/**
 * The payment references' key (docs/decisions/012-payment-reference.md): made
 * once, crypto-random, with the sequence's next number as the first it applies to; inserts wait
 * meanwhile, so every pledge numbered before it keeps its public reference and none after it gets
 * one. Kept in settings, so a backup carries it. Never logged.
 */
export async function resolveReferenceKey(db: Db): Promise<ReferenceKey> {
  const parse = (value: string): ReferenceKey => {
    let json: unknown;
    try {
      json = JSON.parse(value);
    } catch {
      json = undefined;
    }
    const parsed = referenceKeySchema.safeParse(json);
    if (!parsed.success)
      throw new Error(`The setting ${REFERENCE_KEY_SETTING} is damaged: restore it from a backup.`);
    return parsed.data;
  };
  const stored = await adminRepo.getSetting(db, REFERENCE_KEY_SETTING);
  if (stored !== undefined) return parse(stored);
  const { value } = await db.transaction(async (tx) => {
    await pledgesRepo.lockPledgeInserts(tx);
    const from = await pledgesRepo.nextReferenceNumber(tx);
    // 63 bits: a non-negative PostgreSQL bigint.
    const key = (randomBytes(8).readBigUInt64BE() >> 1n).toString();
    return adminRepo.getOrCreateSetting(tx, REFERENCE_KEY_SETTING, () =>
      JSON.stringify({ key, from }),
    );
  });
  return parse(value);
}

const referenceKeySchema = z.object({
  key: z.string().regex(/^\d{1,19}$/),
  from: z.number().int().min(1),
});

/** Start-up before any request: the image store, migrations, the stored secrets. */
export async function prepareData(
  config: AppConfig,
  database: Database,
  onGeneratedPassword?: (password: string) => void,
) {
  const { db } = database;
  // The store first: a bucket that cannot be used stops the start before the database changes.
  const storage = await createObjectStorage(config);
  // PGlite locks DATA_DIR, so leftovers there are this process's own crashed uploads.
  await storage.init(database.kind === 'pglite');
  await runMigrations(database);
  await applyConfiguredGoal(db, config.campaign.goal);
  // Shared folders and buckets (several instances) are swept while running, too.
  const sweeper = setInterval(() => void storage.sweep().catch(() => undefined), 30 * 60_000);
  sweeper.unref();
  const [passwordHash, uploadSecret] = await Promise.all([
    resolvePasswordHash(db, config, onGeneratedPassword),
    adminRepo
      .getOrCreateSetting(db, 'upload_signing_secret', () => randomBytes(32).toString('base64url'))
      .then((s) => s.value),
  ]);
  const referenceKey = await resolveReferenceKey(db);
  return { storage, sweeper, passwordHash, uploadSecret, referenceKey };
}

/**
 * The public state in memory (docs/decisions/004-in-memory-snapshot.md). On PostgreSQL, LISTEN
 * before the first load: a change by another instance in between is then in the load or announced
 * after it.
 */
export async function startReadModel(database: Database, log: FastifyBaseLogger) {
  const snapshot = new CampaignSnapshot(readModelLoader(database.db));
  const changeFeed = startChangeFeed({ database, snapshot, log });
  try {
    await changeFeed.ready;
    await snapshot.reload();
  } catch (err) {
    await changeFeed.close();
    throw err;
  }
  const stopStatistics = keepPlannerStatistics(
    database,
    () => snapshot.countByStatus('all'),
    log,
    undefined,
    (listener) => snapshot.watch(listener),
  );
  return { snapshot, changeFeed, stopStatistics };
}

/** What buildApp started, stopped when the app closes (the database itself is the caller's). */
export function closeWithApp(
  app: FastifyInstance,
  parts: {
    config: AppConfig;
    db: Db;
    sweeper: NodeJS.Timeout;
    storage: ObjectStorage;
    changeFeed: ChangeFeed;
    stopStatistics: () => void;
  },
): void {
  app.addHook('onClose', async () => {
    parts.stopStatistics();
    clearInterval(parts.sweeper);
    parts.storage.close();
    await parts.changeFeed.close();
    await adminRepo.deleteExpiredSessions(parts.db, parts.config.now()).catch(() => undefined);
  });
}
