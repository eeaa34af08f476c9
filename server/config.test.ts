import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import campaign from '../config/campaign.json';
import { loadConfig } from './config';
import { configProblems } from '../tests/support/config-problems';
import { acquireDataDirLock } from './db/data-dir-lock';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'relief-config-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 5000,
      host: '0.0.0.0',
      dataDir: path.resolve('./data'),
      rateLimitLoginPerMinute: 10,
      rateLimitPledgesPerMinute: 300,
      trustProxy: false,
      sessionTtlMs: 12 * 3600_000,
      sessionIdleMs: 120 * 60_000,
      logLevel: 'info',
      pgliteFsync: true,
      minFreeDiskBytes: 64 * 1024 * 1024,
      headersTimeoutMs: 15_000,
      requestTimeoutMs: 120_000,
    });
    expect(c.databaseUrl).toBeUndefined();
    expect(c.adminPassword).toBeUndefined();
    expect(c.campaign.supplierBrand).toBe(campaign.supplierBrand);
  });

  it('reads every variable', () => {
    const c = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATA_DIR: tmp,
      DATABASE_URL: 'postgresql://u@db:5432/relief',
      ADMIN_PASSWORD: 'long-enough-password',
      PUBLIC_URL: 'https://relief.example.org/',
      RATE_LIMIT_LOGIN_PER_MINUTE: '0',
      RATE_LIMIT_PLEDGES_PER_MINUTE: '0',
      TRUST_PROXY: '1',
      SESSION_TTL_HOURS: '2',
      SESSION_IDLE_MINUTES: '30',
      LOG_LEVEL: 'warn',
      PGLITE_FSYNC: 'off',
      MIN_FREE_DISK_MB: '16',
      HEADERS_TIMEOUT_MS: '5000',
      REQUEST_TIMEOUT_MS: '60000',
    });
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: tmp,
      databaseUrl: 'postgresql://u@db:5432/relief',
      adminPassword: 'long-enough-password',
      publicUrl: 'https://relief.example.org',
      rateLimitLoginPerMinute: 0,
      rateLimitPledgesPerMinute: 0,
      trustProxy: 1,
      sessionTtlMs: 2 * 3600_000,
      sessionIdleMs: 30 * 60_000,
      logLevel: 'warn',
      pgliteFsync: false,
      minFreeDiskBytes: 16 * 1024 * 1024,
      headersTimeoutMs: 5_000,
      requestTimeoutMs: 60_000,
    });
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', ADMIN_PASSWORD: '', DATABASE_URL: '' })).toMatchObject({
      port: 5000,
      adminPassword: undefined,
      databaseUrl: undefined,
    });
  });

  it('lists every bad value at once', () => {
    const problems = configProblems({
      PORT: '70000',
      DATABASE_URL: 'mysql://x',
      ADMIN_PASSWORD: 'short',
      PUBLIC_URL: 'javascript:alert(1)',
      RATE_LIMIT_LOGIN_PER_MINUTE: '-1',
      SESSION_TTL_HOURS: '0',
      LOG_LEVEL: 'loud',
      PGLITE_FSYNC: 'maybe',
    });
    const keys = problems.map((p) => p.split(':')[0]);
    expect(keys.sort()).toEqual(
      [
        'PORT',
        'DATABASE_URL',
        'ADMIN_PASSWORD',
        'PUBLIC_URL',
        'RATE_LIMIT_LOGIN_PER_MINUTE',
        'SESSION_TTL_HOURS',
        'LOG_LEVEL',
        'PGLITE_FSYNC',
      ].sort(),
    );
    expect(problems.find((p) => p.startsWith('ADMIN_PASSWORD'))).toContain(
      'must be at least 8 characters',
    );
  });

  it('validates the campaign file and names the broken field', () => {
    const file = path.join(tmp, 'campaign.json');
    writeFileSync(
      file,
      JSON.stringify({ ...campaign, payment: { ...campaign.payment, confirmationEmail: 'nope' } }),
    );
    const problems = configProblems({ CAMPAIGN_CONFIG: file, PORT: 'x' });
    expect(problems).toHaveLength(2);
    expect(problems.some((p) => p.startsWith('PORT'))).toBe(true);
    expect(problems.some((p) => p.includes('payment.confirmationEmail'))).toBe(true);

    writeFileSync(file, '{ not json');
    expect(configProblems({ CAMPAIGN_CONFIG: file })[0]).toMatch(
      /campaign config .*campaign\.json/,
    );
    expect(configProblems({ CAMPAIGN_CONFIG: path.join(tmp, 'missing.json') })[0]).toMatch(
      /ENOENT|no such file/,
    );
  });

  it("defaults prices, currencies' display, goal and wording to the original campaign's", () => {
    const file = path.join(tmp, 'campaign-without-prices.json');
    const { currencies, goal, eyebrow, beneficiaries, ...rest } = campaign;
    writeFileSync(file, JSON.stringify(rest));
    const loaded = loadConfig({ CAMPAIGN_CONFIG: file }).campaign;
    expect(loaded.currencies).toEqual({
      USD: { prefix: 'US$', unitPriceCents: 11, amountPlaceholder: '100' },
      JMD: { prefix: 'J$', unitPriceCents: 1672, amountPlaceholder: '15200' },
    });
    expect(loaded.goal).toBe(500_000);
    expect(loaded.eyebrow).toBe('Hurricane relief · Jamaica');
    expect(loaded.beneficiaries).toBe('families rebuilding after the hurricane');
    // The shipped file spells out the same values.
    expect({ currencies, goal, eyebrow, beneficiaries }).toEqual({
      currencies: loaded.currencies,
      goal: loaded.goal,
      eyebrow: loaded.eyebrow,
      beneficiaries: loaded.beneficiaries,
    });
  });

  it.each([
    [
      'a price of 0',
      {
        currencies: {
          ...campaign.currencies,
          USD: { ...campaign.currencies.USD, unitPriceCents: 0 },
        },
      },
      'currencies.USD.unitPriceCents: unitPriceCents must be a whole number of cents from 1 to 1,000,000',
    ],
    [
      'a price in dollars, not cents',
      {
        currencies: {
          ...campaign.currencies,
          JMD: { ...campaign.currencies.JMD, unitPriceCents: 16.72 },
        },
      },
      'currencies.JMD.unitPriceCents: unitPriceCents must be a whole number of cents from 1 to 1,000,000',
    ],
    [
      'a price as text',
      {
        currencies: {
          ...campaign.currencies,
          USD: { ...campaign.currencies.USD, unitPriceCents: '11' },
        },
      },
      'currencies.USD.unitPriceCents: unitPriceCents must be a whole number of cents from 1 to 1,000,000',
    ],
    [
      'an empty prefix',
      { currencies: { ...campaign.currencies, USD: { ...campaign.currencies.USD, prefix: ' ' } } },
      'currencies.USD.prefix: prefix must be 1 to 6 characters, e.g. US$',
    ],
    [
      'a placeholder that is not a whole number',
      {
        currencies: {
          ...campaign.currencies,
          JMD: { ...campaign.currencies.JMD, amountPlaceholder: '15,200' },
        },
      },
      'currencies.JMD.amountPlaceholder: amountPlaceholder must be a whole number, e.g. 100',
    ],
    [
      'a goal of 0',
      { goal: 0 },
      'goal: goal must be a whole number of containers from 1 to 1000000000',
    ],
    ['an empty e-mail wording', { beneficiaries: '' }, 'beneficiaries:'],
  ])('refuses %s at start, naming the field', (_, change, message) => {
    const file = path.join(tmp, 'campaign-bad-price.json');
    writeFileSync(file, JSON.stringify({ ...campaign, ...change }));
    const problems = configProblems({ CAMPAIGN_CONFIG: file });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(`campaign config ${file}: ${message}`);
  });
});

