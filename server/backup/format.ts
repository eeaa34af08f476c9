/**
 * The backup file: gzip-compressed JSON lines, one format for both databases (a backup of the
 * embedded database restores into PostgreSQL and back), streamable, readable with `zcat | head`.
 *
 *   {"kind":"relief-pledge-backup","version":1,"createdAt":…,"database":"pglite","migrations":9,"lastMigration":"0008_…"}
 *   {"table":"pledges","columns":["id",…]}          before the rows of each table
 *   {"row":{…}}                                       one per row, as PostgreSQL's row_to_json
 *   {"file":"<uuid>/800.webp","sha256":"…","data":"<base64>"}   each uploaded image file
 *   {"end":{"rows":{"pledges":10000,…},"files":30}}   last line: a cut-off file is detected
 */
export const BACKUP_KIND = 'relief-pledge-backup';
export const BACKUP_VERSION = 1;

export interface BackupHeader {
  kind: typeof BACKUP_KIND;
  version: number;
  createdAt: string;
  database: 'pglite' | 'postgres';
  /** How many migrations the database had: the restore rebuilds that schema before the rows. */
  migrations: number;
  lastMigration: string | null;
  /**
   * Sequences' positions (e.g. the payment references' counter): restored, so nothing handed out
   * before the backup is handed out again.
   */
  sequences?: Record<string, { value: number; called: boolean }>;
}

export interface BackupTrailer {
  rows: Record<string, number>;
  files: number;
}

export type BackupLine =
  | BackupHeader
  | { table: string; columns: string[] }
  | { row: Record<string, unknown> }
  | { file: string; sha256: string; data: string }
  | { end: BackupTrailer };

/**
 * Tables not copied, with why. Everything else in the `public` schema is, so a table added by a
 * later migration is backed up without touching this module.
 */
export const NOT_BACKED_UP: Record<string, string> = {
  // Derived: the pledge triggers rebuild them as the pledges are restored.
  pledge_totals: 'derived from pledges by triggers',
  donor_emails: 'derived from pledges by triggers',
  // The report's rollups (migration 0025): rebuilt by their triggers as pledges, payments and
  // reminders are restored, in the zone the target database's rollups already use.
  report_pledge_days: 'derived from pledges by triggers',
  report_payments: 'derived from payments, pledges and reminders by triggers',
  report_payment_groups: 'derived from report_payments by triggers',
  // Transient: a restored session would let an old cookie in; limits are per minute.
  admin_sessions: 'sessions end with a restore; the admin signs in again',
  rate_limits: 'counters of the last minute',
  admin_auth_challenges: 'a sign-in half done or a passkey being added: minutes long',
};

export const BACKUP_FILE_SUFFIX = '.relief-backup.jsonl.gz';

/** The User-Agent of `npm run backup` asking a running server, so the audit entry says so. */
export const BACKUP_CLI_AGENT = 'relief-backup-cli';
