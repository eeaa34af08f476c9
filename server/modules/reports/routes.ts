import { stringify } from 'csv-stringify/sync';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fulfilmentReportSchema, reportCsvQuerySchema } from '@shared/schemas/report';
import type { AppContext } from '../../context';
import { fulfilmentReport, reportCsvRows } from './service';

/** The fulfilment report (the admin's Reports tab) and each of its tables as CSV. */
export async function reportRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, config } = ctx;

  // Built at each request: it reads the rollups (a few hundred rows), which costs less than
  // checking whether a kept report is still current did.
  const build = () =>
    fulfilmentReport(db, {
      now: config.now(),
      timeZone: config.campaign.timeZone,
      reminderSteps: config.campaign.reminders.days.length,
    });

  app.get(
    '/api/admin/reports/fulfilment',
    { config: { access: 'admin' }, schema: { response: { 200: fulfilmentReportSchema } } },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return build();
    },
  );

  app.get(
    '/api/admin/reports/fulfilment.csv',
    {
      config: { access: 'admin' },
      schema: {
        querystring: reportCsvQuerySchema,
        response: {
          200: {
            description: 'One table of the fulfilment report as CSV',
            content: { 'text/csv': { schema: z.string() } },
          },
        },
      },
    },
    async (request, reply) => {
      const report = await build();
      const { table } = request.query;
      // A few hundred rows at most (one per day or week): built in memory, unlike the pledge
      // export. The byte-order mark makes Excel read it as UTF-8 ("0–7 days").
      const body = stringify(reportCsvRows(report, table), { bom: true });
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header(
          'Content-Disposition',
          `attachment; filename="fulfilment-${table}-${report.today}.csv"`,
        )
        .header('Cache-Control', 'no-store')
        .send(body);
    },
  );
}
