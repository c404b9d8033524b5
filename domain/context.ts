/**
 * What a use case is given: config, logger, database, Redis, queues, object storage, QR rendering
 * and mail. Built once per process by the composition root (infra/context.ts).
 */
import type { Config } from '#platform/config/index.js';
import type { Logger } from '#platform/logger.js';
import type { Mailer } from '#platform/mail/index.js';
import type { Redis } from '#platform/redis/client.js';
import type { ObjectStorage } from '#platform/storage/index.js';
import type { Database, DatabaseHandle } from './database.js';
import type { Queues } from './jobs/queues.js';
import type { QrRenderer } from './qr/renderer.js';

export interface AppContext {
  config: Config;
  logger: Logger;
  db: Database;
  database: DatabaseHandle;
  redis: Redis;
  queues: Queues;
  storage: ObjectStorage;
  /** QR rendering on worker threads; threads start on first use. */
  qr: QrRenderer;
  /** Mail to people (SMTP_URL, else the log); nodemailer loads on the first send. */
  mailer: Mailer;
}
