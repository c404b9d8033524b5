/** `npm run start:redirect`: the public scan endpoint alone (the hot path; scale it out first). */
import { migrateDatabase } from '../db/migrate.js';
import { loadConfigOrExit } from '../shared/config/index.js';
import { closeContext, createContext } from '../shared/context.js';
import { onShutdown } from '../shared/lifecycle.js';
import { waitForDependencies } from '../shared/startup.js';
import { announceReady } from '../shared/supervisor.js';
import { buildRedirectApp } from './app.js';

const config = loadConfigOrExit();
await waitForDependencies(config, 'qrlinks redirect');
if (config.MIGRATE_ON_START) await migrateDatabase(config.DATABASE_URL);
const ctx = await createContext(config, 'redirect');
const app = await buildRedirectApp(ctx);
onShutdown(ctx.logger, config.SHUTDOWN_TIMEOUT_MS, [() => app.close(), () => closeContext(ctx)]);
await app.listen({ host: config.HOST, port: config.REDIRECT_PORT });
announceReady();
