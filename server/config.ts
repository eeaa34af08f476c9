import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { campaignSchema, type Campaign } from '@shared/schemas/campaign';

/**
 * Where the project lives: the nearest folder above this module with a package.json, whether it
 * runs from server/**.ts (tests, dev) or from a bundle in dist/ or dist/chunks/.
 */
export const PROJECT_ROOT = (() => {
  const here = fileURLToPath(import.meta.url);
  let dir = path.dirname(here);
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`No package.json above ${here}`);
    dir = parent;
  }
  return dir;
})();

const intFromEnv = (def: number, min = 0, max = 1_000_000) =>
  z.coerce.number().int().min(min).max(max).default(def);

const envSchema = z.object({
  PORT: intFromEnv(5000, 0, 65535),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  /**
   * Strict-Transport-Security max-age in seconds, sent only when PUBLIC_URL is https.
   * 180 days by default; 0 turns it off (e.g. while trying HTTPS out, or when the proxy sends it).
   */
  HSTS_MAX_AGE: intFromEnv(15_552_000, 0, 63_072_000),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  CAMPAIGN_CONFIG: z.string().min(1).optional(),
  /**
   * 0 turns a limit off (benchmarks from one address need that). Pledges allow 300 a minute per
   * address: a carrier-grade NAT puts many Jamaican phones behind one address during a spike; the
   * honeypot field catches naive bots. Login allows 10 failures a minute per address.
   */
  RATE_LIMIT_LOGIN_PER_MINUTE: intFromEnv(10),
  RATE_LIMIT_PLEDGES_PER_MINUTE: intFromEnv(300),
  /**
   * Wrong or unknown donor status links (page and API) a client address may try per minute; the
   * right link does not count, so a donor reloading their page is never refused.
   */
  RATE_LIMIT_STATUS_PER_MINUTE: intFromEnv(20),
  /** Trust X-Forwarded-* only behind a known proxy: "true", a hop count, or addresses. */
  TRUST_PROXY: z.string().optional(),
  SESSION_TTL_HOURS: intFromEnv(12, 1, 24 * 30),
  SESSION_IDLE_MINUTES: intFromEnv(120, 1, 24 * 60 * 30),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PGLITE_FSYNC: z.enum(['on', 'off']).default('on'),
  /**
   * Writes are refused (507) while DATA_DIR has less free space than this: PGlite hangs if it
   * cannot create a 16 MB WAL segment (server/plugins/disk-guard.ts). 0 turns the guard off.
   */
  MIN_FREE_DISK_MB: intFromEnv(64),
  /**
   * Slow clients (reliability test R6): the headers must arrive within HEADERS_TIMEOUT_MS and the
   * whole request within REQUEST_TIMEOUT_MS, long enough for a 5 MB photo over a poor mobile link.
   */
  HEADERS_TIMEOUT_MS: intFromEnv(15_000, 100, 600_000),
  REQUEST_TIMEOUT_MS: intFromEnv(120_000, 100, 3_600_000),
  /**
   * E-mail (docs/decisions/014-email-outbox.md): without SMTP_URL, messages are written as .eml
   * files under DATA_DIR/outbox.
   */
  SMTP_URL: z
    .string()
    .refine(isSmtpUrl, {
      error:
        'must be an smtp:// or smtps:// URL with a host, e.g. smtps://user:pass@smtp.example.org:465 (percent-encode @ : / in the user name or password)',
    })
    .optional(),
  MAIL_FROM: z
    .string()
    .refine(isMailFrom, {
      error:
        'must be an e-mail address, optionally with a name: "Relief Campaign <relief@example.org>"',
    })
    .optional(),
  /** First retry delay of a refused e-mail; it doubles up to an hour, for 24 hours. */
  MAIL_RETRY_BASE_MS: intFromEnv(30_000, 10, 3_600_000),
  /**
   * Instruction e-mails to one address, and caused by one client address (an IPv6 /64), in 24
   * hours: anyone can pledge with anyone's address. Later pledges are stored
   * and show their instructions on screen, without the e-mail. 0: no cap.
   */
  MAIL_PER_ADDRESS_PER_DAY: intFromEnv(3),
  MAIL_PER_CLIENT_PER_DAY: intFromEnv(30),
  /** How often the e-mail worker looks for messages queued by other instances. */
  MAIL_POLL_MS: intFromEnv(5_000, 10, 600_000),
  /**
   * Open live-progress streams one instance serves at most (each holds a socket and ~25 KB); the
   * next page is told 503 and polls every 30 s instead. 0 turns the stream off.
   */
  LIVE_MAX_CLIENTS: intFromEnv(5_000, 0, 100_000),
  /**
   * Live-progress streams one client address (an IPv6 /64) may hold at once on one instance; the
   * next answers 429 and that page polls. A household or office shares an address. 0: no cap.
   */
  LIVE_MAX_PER_CLIENT: intFromEnv(10, 0, 100_000),
  /**
   * Where the photos live: unset for DATA_DIR/uploads, or an S3-compatible bucket
   * (docs/decisions/015-object-storage.md). Credentials come from the AWS_* variables.
   */
  STORAGE_URL: z.string().optional(),
  AWS_ACCESS_KEY_ID: z.string().optional(),
  AWS_SECRET_ACCESS_KEY: z.string().optional(),
  AWS_SESSION_TOKEN: z.string().optional(),
  AWS_REGION: z.string().optional(),
});

