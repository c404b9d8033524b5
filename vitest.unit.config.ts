/**
 * `npm run test:unit`: the tests that need no Postgres, Redis, browser or child process
 * (`test/**\/*.unit.test.ts`). Postgres and Redis point at closed ports here, so a unit test that
 * starts needing them fails at once instead of passing on a developer's machine only.
 */
import { defineConfig } from 'vitest/config';
import { testEnv } from './test/support/env.js';
import { requireTestNode } from './test/support/node-version.js';

requireTestNode();

export default defineConfig({
  test: {
    include: ['test/**/*.unit.test.ts'],
    // The TEST_ variables reach testEnv as the test files import it: a unit test that reads
    // testEnv.REDIS_URL or testEnv.DATABASE_URL gets the closed port too.
    env: {
      ...testEnv,
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
      REDIS_URL: 'redis://127.0.0.1:1',
      TEST_PG_URL: 'postgres://postgres@127.0.0.1:1',
      TEST_REDIS_URL: 'redis://127.0.0.1:1',
    },
    pool: 'forks',
    testTimeout: 30_000,
  },
});
