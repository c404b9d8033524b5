/**
 * `npm start`'s preparation, a short-lived child of the supervisor (main.ts): reads the
 * configuration, waits until Postgres and Redis answer, applies migrations once, builds the
 * browser console if its sources changed (console/build.ts) and the geo table if it is missing
 * (platform/geo/geo-table-build.ts: ~700 MB for tens of seconds, better here than in a serving
 * redirect), then hands the supervisor what it
 * needs to run the roles (over the IPC channel) and exits. Everything heavy `npm start` needs once
 * (zod, pg, drizzle, Vite) is loaded here and freed with this process, so the supervisor that
 * stays for the life of the service loads none of it.
 */
import { ensureConsoleBuilt } from '#console/build.js';
import { createDatabase } from '#infra/database.js';
import { issueSetupToken } from '#domain/people/setup.js';
import { consoleLink } from '#domain/people/tokens.js';
import { describeGeoTableBuild, ensureGeoTable } from '#platform/geo/geo-table-build.js';
import { loadConfigOrExit } from '#platform/config/index.js';
import { migrateDatabase } from '#platform/database/migrate.js';
import { waitForDependencies, withoutPassword } from '#platform/process/startup.js';
import type { Preparation } from '#platform/process/supervisor.js';

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

try {
  process.stdout.write('qrlinks: checking the geo table (built once per DB-IP version)\n');
  const built = ensureGeoTable();
  if (built) process.stdout.write(`qrlinks: ${describeGeoTableBuild(built)}\n`);
} catch (err) {
  // Each process that looks up an address then builds it for itself (domain/scans/geo.ts).
  process.stderr.write(`qrlinks: the geo table could not be built here (${(err as Error).message})\n`);
}

// A database nobody signs in to yet: the one-time link that makes the first owner (decision 0409).
try {
  const database = createDatabase(config.DATABASE_URL, 1);
  try {
    const token = await issueSetupToken(database.db);
    if (token) {
      process.stdout.write(
        `qrlinks: nobody signs in here yet. Open this one-time link to make the first owner and account (valid 24 h; a new one: npm run cli -- setup-link):\n  ${consoleLink(config.PUBLIC_API_URL, 'setup', token)}\n`,
      );
    }
  } finally {
    await database.close();
  }
} catch (err) {
  process.stderr.write(`qrlinks: no setup link (${(err as Error).message}); print one with: npm run cli -- setup-link\n`);
}

const preparation: Preparation = {
  // The roles get the namespace under its current name, so the deprecation line is printed once, here.
  env: { REDIS_NAMESPACE: config.REDIS_NAMESPACE, MIGRATE_ON_START: 'false' },
  unset: ['QUEUE_PREFIX'],
  restartDelayMs: config.ROLE_RESTART_DELAY_MS,
  restartMaxDelayMs: 30_000,
  maxRestarts: config.ROLE_MAX_RESTARTS,
  windowMs: config.ROLE_RESTART_WINDOW_MS,
  runningMessage: `qrlinks running: console http://${config.HOST}:${config.PORT}/, api http://${config.HOST}:${config.PORT}/api/v1 (docs /api/v1/docs), redirect ${config.SHORT_URL_BASE}`,
};
if (process.send) process.send({ qrlinks: 'prepared', preparation }, () => process.exit(0));
else process.stdout.write(`${JSON.stringify(preparation)}\n`);