describe('STORAGE_URL', () => {
  it('is local disk when unset', () => {
    expect(loadConfig({}).storage).toEqual({ kind: 'local' });
  });

  it('reads an S3-compatible bucket, with path-style addressing for a custom endpoint', () => {
    const c = loadConfig({
      STORAGE_URL: 's3://relief-photos?endpoint=http://127.0.0.1:9000/&region=eu-west-1&prefix=jm',
      AWS_ACCESS_KEY_ID: 'id',
      AWS_SECRET_ACCESS_KEY: 'secret',
    });
    expect(c.storage).toEqual({
      kind: 's3',
      bucket: 'relief-photos',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-1',
      prefix: 'jm/',
      forcePathStyle: true,
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret', sessionToken: undefined },
    });
  });

  it('uses AWS itself, AWS_REGION and the default credential chain when they are not given', () => {
    expect(
      loadConfig({ STORAGE_URL: 's3://relief-photos', AWS_REGION: 'us-west-2' }).storage,
    ).toEqual({
      kind: 's3',
      bucket: 'relief-photos',
      endpoint: undefined,
      region: 'us-west-2',
      prefix: '',
      forcePathStyle: false,
      credentials: undefined,
    });
    expect(
      loadConfig({ STORAGE_URL: 's3://relief-photos?endpoint=https://r2.example&pathStyle=false' })
        .storage,
    ).toMatchObject({ region: 'us-east-1', forcePathStyle: false });
  });

  it.each([
    ['file:///srv/photos', /must start with s3:\/\/ \(got file:\/\/\)/],
    ['not a url', /is not a URL/],
    ['s3://UPPER_case', /"UPPER_case" is not a bucket name/],
    ['s3://ab', /"ab" is not a bucket name/],
    ['s3://relief/photos', /must not have a path after the bucket: use \?prefix=/],
    ['s3://key:secret@relief', /must not hold credentials/],
    ['s3://relief?endpoint=ftp://x', /endpoint "ftp:\/\/x" must be an http\(s\) address/],
    ['s3://relief?endpoint=http://x/bucket', /must be an http\(s\) address with no path/],
    ['s3://relief?bucket=x', /unknown option "bucket"/],
    ['s3://relief?pathStyle=yes', /pathStyle must be true or false/],
    ['s3://relief?prefix=a%20b', /prefix may hold only/],
  ])('refuses %s with a sentence and an example', (value, why) => {
    const problems = configProblems({ STORAGE_URL: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^STORAGE_URL: /);
    expect(problems[0]).toMatch(why);
    expect(problems[0]).toContain('expected e.g. s3://BUCKET?endpoint=');
  });

  it('wants both AWS keys or neither', () => {
    expect(configProblems({ STORAGE_URL: 's3://relief', AWS_ACCESS_KEY_ID: 'id' })).toEqual([
      'AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together: set both, or neither to use the default AWS credential chain',
    ]);
  });
});

describe('DATA_DIR lock', () => {
  it('refuses a second holder while the first lives, and frees on release', () => {
    const dir = mkdtempSync(path.join(tmp, 'lock-'));
    // A lock of another live process (our parent) blocks.
    writeFileSync(path.join(dir, 'server.lock'), String(process.ppid));
    expect(() => acquireDataDirLock(dir)).toThrow(
      /Another server process \(pid \d+\) is already using DATA_DIR/,
    );
  });

  it('takes over a lock left by a dead process', () => {
    const dir = mkdtempSync(path.join(tmp, 'lock-'));
    writeFileSync(path.join(dir, 'server.lock'), '2147483646');
    const release = acquireDataDirLock(dir);
    release();
    const again = acquireDataDirLock(dir);
    again();
  });
});
