/**
 * The environment every test process runs with: its own database and queue prefix, so a test
 * run never touches the data of a service running on the same machine. Test files run in parallel
 * workers (vitest.config.ts); each worker has a database, key namespace and folders of its own, so
 * the files of one worker meet the machine as they would in a serial run.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const pgBase = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
/** Two test runs on one machine at once (e.g. two working copies) each need their own database and prefix. */
const runName = process.env.TEST_RUN_NAME ? `_${process.env.TEST_RUN_NAME}` : '';

/**
 * TEST_FULL_SAMPLES=1: the heavy reference samples at their full size (every QR version, …)
 * rather than the CI-sized selection that still covers each case they distinguish.
 */
export const FULL_SAMPLES = process.env.TEST_FULL_SAMPLES === '1';

/** How many test files run at once (vitest.config.ts); global-setup.ts prepares a database for each. */
export const TEST_WORKERS = Number(process.env.TEST_WORKERS ?? 2);

/** The environment of one worker (1 … TEST_WORKERS; vitest's VITEST_POOL_ID), or of the run as a whole. */
export function testEnvOf(worker?: string) {
  const name = worker ? `${runName}_w${worker}` : runName;
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: `${pgBase}/qrlinks_test${name}`,
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_NAMESPACE: `qrlinks-test${name}`,
    STORAGE_DRIVER: 'fs',
    STORAGE_DIR: join(tmpdir(), `qrlinks-test-files${name}`),
    RATE_LIMIT_MAX: '100000',
    // Whole suites send bad keys from 127.0.0.1; the tests of the limit set their own.
    AUTH_FAILURE_LIMIT: '100000',
    SECRETS_DIR: join(tmpdir(), `qrlinks-test-secrets${name}`),
    // Scans written ahead and spooled by test redirect processes stay with their run.
    SCAN_SPOOL_DIR: join(tmpdir(), `qrlinks-test-spool${name}`),
    // Whole suites ask the redirect for unknown slugs from 127.0.0.1; the test of the limit sets its own.
    REDIRECT_NOT_FOUND_LIMIT: '100000',
    HOST: '127.0.0.1',
    // Test files start workers side by side; the metrics test gives its own a port.
    WORKER_METRICS_PORT: '0',
    // No balancer watches a test's processes; the rolling-restart test sets its own drain.
    SHUTDOWN_READY_DRAIN_MS: '0',
    // Webhook receivers of the tests listen on loopback, which only the operator may allow. Every
    // process of a run gets the same test-sized schedule and limits, since any worker of the
    // namespace may send a file's deliveries: seven attempts within 16 s, an endpoint turned off
    // after 30 failures in a row, a hung receiver given up on after 2 s, partial batches after 1 s.
    WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8,::1/128',
    WEBHOOK_RETRY_SCHEDULE: '250,500,1000,2000,4000,8000',
    WEBHOOK_DISABLE_AFTER_FAILURES: '30',
    WEBHOOK_DISABLE_AFTER_MS: '0',
    WEBHOOK_TIMEOUT_MS: '2000',
    WEBHOOK_SCAN_BATCH_MS: '1000',
  } satisfies Record<string, string>;
}

export const testEnv = testEnvOf(process.env.VITEST_POOL_ID);
