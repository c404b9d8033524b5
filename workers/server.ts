/** `npm run start:worker`: BullMQ processors for every queue. Run as many as the work needs. */
import { migrateDatabase } from '../db/migrate.js';
import { loadConfigOrExit } from '../shared/config/index.js';
import { closeContext, createContext } from '../shared/context.js';
import { onShutdown } from '../shared/lifecycle.js';
import { requireDependencies } from '../shared/startup.js';
import { announceReady } from '../shared/supervisor.js';
import { lowerPriority, startWorkers } from './index.js';

const config = loadConfigOrExit();
// Before any thread pool starts: threads inherit the priority of the thread that creates them.
lowerPriority(config.WORKER_NICE);
await requireDependencies(config, 'qrlinks worker');
if (config.MIGRATE_ON_START) await migrateDatabase(config.DATABASE_URL);
const ctx = await createContext(config, 'worker');
const running = await startWorkers(ctx);
onShutdown(ctx.logger, config.SHUTDOWN_TIMEOUT_MS, [() => running.close(), () => closeContext(ctx)]);
ctx.logger.info({ queues: running.workers.map((w) => w.name) }, 'worker started');
announceReady();
