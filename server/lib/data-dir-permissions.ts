import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * DATA_DIR holds the embedded database (donors' names and e-mails, the status-link key, the admin
 * password's hash), the outbox's .eml files and the photos: only the server's own user may read or
 * write any of it (PGlite would otherwise write its files 0666 and the folders 0755).
 *
 * Call before anything writes there. New files are private from then on (umask 077); DATA_DIR is
 * created 0700; whatever an earlier version left behind is set to 0600 (files) and 0700 (folders).
 * Returns how many modes were changed, so the start can say so once.
 */
export function securePermissions(dataDir: string): number {
  process.umask(0o077);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  let fixed = 0;
  const visit = (p: string) => {
    const st = lstatSync(p);
    if (st.isSymbolicLink()) return; // not ours to change (and chmod would follow it)
    // Only what others can reach is changed (a file its owner made read-only stays so).
    if ((st.mode & 0o077) !== 0) {
      chmodSync(p, st.isDirectory() ? 0o700 : 0o600);
      fixed++;
    }
    if (st.isDirectory()) for (const name of readdirSync(p)) visit(path.join(p, name));
  };
  visit(dataDir);
  return fixed;
}
