/**
 * `npm start`: the whole service on one machine. Applies migrations once, then runs api,
 * redirect and worker as separate processes, so a CPU-bound job never blocks request handling.
 * SIGTERM is passed to every role, and each drains before exiting. If one role dies, the others
 * are stopped too: a supervisor (systemd, docker) should restart the whole, not run it half.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { migrateDatabase } from './db/migrate.js';
import { loadConfigOrExit } from './shared/config/index.js';

const ROLES = {
  api: './api/server.ts',
  redirect: './redirect/server.ts',
  worker: './workers/server.ts',
} as const;

const config = loadConfigOrExit();
try {
  await migrateDatabase(config.DATABASE_URL);
} catch (err) {
  process.stderr.write(`Cannot prepare the database at DATABASE_URL: ${(err as Error).message}\n`);
  process.exit(1);
}

const children = new Map<string, ChildProcess>();
let stopping = false;

for (const [role, entry] of Object.entries(ROLES)) {
  const child = fork(fileURLToPath(new URL(entry, import.meta.url)), {
    env: { ...process.env, MIGRATE_ON_START: 'false' },
    stdio: 'inherit',
  });
  children.set(role, child);
  child.on('exit', (code, signal) => {
    children.delete(role);
    if (!stopping) {
      process.stderr.write(`${role} exited (${signal ?? code}); stopping the others\n`);
      process.exitCode = 1;
      stop('SIGTERM');
    }
    if (children.size === 0) process.exit();
  });
}

process.stdout.write(
  `qrlinks running: api http://${config.HOST}:${config.PORT}/api/v1 (docs /api/v1/docs), redirect ${config.SHORT_URL_BASE}\n`,
);

function stop(signal: NodeJS.Signals) {
  stopping = true;
  for (const child of children.values()) child.kill(signal);
}
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGTERM'));
