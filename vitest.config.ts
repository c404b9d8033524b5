/**
 * `npm test`: every test, in tiers that are folders (test/<tier>/<area of the source>/). First
 * test/unit/ and test/integration/, two files at a time (each worker with a database and key
 * namespace of its own: test/support/env.ts); then test/processes/, the tests that start whole
 * process trees, kill them or time things, one file at a time so a neighbour's load cannot starve
 * them; then test/browser/, one file at a time (Chromium is the heaviest thing on the machine).
 */
import { defineConfig, type TestUserConfig } from 'vitest/config';
import { TEST_WORKERS, testEnv } from './test/support/env.js';

/** Pure functions and files of the repository: no services. */
const UNIT = 'test/unit/**/*.test.ts';
/** Against real Postgres, Redis, object storage and in-process or spawned roles. */
const INTEGRATION = 'test/integration/**/*.test.ts';
/** Process trees, SIGKILLs and timing: alone on the machine. */
const PROCESSES = 'test/processes/**/*.test.ts';
/** A real Chromium. */
const BROWSER = 'test/browser/**/*.test.ts';

/** How a test runs against the real services; vitest.coverage.config.ts runs its tests so too. */
export const realServices = {
  env: testEnv,
  globalSetup: ['./test/support/global-setup.ts'],
  setupFiles: ['./test/support/worker-env.ts'],
  // Native addons (bcrypt) and real sockets behave best in child processes.
  pool: 'forks',
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // drizzle-orm through vitest's own module runner rather than Node's loader: Node 22.21+ and 24
  // read its 175 KB package.json again for each of its ~450 modules (nodejs/node#60397), 1.45 s
  // and 298 MB per test file on Node 24 against 0.29 s and 61 MB on Node 20 (decision 0419).
  server: { deps: { inline: ['drizzle-orm'] } },
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
          name: 'integration',
          include: [INTEGRATION],
          maxWorkers: TEST_WORKERS,
          sequence: { groupOrder: 1 },
        },
      },
      { extends: true, test: { name: 'processes', include: [PROCESSES], maxWorkers: 1, sequence: { groupOrder: 2 } } },
      // A page, its axe pass and a second viewport take 10-20 s on this 2-core machine; the default 30 s
      // leaves too little room when CI's machine is slower.
      {
        extends: true,
        test: { name: 'browser', include: [BROWSER], maxWorkers: 1, testTimeout: 60_000, sequence: { groupOrder: 3 } },
      },
    ],
  },
});
