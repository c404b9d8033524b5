/**
 * The environment every test process runs with: its own database and queue prefix, so a test
 * run never touches the data of a service running on the same machine.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const pgBase = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
/** Two test runs on one machine at once (e.g. two working copies) each need their own database and prefix. */
const runName = process.env.TEST_RUN_NAME ? `_${process.env.TEST_RUN_NAME}` : '';

export const testEnv = {
  NODE_ENV: 'test',
  LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
  DATABASE_URL: `${pgBase}/qrlinks_test${runName}`,
  REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
  QUEUE_PREFIX: `qrlinks-test${runName}`,
  STORAGE_DRIVER: 'fs',
  STORAGE_DIR: join(tmpdir(), `qrlinks-test-files${runName}`),
  RATE_LIMIT_MAX: '100000',
  // Whole suites send bad keys from 127.0.0.1; the tests of the limit set their own.
  AUTH_FAILURE_LIMIT: '100000',
  SECRETS_DIR: join(tmpdir(), `qrlinks-test-secrets${runName}`),
  // Scans written ahead and spooled by test redirect processes stay with their run.
  SCAN_SPOOL_DIR: join(tmpdir(), `qrlinks-test-spool${runName}`),
  // Whole suites ask the redirect for unknown slugs from 127.0.0.1; the test of the limit sets its own.
  REDIRECT_NOT_FOUND_LIMIT: '100000',
  HOST: '127.0.0.1',
  // Test files start workers side by side; the metrics test gives its own a port.
  WORKER_METRICS_PORT: '0',
} satisfies Record<string, string>;
