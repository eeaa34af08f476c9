import { hashPassword, SCRYPT_PARAMS } from '../../server/modules/admin/password';

/** The admin password of every test app and test server. */
export const TEST_ADMIN_PASSWORD = 'test-admin-password-123';

/**
 * scrypt with N = 1024 instead of the app's 16384: ~4 ms of CPU per check instead of ~50-70.
 * A run checks the admin password about 800 times (every app start and every login); at the app's
 * cost that was ~50 CPU-seconds of `npm test` (docs/decisions/011-test-suite-speed.md).
 */
const TEST_SCRYPT_PARAMS = { ...SCRYPT_PARAMS, N: 1024 };

/**
 * The admin password hash the template databases hold, as if an earlier start had stored it. The
 * app reads the parameters from the hash (verifyPassword), so a start with TEST_ADMIN_PASSWORD
 * keeps it and logins check it at its cost; the code is the app's own. A test that needs the
 * app's own cost (the bounds on password work) asks startTestApp for `productionPasswordHash`, and a
 * start with any other password replaces it with a hash at the app's cost, as in production.
 */
export const templateAdminPasswordHash = () =>
  hashPassword(TEST_ADMIN_PASSWORD, TEST_SCRYPT_PARAMS);
