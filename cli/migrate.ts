/** `npm run db:migrate`: applies pending migrations to DATABASE_URL and exits. */
import { loadConfigOrExit } from '#platform/config/index.js';
import { migrateDatabase } from '#platform/database/migrate.js';

const config = loadConfigOrExit();
try {
  await migrateDatabase(config.DATABASE_URL);
  process.stdout.write('migrations applied\n');
} catch (err) {
  process.stderr.write(`migration failed: ${(err as Error).message}\n`);
  process.exit(1);
}
