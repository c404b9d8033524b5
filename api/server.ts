/** `npm run start:api`: the management API alone. */
import { migrateDatabase } from '../db/migrate.js';
import { loadConfigOrExit } from '../shared/config/index.js';
import { closeContext, createContext } from '../shared/context.js';
import { onShutdown } from '../shared/lifecycle.js';
import { waitForDependencies } from '../shared/startup.js';
import { announceReady } from '../shared/supervisor.js';
import { buildApiApp } from './app.js';

const config = loadConfigOrExit();
await waitForDependencies(config, 'qrlinks api');
if (config.MIGRATE_ON_START) await migrateDatabase(config.DATABASE_URL);
const ctx = await createContext(config, 'api');
const app = await buildApiApp(ctx);
onShutdown(ctx.logger, config.SHUTDOWN_TIMEOUT_MS, [() => app.close(), () => closeContext(ctx)]);
await app.listen({ host: config.HOST, port: config.PORT });
announceReady();
