/**
 * `npm test`: every test, in three steps. First the unit tests and the integration tests, two
 * files at a time (each worker with a database and key namespace of its own: test/support/env.ts);
 * then the tests that start whole process trees, kill them or time things, one file at a time so a
 * neighbour's load cannot starve them; then the browser tests, one file at a time (Chromium is
 * the heaviest thing on the machine).
 */
import { defineConfig, type TestUserConfig } from 'vitest/config';
import { TEST_WORKERS, testEnv } from './test/support/env.js';
import { requireTestNode } from './test/support/node-version.js';

requireTestNode();

/** Process trees, SIGKILLs and timing: alone on the machine. */
const ALONE = [
  'test/supervisor.test.ts',
  'test/processes.test.ts',
  'test/scale-out.test.ts',
  'test/scan-path-durability.test.ts',
  'test/scans-durability.test.ts',
  'test/bulk-generate-durability.test.ts',
  'test/fairness.test.ts',
  'test/bulk-pacing.test.ts',
  'test/rolling-restart.test.ts',
];
const BROWSER = ['test/**/*-browser.test.ts'];
const UNIT = 'test/**/*.unit.test.ts';

/** How a test runs against the real services; vitest.coverage.config.ts runs its tests so too. */
export const realServices = {
  env: testEnv,
  globalSetup: ['./test/support/global-setup.ts'],
  setupFiles: ['./test/support/worker-env.ts'],
  // Native addons (bcrypt) and real sockets behave best in child processes.
  pool: 'forks',
  testTimeout: 30_000,
  hookTimeout: 60_000,
} satisfies TestUserConfig;

export default defineConfig({
  test: {
    ...realServices,
    projects: [
      // No module state or environment outlives a unit file (no mocks, fake timers or env writes),
      // so one process runs many of them: each is no longer a fresh import of its modules.
      { extends: true, test: { name: 'unit', include: [UNIT], isolate: false, maxWorkers: TEST_WORKERS } },
      {
        extends: true,
        test: {
          name: 'fast',
          include: ['test/**/*.test.ts'],
          exclude: [UNIT, ...ALONE, ...BROWSER],
          maxWorkers: TEST_WORKERS,
          sequence: { groupOrder: 1 },
        },
      },
      { extends: true, test: { name: 'alone', include: ALONE, maxWorkers: 1, sequence: { groupOrder: 2 } } },
      { extends: true, test: { name: 'browser', include: BROWSER, maxWorkers: 1, sequence: { groupOrder: 3 } } },
    ],
  },
});
