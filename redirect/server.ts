/** `npm run start:redirect`: the public scan endpoint alone (the hot path; scale it out first). */
import { migrateDatabase } from '#platform/database/migrate.js';
import { loadConfigOrExit } from '#platform/config/index.js';
import { closeContext, createContext } from '#infra/context.js';
import { onShutdown } from '#platform/process/lifecycle.js';
import { waitForDependencies } from '#platform/process/startup.js';
import { announceReady } from '#platform/process/supervisor.js';
import { settleHeapAfterStart } from '#platform/process/settle-heap.js';
import { buildRedirectApp } from './app.js';

const config = loadConfigOrExit();
await waitForDependencies(config, 'qrlinks redirect');
if (config.MIGRATE_ON_START) await migrateDatabase(config.DATABASE_URL);
const ctx = await createContext(config, 'redirect');
const app = await buildRedirectApp(ctx);
// First /ready fails while requests are still served (balancers move away), then the server closes.
onShutdown(ctx.logger, config.SHUTDOWN_READY_DRAIN_MS + config.SHUTDOWN_TIMEOUT_MS, [
  () => app.drain(config.SHUTDOWN_READY_DRAIN_MS),
  () => app.close(),
  () => closeContext(ctx),
]);
await app.listen({ host: config.HOST, port: config.REDIRECT_PORT });
announceReady();
settleHeapAfterStart();
