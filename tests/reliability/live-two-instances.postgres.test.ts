import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../server/db/client';
import { liveEventSchema } from '@shared/schemas/live';
import { createPledge, pledgeBody } from '../support/api';
import { openEventStream } from '../support/sse';
import { createTestDatabase, startTestApp, type TestApp } from '../support/test-app';

/**
 * The live stream with two instances on one PostgreSQL database: a pledge made through A reaches
 * the pages connected to B, through the change feed (LISTEN/NOTIFY) and B's snapshot reload.
 */
describe('live progress across two instances', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    a = await startTestApp({ database: db.database });
    // B has a pool of its own, as another process would.
    b = await startTestApp({ database: openPostgres(db.url!) });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await b?.database.close();
    await db?.database.close();
    await db?.drop();
  });

  it('a pledge on A reaches a stream on B', async () => {
    const stream = await openEventStream(b.baseUrl, '/api/progress/stream');
    try {
      const before = liveEventSchema.parse(JSON.parse((await stream.next()).data)).progress;
      const body = pledgeBody({ amount: 330 });
      const sent = Date.now();
      await createPledge(a, body);
      const event = await stream.next(
        (e) => JSON.parse(e.data).progress.pledgeCount === before.pledgeCount + 1,
        3000,
      );
      const data = liveEventSchema.parse(JSON.parse(event.data));
      expect(data.progress.currentAmount).toBe(before.currentAmount + 3000);
      expect(data.pledges[0]!.name).toBe(body.name);
      expect(event.at - sent).toBeLessThan(2000);
    } finally {
      stream.close();
    }
  });
});