/** Photos on local disk (the default), or in an S3-compatible bucket. */
export type StorageConfig =
  | { kind: 'local' }
  | {
      kind: 's3';
      bucket: string;
      /** Absent: AWS itself. A MinIO, Ceph, R2 or s3rver address otherwise. */
      endpoint?: string;
      region: string;
      /** Keys start with this (e.g. "relief/"), so one bucket can hold several sites. */
      prefix: string;
      /** bucket in the path (http://host/bucket/key) rather than in the host name. */
      forcePathStyle: boolean;
      /** Absent: the SDK's default chain (profile, container or instance role). */
      credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
    };

const STORAGE_URL_EXAMPLE = 's3://BUCKET?endpoint=https://minio.example.org:9000&region=us-east-1';
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const S3_OPTIONS = new Set(['endpoint', 'region', 'prefix', 'pathStyle']);

/** STORAGE_URL as a storage config, or the sentence that says what is wrong with it. */
function parseStorageUrl(
  value: string | undefined,
  env: Pick<
    Env,
    'AWS_ACCESS_KEY_ID' | 'AWS_SECRET_ACCESS_KEY' | 'AWS_SESSION_TOKEN' | 'AWS_REGION'
  >,
): StorageConfig | string {
  if (value === undefined) return { kind: 'local' };
  const wrong = (why: string) =>
    `${why}; expected e.g. ${STORAGE_URL_EXAMPLE} (or unset for local disk)`;
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return wrong('is not a URL');
  }
  if (u.protocol !== 's3:') return wrong(`must start with s3:// (got ${u.protocol}//)`);
  if (u.username || u.password)
    return wrong('must not hold credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY');
  const bucket = u.hostname;
  if (!BUCKET.test(bucket) || bucket.includes('..'))
    return wrong(
      `"${bucket}" is not a bucket name (3 to 63 lower-case letters, digits, dots and hyphens)`,
    );
  if (u.pathname && u.pathname !== '/')
    return wrong('must not have a path after the bucket: use ?prefix=');
  for (const key of u.searchParams.keys())
    if (!S3_OPTIONS.has(key))
      return wrong(`has an unknown option "${key}" (known: ${[...S3_OPTIONS].join(', ')})`);
  const endpoint = u.searchParams.get('endpoint') ?? undefined;
  if (endpoint !== undefined) {
    let e: URL | undefined;
    try {
      e = new URL(endpoint);
    } catch {
      e = undefined;
    }
    if (!e || (e.protocol !== 'http:' && e.protocol !== 'https:') || e.pathname.length > 1)
      return wrong(`endpoint "${endpoint}" must be an http(s) address with no path`);
  }
  const pathStyle = u.searchParams.get('pathStyle');
  if (pathStyle !== null && pathStyle !== 'true' && pathStyle !== 'false')
    return wrong('pathStyle must be true or false');
  let prefix = u.searchParams.get('prefix') ?? '';
  if (prefix && !/^[A-Za-z0-9._/-]+$/.test(prefix))
    return wrong('prefix may hold only letters, digits and . _ / -');
  prefix = prefix.replace(/^\/+/, '');
  if (prefix && !prefix.endsWith('/')) prefix += '/';
  const region = u.searchParams.get('region') ?? env.AWS_REGION ?? 'us-east-1';
  if (!/^[a-z0-9-]{2,40}$/.test(region)) return wrong(`region "${region}" is not a region name`);
  const { AWS_ACCESS_KEY_ID: id, AWS_SECRET_ACCESS_KEY: secret } = env;
  if (!id !== !secret)
    return 'AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together: set both, or neither to use the default AWS credential chain';
  return {
    kind: 's3',
    bucket,
    endpoint: endpoint?.replace(/\/+$/, ''),
    region,
    prefix,
    // Custom endpoints (MinIO, s3rver) rarely have a DNS name per bucket.
    forcePathStyle: pathStyle === null ? endpoint !== undefined : pathStyle === 'true',
    credentials:
      id && secret
        ? { accessKeyId: id, secretAccessKey: secret, sessionToken: env.AWS_SESSION_TOKEN }
        : undefined,
  };
}

function isSmtpUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return (u.protocol === 'smtp:' || u.protocol === 'smtps:') && u.hostname !== '';
  } catch {
    return false;
  }
}

const ADDRESS = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;
function isMailFrom(v: string): boolean {
  const named = /^(.*)<([^<>]+)>$/.exec(v.trim());
  return ADDRESS.test(named ? named[2]!.trim() : v.trim());
}

type Env = z.infer<typeof envSchema>;

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  adminPassword?: string;
  publicUrl?: string;
  /** Seconds of Strict-Transport-Security; 0 when not sent (no https PUBLIC_URL, or turned off). */
  hstsMaxAge: number;
  /** GET /metrics with this bearer token (unset: no /metrics on the main port). */
  metricsToken?: string;
  /** A separate listener for /metrics (0: any free port; unset: none). */
  metricsPort?: number;
  metricsHost: string;
  rateLimitLoginPerMinute: number;
  rateLimitPledgesPerMinute: number;
  /** Failed status-link lookups per client key and minute; 0: no limit. */
  rateLimitStatusPerMinute: number;
  trustProxy: boolean | number | string;
  sessionTtlMs: number;
  sessionIdleMs: number;
  logLevel: Env['LOG_LEVEL'];
  pgliteFsync: boolean;
  minFreeDiskBytes: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** Absent: e-mails go to .eml files under DATA_DIR/outbox. */
  smtpUrl?: string;
  mailFrom: string;
  mailRetryBaseMs: number;
  mailPollMs: number;
  /** Instruction e-mails per recipient address, and per client key, in 24 hours; 0: no cap. */
  mailPerAddressPerDay: number;
  mailPerClientPerDay: number;
  /** Live-progress streams served at once by this instance; 0: no stream. */
  liveMaxClients: number;
  /** Live-progress streams per client key; 0: no cap. */
  liveMaxPerClient: number;
  /** Where the photos live (STORAGE_URL). */
  storage: StorageConfig;
  campaign: Campaign;
  /** Clock, replaceable in tests (session expiry). */
  now: () => Date;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

function parseTrustProxy(v: string | undefined): boolean | number | string {
  if (v === undefined || v === '' || v === 'false') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) return Number(v);
  return v;
}

