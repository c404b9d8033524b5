/**
 * The composition root every process (api, redirect, worker, CLI) is built by: config, logger,
 * database, Redis, queues, object storage, QR rendering and mail, made into the AppContext that
 * entry layers create once and pass down. A use case is given the part of it the domain knows
 * (DomainContext, domain/context.ts): everything but the job queues.
 */
import { sql } from 'drizzle-orm';
import type { DomainContext } from '#domain/context.js';
import { closeQueues, createQueues, type Queues } from './jobs/queues.js';
import type { Config } from '#platform/config/index.js';
import type { PoolLimits } from '#platform/database/pool.js';
import { createLogger, type Logger } from '#platform/logger.js';
import { createMailer } from '#platform/mail/index.js';
import { DnsResolver } from '#platform/dns/resolver.js';
import { createRedis } from '#platform/redis/client.js';
import { createStorage, type ObjectStorage } from '#platform/storage/index.js';
import { within } from '#platform/with-timeout.js';
import { createDatabase } from './database.js';
import { createQrRenderer } from './qr/render-pool.js';

export interface AppContext extends DomainContext {
  /** BullMQ queues, one per job kind (infra/jobs/queues.ts). */
  queues: Queues;
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
  const dns = new DnsResolver({ servers: config.DNS_SERVERS, timeoutMs: config.DNS_TIMEOUT_MS });
  return { config, logger, db: database.db, database, redis, queues, storage, qr, mailer: createMailer(config, logger), dns };
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

/** The longest one shutdown step may take before the next is started anyway. */
const SHUTDOWN_STEP_MS = 10_000;

export async function closeContext(ctx: AppContext): Promise<void> {
  // Each step is tried whatever the one before did; a failure is logged and the process still
  // stops. A step that hangs (a render thread stuck in a long render, a dependency that stopped
  // answering) costs at most SHUTDOWN_STEP_MS, and is named in the log.
  const step = async (what: string, close: () => Promise<unknown>) => {
    const late = Symbol('late');
    const outcome = await within(close(), SHUTDOWN_STEP_MS, late).catch((err: unknown) =>
      ctx.logger.warn({ err: err instanceof Error ? err.message : String(err) }, `shutdown: ${what} failed`),
    );
    if (outcome === late) ctx.logger.warn(`shutdown: ${what} did not end within ${SHUTDOWN_STEP_MS / 1000} s; going on`);
  };
  await step('closing the QR render threads', () => ctx.qr.close());
  await step('closing the queues', () => closeQueues(ctx.queues));
  await step('closing Redis', () => ctx.redis.quit().catch(() => ctx.redis.disconnect()));
  await step('closing the Postgres pool', () => ctx.database.close());
}

/** Readiness: each dependency answers within a second. */
export async function checkReadiness(ctx: Pick<AppContext, 'db' | 'redis'>): Promise<{ postgres: boolean; redis: boolean }> {
  const answers = <T>(p: Promise<T>) =>
    within(
      p.then(() => true),
      1000,
      false,
    ).catch(() => false);
  const [postgres, redis] = await Promise.all([answers(ctx.db.execute(sql`select 1`)), answers(ctx.redis.ping())]);
  return { postgres, redis };
}
