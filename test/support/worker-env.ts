/**
 * Runs in each test worker before its files: the app code under test reads process.env, which
 * vitest.config.ts filled with the run's shared names; this gives the worker its own (env.ts).
 */
import { testEnv } from './env.js';

Object.assign(process.env, testEnv);
