import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NEWS_CONSENT_VERSION, NEWS_UNSUBSCRIBE_PATH } from '@shared/news';
import { donorPledgeViewSchema } from '@shared/schemas/email';
import {
  newsChoiceSchema,
  subscriberCountSchema,
  UNSUBSCRIBE_LINK_INVALID,
  unsubscribeQuerySchema,
} from '@shared/schemas/news';
import type { AppContext } from '../../context';
import { clientKey } from '../../lib/client-key';
import * as pledgeRepo from '../pledges/repo';
import { toDonorView } from '../pledges/views';
import { notFound } from '../../lib/http-error';
import { PLEDGE_NOT_FOUND, pledgeForRequest } from '../email/service';
import { unsubscribePage } from './page';
import * as repo from './repo';

const HTML_TYPE = 'text/html; charset=utf-8';
const linkParams = z.object({ id: z.string() });
const htmlResponse = (description: string) => ({
  description,
  content: { 'text/html': { schema: z.string() } },
});

/**
 * Delivery news by e-mail, by consent: the unsubscribe link (RFC 8058 one-click POST without a
 * session; GET only shows a button), the status page's choice, and the admin's subscriber count.
 * The consent itself is given in the pledge dialog (POST /api/pledges, deliveryNews) and the news
 * are queued when an update is posted (server/modules/updates).
 */
export async function newsRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, config, email } = ctx;

  /**
   * The pledge an unsubscribe token signs, within the client's limit of wrong links (the status
   * links' limit: a wrong token costs a lookup). Undefined for a bad, unknown or erased one.
   */
  async function pledgeOfToken(request: FastifyRequest, token: unknown) {
    const key = clientKey(request.ip);
    email.statusLimit.hit(key);
    const id = request.validationError ? undefined : email.links.newsPledgeId(token);
    const pledge = id ? await pledgeRepo.findPledge(db, id) : undefined;
    if (!pledge || pledge.erasedAt) return undefined;
    email.statusLimit.undo(key);
    return pledge;
  }

  const page = (reply: FastifyReply, status: number, html: string) =>
    reply
      .code(status)
      .type(HTML_TYPE)
      .header('Cache-Control', 'no-store')
      .header('X-Robots-Tag', 'noindex')
      .send(html);
  const invalid = (reply: FastifyReply) =>
    page(
      reply,
      404,
      unsubscribePage(config.campaign.name, { kind: 'invalid', message: UNSUBSCRIBE_LINK_INVALID }),
    );

  app.get(
    NEWS_UNSUBSCRIBE_PATH,
    {
      config: { access: 'public' },
      attachValidation: true,
      schema: {
        querystring: unsubscribeQuerySchema,
        response: {
          200: htmlResponse(
            'A page with an "Unsubscribe" button (opening the link changes nothing)',
          ),
          404: htmlResponse('The link is not valid'),
        },
      },
    },
    async (request, reply) => {
      const pledge = await pledgeOfToken(request, request.query?.t);
      if (!pledge) return invalid(reply);
      const state = pledge.newsConsentAt
        ? {
            kind: 'ask' as const,
            action: `${NEWS_UNSUBSCRIBE_PATH}?t=${encodeURIComponent(request.query.t)}`,
          }
        : { kind: 'done' as const };
      return page(reply, 200, unsubscribePage(config.campaign.name, state));
    },
  );

  // One-click: mail programs POST "List-Unsubscribe=One-Click" as a form, without cookies. The
  // body says nothing the link does not, so any body (or none) is accepted and not read.
  await app.register(async (scope) => {
    const form = scope.withTypeProvider<ZodTypeProvider>();
    form.removeAllContentTypeParsers();
    form.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 4096 }, (_req, _body, done) =>
      done(null, undefined),
    );
    form.post(
      NEWS_UNSUBSCRIBE_PATH,
      {
        config: { access: 'public' },
        attachValidation: true,
        schema: {
          querystring: unsubscribeQuerySchema,
          response: {
            200: htmlResponse('Unsubscribed: this address gets no more delivery news'),
            404: htmlResponse('The link is not valid'),
          },
        },
      },
      async (request, reply) => {
        const pledge = await pledgeOfToken(request, request.query?.t);
        if (!pledge) return invalid(reply);
        const ended = await repo.unsubscribeAddressOf(db, pledge.id, config.now());
        request.log.info({ pledgeId: pledge.id, ended }, 'delivery news: unsubscribed');
        return page(reply, 200, unsubscribePage(config.campaign.name, { kind: 'done' }));
      },
    );
  });

  // The status page's choice: subscribe this pledge, or unsubscribe its address.
  app.post(
    '/api/pledges/:id/news',
    {
      config: { access: 'public' },
      attachValidation: true,
      schema: {
        params: linkParams,
        body: newsChoiceSchema,
        response: { 200: donorPledgeViewSchema },
      },
    },
    async (request, reply) => {
      // The link is checked first, whatever else the body holds (a wrong one is the one 404);
      // linkedPledge would take any validation error for a wrong link.
      const found = await pledgeForRequest(db, email, request, request.params?.id, request.body?.t);
      if (!found) throw notFound(PLEDGE_NOT_FOUND);
      const { pledge, link } = found;
      // The link was right but the rest of the body was not: say what.
      if (request.validationError) throw request.validationError;
      const now = config.now();
      if (request.body.subscribe) await repo.subscribe(db, pledge.id, now, NEWS_CONSENT_VERSION);
      else await repo.unsubscribeAddressOf(db, pledge.id, now);
      const row = await pledgeRepo.findPledge(db, pledge.id);
      reply.header('Cache-Control', 'no-store');
      return toDonorView(row ?? pledge, link);
    },
  );

  app.get(
    '/api/admin/news/subscribers',
    { config: { access: 'admin' }, schema: { response: { 200: subscriberCountSchema } } },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return { count: await repo.countSubscribers(db) };
    },
  );
}
