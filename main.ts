/**
 * `npm start`: the whole service on one machine. Checks that Postgres and Redis answer, applies
 * migrations once, builds the browser console if its sources changed (console/build.ts), then
 * runs api, redirect and worker as separate processes (so a CPU-bound job never blocks request
 * handling) under a supervisor that restarts a role that dies (platform/process/supervisor.ts). SIGTERM is passed to every role, and each drains before exiting.
 */
import { fileURLToPath } from 'node:url';
import { ensureConsoleBuilt } from './console/build.js';
import { migrateDatabase } from './platform/database/migrate.js';
import { loadConfigOrExit } from './platform/config/index.js';
import { waitForDependencies, withoutPassword } from './platform/process/startup.js';
import { supervise } from './platform/process/supervisor.js';

const ROLES = {
  api: './api/server.ts',
  redirect: './redirect/server.ts',
  worker: './workers/server.ts',
} as const;

const config = loadConfigOrExit();
await waitForDependencies(config, 'qrlinks');
try {
  await migrateDatabase(config.DATABASE_URL);
} catch (err) {
  process.stderr.write(
    `qrlinks: cannot prepare the database at DATABASE_URL=${withoutPassword(config.DATABASE_URL)}: ${(err as Error).message}\n`,
  );
  process.exit(1);
}

// The api serves the browser console from console/dist; a failed build leaves the previous one in place.
await ensureConsoleBuilt((line) => process.stdout.write(`qrlinks: ${line}\n`)).catch((err: unknown) => {
  process.stderr.write(
    `qrlinks: the console could not be built (${(err as Error).message}); the api serves the previous build, or a "not built" page at /\n`,
  );
});

process.exitCode = await supervise(
  Object.entries(ROLES).map(([name, entry]) => ({ name, entry: fileURLToPath(new URL(entry, import.meta.url)) })),
  {
    // The roles get the namespace under its current name, so the deprecation line is printed once, here.
    env: { ...process.env, REDIS_NAMESPACE: config.REDIS_NAMESPACE, QUEUE_PREFIX: undefined, MIGRATE_ON_START: 'false' },
    restartDelayMs: config.ROLE_RESTART_DELAY_MS,
    restartMaxDelayMs: 30_000,
    maxRestarts: config.ROLE_MAX_RESTARTS,
    windowMs: config.ROLE_RESTART_WINDOW_MS,
    runningMessage: `qrlinks running: console http://${config.HOST}:${config.PORT}/, api http://${config.HOST}:${config.PORT}/api/v1 (docs /api/v1/docs), redirect ${config.SHORT_URL_BASE}`,
    log: (line) => process.stdout.write(`${line}\n`),
  },
);
