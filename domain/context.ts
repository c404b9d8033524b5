/**
 * What every process (api, redirect, worker, CLI) is built from: config, logger, database,
 * Redis, queues, object storage and mail. Entry layers create one context and pass it down.
 */
import { sql } from 'drizzle-orm';
import { createDatabase, type Database, type DatabaseHandle } from './database.js';
import type { Config } from '../platform/config/index.js';
import type { PoolLimits } from '../platform/database/pool.js';
import { createStorage, type ObjectStorage } from '../platform/storage/index.js';
import { closeQueues, createQueues, type Queues } from './jobs/queues.js';
import { createLogger, type Logger } from '../platform/logger.js';
import { createMailer, type Mailer } from '../platform/mail/index.js';
import { createRedis, type Redis } from '../platform/redis/client.js';
import { createQrRenderer, type QrRenderer } from './qr/render-pool.js';

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

export async function createContext(config: Config, role: string, logger = createLogger(config, role)): Promise<AppContext> {
  const database = createDatabase(config.DATABASE_URL, config.DATABASE_POOL_SIZE, logger, poolLimits(config, role));
  const redis = createRedis(config.REDIS_URL, logger);
  const queues = createQueues(redis, config.REDIS_NAMESPACE);
  // BullMQ checks the server on first use; finishing that now means a fast shutdown never
  // closes the connection under its feet (an unhandled "Connection is closed").
  await Promise.all(Object.values(queues).map((q) => q.waitUntilReady()));
  const storage = createStorageFromConfig(config, logger);
  await storage.init();
  const qr = createQrRenderer({
    threads: config.QR_RENDER_THREADS,
    perAccountThreads: config.QR_RENDER_ACCOUNT_THREADS,
    timeoutMs: config.QR_RENDER_TIMEOUT_MS,
  });
  return { config, logger, db: database.db, database, redis, queues, storage, qr, mailer: createMailer(config, logger) };
}

/** The roles that answer requests; any other (the worker, tools, tests' in-process api) gets the longer limit. */
const REQUEST_ROLES = new Set(['api', 'redirect']);

/**
 * A request waits on Postgres for at most DATABASE_QUERY_TIMEOUT_MS, then answers 503; a worker's
 * statements (batches of scans, exports, sweeps) are long by design and get DATABASE_WORK_TIMEOUT_MS.
 */
function poolLimits(config: Config, role: string): PoolLimits {
  if (REQUEST_ROLES.has(role)) {
    // Half for the connection: a request may wait for one and then for its statement, within the limit's double.
    return { statementTimeoutMs: config.DATABASE_QUERY_TIMEOUT_MS, connectTimeoutMs: Math.ceil(config.DATABASE_QUERY_TIMEOUT_MS / 2) };
  }
  return { statementTimeoutMs: config.DATABASE_WORK_TIMEOUT_MS, connectTimeoutMs: 5_000 };
}

export function createStorageFromConfig(config: Config, logger?: Logger): ObjectStorage {
  if (config.STORAGE_DRIVER === 's3') {
    return createStorage({
      driver: 's3',
      endpoint: config.S3_ENDPOINT!,
      accessKey: config.S3_ACCESS_KEY!,
      secretKey: config.S3_SECRET_KEY!,
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      logger,
    });
  }
  return createStorage({ driver: 'fs', root: config.STORAGE_DIR });
}

export async function closeContext(ctx: AppContext): Promise<void> {
  // Each step is tried whatever the one before did; a failure is logged and the process still stops.
  const step = (what: string) => (err: unknown) =>
    ctx.logger.warn({ err: err instanceof Error ? err.message : String(err) }, `shutdown: ${what} failed`);
  await ctx.qr.close().catch(step('closing the QR render threads'));
  await closeQueues(ctx.queues).catch(step('closing the queues'));
  await ctx.redis.quit().catch(() => ctx.redis.disconnect());
  await ctx.database.close().catch(step('closing the Postgres pool'));
}

/** Readiness: each dependency answers within a second. */
export async function checkReadiness(ctx: Pick<AppContext, 'db' | 'redis'>): Promise<{ postgres: boolean; redis: boolean }> {
  const within = <T>(p: Promise<T>) =>
    Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 1000).unref())]).catch(() => false);
  const [postgres, redis] = await Promise.all([within(ctx.db.execute(sql`select 1`)), within(ctx.redis.ping())]);
  return { postgres, redis };
}
