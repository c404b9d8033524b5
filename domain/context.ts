/**
 * What a use case is given: config, logger, database, Redis, object storage, QR rendering, mail
 * and DNS. The composition root (infra/context.ts) builds it once per process, with the job queues,
 * which only the entries and infra/ reach, as its AppContext.
 */
import type { Config } from '#platform/config/index.js';
import type { DnsResolver } from '#platform/dns/resolver.js';
import type { Logger } from '#platform/logger.js';
import type { Mailer } from '#platform/mail/index.js';
import type { Redis } from '#platform/redis/client.js';
import type { ObjectStorage } from '#platform/storage/index.js';
import type { Database, DatabaseHandle } from './database.js';
import type { QrRenderer } from './qr/renderer.js';

export interface DomainContext {
  config: Config;
  logger: Logger;
  db: Database;
  database: DatabaseHandle;
  redis: Redis;
  storage: ObjectStorage;
  /** QR rendering on worker threads; threads start on first use. */
  qr: QrRenderer;
  /** Mail to people (SMTP_URL, else the log); nodemailer loads on the first send. */
  mailer: Mailer;
  /** DNS questions for brand domains' checks, through DNS_SERVERS, each bounded by DNS_TIMEOUT_MS. */
  dns: DnsResolver;
}
