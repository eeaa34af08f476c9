import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, trigramIndexes } from '../../tests/support/test-app';

/**
 * The test databases are made as production makes its own: PGlite opened with pg_trgm, so the
 * admin search's trigram indexes (migrations 0004 and 0009) exist and every insert in the tests
 * maintains them, as it does for the charity.
 */
describe('test databases have the search indexes production has', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.database.close();
    await db.drop();
  });

  it('pg_trgm and the trigram indexes on name, e-mail and reference', async () => {
    expect((await trigramIndexes(db.database)).map((r) => r.indexname)).toEqual([
      'pledges_email_trgm_idx',
      'pledges_name_trgm_idx',
      'pledges_reference_trgm_idx',
    ]);
  });
});