function loadCampaign(file: string): { campaign?: Campaign; problems: string[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    return { problems: [`campaign config ${file}: ${(err as Error).message}`] };
  }
  const parsed = campaignSchema.safeParse(raw);
  if (!parsed.success) {
    return {
      problems: parsed.error.issues.map(
        (i) => `campaign config ${file}: ${i.path.join('.') || '(root)'}: ${i.message}`,
      ),
    };
  }
  return { campaign: parsed.data, problems: [] };
}

/** Reads and validates the environment and the campaign file, listing every problem at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const problems: string[] = [];
  // Empty strings in the environment mean "unset".
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ''),
  );
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    for (const i of parsed.error.issues) problems.push(`${i.path.join('.')}: ${i.message}`);
  }
  const campaignFile = path.resolve(
    PROJECT_ROOT,
    // Read even when another variable is bad, so one run reports the campaign file's problems too.
    (typeof cleaned.CAMPAIGN_CONFIG === 'string' && cleaned.CAMPAIGN_CONFIG) ||
      'config/campaign.json',
  );
  const { campaign, problems: campaignProblems } = loadCampaign(campaignFile);
  problems.push(...campaignProblems);
  if (parsed.success && parsed.data.SMTP_URL && !parsed.data.MAIL_FROM)
    problems.push(
      'MAIL_FROM: required when SMTP_URL is set (the sender address your SMTP server accepts), e.g. "Relief Campaign <relief@example.org>"',
    );
  const storage = parsed.success
    ? parseStorageUrl(parsed.data.STORAGE_URL, parsed.data)
    : ({ kind: 'local' } as const);
  if (typeof storage === 'string')
    problems.push(`${storage.startsWith('AWS_') ? '' : 'STORAGE_URL: '}${storage}`);
  if (!parsed.success || !campaign || problems.length > 0 || typeof storage === 'string')
    throw new ConfigError(problems);
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    adminPassword: e.ADMIN_PASSWORD,
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''),
    hstsMaxAge: e.PUBLIC_URL?.startsWith('https:') ? e.HSTS_MAX_AGE : 0,
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT,
    metricsHost: e.METRICS_HOST,
    rateLimitLoginPerMinute: e.RATE_LIMIT_LOGIN_PER_MINUTE,
    rateLimitPledgesPerMinute: e.RATE_LIMIT_PLEDGES_PER_MINUTE,
    rateLimitStatusPerMinute: e.RATE_LIMIT_STATUS_PER_MINUTE,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    sessionTtlMs: e.SESSION_TTL_HOURS * 3600_000,
    sessionIdleMs: e.SESSION_IDLE_MINUTES * 60_000,
    logLevel: e.LOG_LEVEL,
    pgliteFsync: e.PGLITE_FSYNC === 'on',
    minFreeDiskBytes: e.MIN_FREE_DISK_MB * 1024 * 1024,
    // Node refuses a headers timeout longer than the request timeout.
    headersTimeoutMs: Math.min(e.HEADERS_TIMEOUT_MS, e.REQUEST_TIMEOUT_MS),
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    smtpUrl: e.SMTP_URL,
    // Without SMTP the .eml files need some sender: the campaign's own contact address.
    mailFrom:
      e.MAIL_FROM ??
      `"${campaign.name.replace(/["\\]/g, '')}" <${campaign.payment.confirmationEmail}>`,
    mailRetryBaseMs: e.MAIL_RETRY_BASE_MS,
    mailPollMs: e.MAIL_POLL_MS,
    mailPerAddressPerDay: e.MAIL_PER_ADDRESS_PER_DAY,
    mailPerClientPerDay: e.MAIL_PER_CLIENT_PER_DAY,
    liveMaxClients: e.LIVE_MAX_CLIENTS,
    liveMaxPerClient: e.LIVE_MAX_PER_CLIENT,
    storage,
    campaign,
    now: () => new Date(),
  };
}
