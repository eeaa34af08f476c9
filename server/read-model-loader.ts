import type { Db } from './db/client';
import * as pledgeRepo from './modules/pledges/repo';
import { toRecentPledge } from './modules/pledges/views';
import * as progressRepo from './modules/progress/repo';
import * as updateRepo from './modules/updates/repo';
import type { ReadModelLoader } from './read-model/snapshot';

/** The snapshot's reads, from the modules' repos: the one place that knows both sides. */
export function readModelLoader(db: Db): ReadModelLoader {
  return {
    totals: () => pledgeRepo.readPledgeTotals(db),
    progressSettings: () => progressRepo.readProgressRow(db),
    recentPledges: async (limit) =>
      (await pledgeRepo.listRecentPledges(db, limit)).map(toRecentPledge),
    deliveryUpdates: async () =>
      (await updateRepo.listUpdates(db)).map(updateRepo.toDeliveryUpdate),
  };
}
