/** `npm run start:worker`: BullMQ processors for every queue. Run as many as the work needs. */
import { migrateDatabase } from '#platform/database/migrate.js';
import { loadConfigOrExit } from '#platform/config/index.js';
import { closeContext, createContext } from '#infra/context.js';
import { createRoleMetrics, observePostgresPool, observeQrRenderer, serveMetrics } from '#platform/metrics/index.js';
import { observeQueues } from '#platform/metrics/queues.js';
import { onShutdown } from '#platform/process/lifecycle.js';
import { ProxyTrust } from '#platform/net/client-identity.js';
import { waitForDependencies } from '#platform/process/startup.js';
import { announceReady } from '#platform/process/supervisor.js';
import { settleHeapAfterStart } from '#platform/process/settle-heap.js';
import { lowerPriority, startWorkers } from './index.js';

const config = loadConfigOrExit();
// Before any thread pool starts: threads inherit the priority of the thread that creates them.
lowerPriority(config.WORKER_NICE);
await waitForDependencies(config, 'qrlinks worker');
if (config.MIGRATE_ON_START) await migrateDatabase(config.DATABASE_URL);
const ctx = await createContext(config, 'worker');
const running = await startWorkers(ctx);
const metrics = createRoleMetrics('worker');
observePostgresPool(metrics, ctx.database.pool);
observeQrRenderer(metrics, ctx.qr);
observeQueues(metrics, ctx.queues, running.workers);
// A second worker on the machine finds the port taken: it works on without a listener, and says so.
const metricsServer =
  config.WORKER_METRICS_PORT > 0
    ? await serveMetrics(metrics, {
        host: config.HOST,
        port: config.WORKER_METRICS_PORT,
        access: { token: config.METRICS_TOKEN, proxyTrust: new ProxyTrust(config.TRUSTED_PROXIES) },
        // Alive while every queue's worker runs (through a Redis outage too: each reconnects on its own).
        healthy: () => running.workers.every((worker) => worker.isRunning()),
      }).catch((err: Error) => {
        ctx.logger.warn(
          { err: err.message, port: config.WORKER_METRICS_PORT },
          'worker metrics not served: give each worker process its own WORKER_METRICS_PORT',
        );
        return null;
      })
    : null;
onShutdown(ctx.logger, config.SHUTDOWN_TIMEOUT_MS, [
  () => running.close(),
  () => new Promise<void>((resolve) => (metricsServer ? metricsServer.close(() => resolve()) : resolve())),
  () => closeContext(ctx),
]);
ctx.logger.info({ queues: running.workers.map((w) => w.name) }, 'worker started');
announceReady();
settleHeapAfterStart();
