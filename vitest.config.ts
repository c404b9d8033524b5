import { defineConfig } from 'vitest/config';
import { testEnv } from './test/support/env.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    env: testEnv,
    globalSetup: ['./test/support/global-setup.ts'],
    // Native addons (bcrypt) and real sockets behave best in child processes.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
