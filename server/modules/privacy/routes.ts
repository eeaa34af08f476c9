import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SERVER_PAGE_PATHS } from '@shared/pages';
import { statusTokenSchema } from '@shared/schemas/email';
import {
  adminEraseSchema,
  donorDataSchema,
  donorEraseSchema,
  eraseResultSchema,
  retentionStatusSchema,
} from '@shared/schemas/privacy';
import type { AppContext } from '../../context';
import { linkedPledge } from '../email/service';
import { privacyPage } from './page';
import * as repo from './repo';
import { anonymiseIfDue, anonymiseOn, eraseEmail, erasePledges, exportDonorData } from './service';

const linkParams = z.object({ id: z.string() });
/** The retention rule is checked hourly; it acts once, on its day (the clock is config.now()). */
const RETENTION_CHECK_MS = 60 * 60 * 1000;

declare module 'fastify' {
  interface FastifyInstance {
    /** Runs the retention rule now (the hourly job's body; tests call it after moving the clock). */
    runRetention(): Promise<number | undefined>;
  }
}

/** Donors' rights, the admin's erasure, retention and the privacy notice. */
export async function privacyRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, config, email, snapshot } = ctx;

  const linked = (request: FastifyRequest, id: unknown, token: unknown) =>
    linkedPledge(db, email, request, id, token);

  // "Download my data": the pledge, its e-mails, consent and status history, as a JSON file.
  app.get(
    '/api/pledges/:id/my-data',
    {
      config: { access: 'public' },
      attachValidation: true,
      schema: {
        params: linkParams,
        querystring: statusTokenSchema,
        response: { 200: donorDataSchema },
      },
    },
    async (request, reply) => {
      const { pledge, link } = await linked(request, request.params?.id, request.query?.t);
      const data = await exportDonorData(
        db,
        pledge,
        link,
        config.now(),
        config.campaign.privacy?.notice.version ?? null,
      );
      reply
        .header('Cache-Control', 'no-store')
        .header('Content-Disposition', `attachment; filename="my-pledge-${pledge.reference}.json"`);
      return data;
    },
  );

  // "Erase my personal data": the token in the body, and an explicit confirm.
  app.post(
    '/api/pledges/:id/erase',
    {
      config: { access: 'public' },
      attachValidation: true,
      schema: { params: linkParams, body: donorEraseSchema, response: { 200: eraseResultSchema } },
    },
    async (request, reply) => {
      const { pledge } = await linked(request, request.params?.id, request.body?.t);
      const erased = await snapshot.write(() =>
        db.transaction((tx) =>
          erasePledges(tx, [pledge.id], { actor: request, now: config.now(), by: 'donor' }),
        ),
      );
      reply.header('Cache-Control', 'no-store');
      return { erased };
    },
  );

  app.post(
    '/api/admin/privacy/erase',
    {
      config: { access: 'admin' },
      schema: { body: adminEraseSchema, response: { 200: eraseResultSchema } },
    },
    async (request) => {
      const erased = await snapshot.write(() =>
        db.transaction((tx) =>
          eraseEmail(tx, request.body.email, { actor: request, now: config.now() }),
        ),
      );
      return { erased };
    },
  );

  app.get(
    '/api/admin/privacy',
    { config: { access: 'admin' }, schema: { response: { 200: retentionStatusSchema } } },
    async (_request, reply) => {
      const rule = config.campaign.privacy;
      reply.header('Cache-Control', 'no-store');
      return {
        campaignEndsOn: rule?.campaignEndsOn ?? null,
        retentionDays: rule?.retentionDays ?? null,
        anonymiseOn: anonymiseOn(config.campaign)?.toISOString() ?? null,
        pledgesWithPersonalData: (await repo.unerasedPledgeIds(db)).length,
      };
    },
  );

  app.get(
    SERVER_PAGE_PATHS.privacy,
    {
      config: { access: 'public' },
      schema: {
        response: {
          200: {
            description: 'The privacy notice (HTML)',
            content: { 'text/html': { schema: z.string() } },
          },
        },
      },
    },
    async (_request, reply) => {
      reply.type('text/html; charset=utf-8').header('Cache-Control', 'public, max-age=300');
      return privacyPage(config.campaign);
    },
  );

  // The retention job: hourly, acting on its day; the snapshot reloads the erased names.
  const run = () => snapshot.write(() => anonymiseIfDue(db, config.campaign, config.now()));
  fastify.decorate('runRetention', run);
  const timer = setInterval(() => {
    run().catch((err: unknown) => fastify.log.error({ err }, 'retention job failed'));
  }, RETENTION_CHECK_MS);
  timer.unref();
  fastify.addHook('onClose', () => clearInterval(timer));
}
