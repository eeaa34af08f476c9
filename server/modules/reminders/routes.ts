import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema } from '@shared/schemas/api';
import {
  pledgeRemindersSchema,
  releasedSchema,
  reminderPauseSchema,
  reminderSettingsSchema,
} from '@shared/schemas/reminders';
import type { AppContext } from '../../context';
import { notFound } from '../../lib/http-error';
import * as emailRepo from '../email/repo';
import * as pledgeRepo from '../pledges/repo';
import * as repo from './repo';
import {
  campaignPausedAt,
  nextDueAt,
  releaseLapsed,
  setCampaignPaused,
  setPledgePaused,
} from './service';

const pledgeParams = idParamsSchema('pledge');

/** The admin's reminder controls; every change is audited. */
export async function reminderRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, config, snapshot } = ctx;

  async function settings() {
    const { days, lapseAfterDays, enabled } = config.campaign.reminders;
    const [pausedAt, lapsed] = await Promise.all([campaignPausedAt(db), repo.lapsedTotals(db)]);
    return {
      schedule: { days, lapseAfterDays, enabled },
      pausedAt: pausedAt?.toISOString() ?? null,
      lapsed,
    };
  }

  app.get(
    '/api/admin/reminders',
    { config: { access: 'admin' }, schema: { response: { 200: reminderSettingsSchema } } },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return settings();
    },
  );

  // The campaign-wide pause.
  app.put(
    '/api/admin/reminders',
    {
      config: { access: 'admin' },
      schema: { body: reminderPauseSchema, response: { 200: reminderSettingsSchema } },
    },
    async (request) => {
      await db.transaction((tx) =>
        setCampaignPaused(tx, { paused: request.body.paused, actor: request, now: config.now() }),
      );
      return settings();
    },
  );

  // "Release lapsed pledges": one bulk action; the totals drop by what was lapsed.
  app.post(
    '/api/admin/pledges/lapsed/release',
    { config: { access: 'admin' }, schema: { response: { 200: releasedSchema } } },
    async (request) => {
      const released = await snapshot.write(() =>
        db.transaction((tx) => releaseLapsed(tx, request, config.now())),
      );
      return { released };
    },
  );

  async function pledgeReminders(id: string) {
    const pledge = await pledgeRepo.findPledge(db, id);
    if (!pledge) throw notFound('Pledge not found');
    const [state, rows, link] = await Promise.all([
      repo.reminderState(db, id),
      emailRepo.remindersOf(db, id),
      emailRepo.findLink(db, id),
    ]);
    const owed =
      pledge.status === 'open' &&
      (!pledge.isPaid || (pledge.receivedMinor ?? 0) < pledge.amount * 100);
    const next =
      owed && !state?.pausedAt && config.campaign.reminders.enabled
        ? nextDueAt({
            createdAt: pledge.createdAt,
            sentSteps: state?.sentSteps ?? 0,
            lastSentAt: state?.lastSentAt ?? null,
            donorSaysSentAt: link?.donorSaysSentAt ?? null,
            days: config.campaign.reminders.days,
          })
        : null;
    return {
      pledge,
      view: {
        sent: rows.map((r) => ({
          step: r.step,
          queuedAt: r.createdAt.toISOString(),
          status: r.sentAt
            ? ('sent' as const)
            : r.failedAt
              ? ('failed' as const)
              : ('waiting' as const),
        })),
        nextDueAt: next?.toISOString() ?? null,
        pausedAt: state?.pausedAt?.toISOString() ?? null,
      },
    };
  }

  app.get(
    '/api/admin/pledges/:id/reminders',
    {
      config: { access: 'admin' },
      schema: { params: pledgeParams, response: { 200: pledgeRemindersSchema } },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return (await pledgeReminders(request.params.id)).view;
    },
  );

  // Pause or resume one pledge's reminders.
  app.put(
    '/api/admin/pledges/:id/reminders',
    {
      config: { access: 'admin' },
      schema: {
        params: pledgeParams,
        body: reminderPauseSchema,
        response: { 200: pledgeRemindersSchema },
      },
    },
    async (request) => {
      const { pledge } = await pledgeReminders(request.params.id);
      await db.transaction((tx) =>
        setPledgePaused(tx, {
          pledgeId: pledge.id,
          reference: pledge.reference,
          paused: request.body.paused,
          actor: request,
          now: config.now(),
        }),
      );
      return (await pledgeReminders(pledge.id)).view;
    },
  );
}
