import type { ReferenceKey } from '@shared/payment-reference';
import type { AppConfig } from './config';
import type { Database, Db } from './db/client';
import type { EmailService } from './modules/email/service';
import type { Sessions } from './modules/admin/sessions';
import type { CampaignSnapshot } from './read-model/snapshot';
import type { ObjectStorage } from './storage/object-storage';

/**
 * What route modules and plugins need from the app, handed to each `register*(app, ctx)`.
 * A module of its own (types only), so the modules never import server/app.ts, which imports them.
 */
export interface AppContext {
  config: AppConfig;
  db: Db;
  database: Database;
  /** The public state in memory (server/read-model/). */
  snapshot: CampaignSnapshot;
  sessions: Sessions;
  /** Where the photos live: local disk or an S3-compatible bucket. */
  storage: ObjectStorage;
  uploadSecret: string;
  /** The payment references' key (settings). Never logged. */
  referenceKey: ReferenceKey;
  passwordHash: () => string;
  /** E-mail: status links, the outbox and its worker (docs/decisions/014-email-outbox.md). */
  email: EmailService;
}
