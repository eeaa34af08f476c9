import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { SERVER_PAGE_PATHS } from '@shared/pages';
import type { AppContext } from '../../context';
import { CachedBody, sendCached } from '../../read-model/cached-body';
import { ledgerPage } from './page';
import * as repo from './repo';
import { buildLedger } from './service';

const HTML_TYPE = 'text/html; charset=utf-8';

/**
 * "Where the money goes", server-rendered plain HTML. Rebuilt when the public state
 * changes (every payment and delivery update is a snapshot write), else served from memory.
 */
export async function ledgerRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db, snapshot, config } = ctx;
  let cached: { version: number; body: CachedBody } | undefined;

  async function page(): Promise<CachedBody> {
    const version = snapshot.version;
    if (cached?.version === version) return cached.body;
    const progress = snapshot.progress();
    const ledger = buildLedger(await repo.weeklyReceipts(db), snapshot.deliveryUpdates());
    const html = ledgerPage(ledger, {
      siteName: config.campaign.name,
      pledged: progress.currentAmount,
      received: progress.confirmedAmount,
    });
    const body = new CachedBody(html, HTML_TYPE);
    cached = { version, body };
    return body;
  }

  app.get(
    SERVER_PAGE_PATHS.whereTheMoneyGoes,
    {
      config: { access: 'public' },
      compress: false,
      schema: {
        response: {
          200: {
            description: 'The ledger page: money received by week, deliveries, running totals',
            content: { 'text/html': { schema: z.string() } },
          },
        },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'public, max-age=60');
      return sendCached(request, reply, await page());
    },
  );
}
