import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, configDeprecations, loadConfig } from '#platform/config/index.js';
import { ROOT, runEntry } from '../../support/processes.js';

describe('configuration', () => {
  it('runs on its embedded defaults with an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      REDIRECT_PORT: 3001,
      SHORT_URL_BASE: 'http://localhost:3001',
      STORAGE_DRIVER: 'fs',
      REDIS_URL: 'redis://127.0.0.1:6379',
      JOB_WAIT_MS: 30000,
    });
  });

  it('reads the namespace under its old name, QUEUE_PREFIX, with a deprecation line, until REDIS_NAMESPACE is set', () => {
    expect(loadConfig({ QUEUE_PREFIX: 'old-name' }).REDIS_NAMESPACE).toBe('old-name');
    expect(configDeprecations({ QUEUE_PREFIX: 'old-name' })).toEqual([
      expect.stringMatching(/^QUEUE_PREFIX is deprecated \(read as REDIS_NAMESPACE .*set REDIS_NAMESPACE instead$/),
    ]);
    expect(loadConfig({ QUEUE_PREFIX: 'old-name', REDIS_NAMESPACE: 'new-name' }).REDIS_NAMESPACE).toBe('new-name');
    expect(configDeprecations({ QUEUE_PREFIX: 'old-name', REDIS_NAMESPACE: 'new-name' })).toEqual([
      expect.stringContaining('ignored: REDIS_NAMESPACE is set'),
    ]);
    expect(configDeprecations({ REDIS_NAMESPACE: 'new-name' })).toEqual([]);
  });

  it("documents every setting in the guide's settings table (docs/guide/configuration.md)", () => {
    const guide = readFileSync(`${ROOT}/docs/guide/configuration.md`, 'utf8');
    const undocumented = Object.keys(loadConfig({})).filter((name) => !guide.includes(`| \`${name}\``) && !guide.includes(`, \`${name}\``));
    expect(undocumented).toEqual([]);
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '' }).PORT).toBe(3000);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ REDIRECT_PORT: '-1' }, 'REDIRECT_PORT'],
    [{ REDIS_URL: 'not a url' }, 'REDIS_URL'],
    [{ DATABASE_URL: '::' }, 'DATABASE_URL'],
    [{ STORAGE_DRIVER: 'ftp' }, 'STORAGE_DRIVER'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ JOB_WAIT_MS: '1.5' }, 'JOB_WAIT_MS'],
    [{ REDIS_NAMESPACE: 'has space' }, 'REDIS_NAMESPACE'],
    [{ MIGRATE_ON_START: 'yes' }, 'MIGRATE_ON_START'],
    [{ STORAGE_DRIVER: 's3' }, 'S3_ENDPOINT'],
    [{ STORAGE_DRIVER: 's3', S3_ENDPOINT: 'http://minio:9000', S3_ACCESS_KEY: 'a' }, 'S3_SECRET_KEY'],
    [{ TRUSTED_PROXIES: '10.0.0.0/8, balancer.internal' }, 'TRUSTED_PROXIES'],
  ])('%o → a one-line error naming %s', (env, name) => {
    let error: unknown;
    try {
      loadConfig(env);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(new RegExp(`^Invalid configuration: .*\\b${name}\\b`));
    expect(message).not.toContain('\n');
  });

  it.each(['api/server.ts', 'redirect/server.ts', 'workers/server.ts', 'main.ts'])(
    '%s exits 1 with that one line on stderr and no stack trace',
    async (entry) => {
      const { code, stderr, stdout } = await runEntry(entry, [], { PORT: 'abc' });
      expect(code).toBe(1);
      expect(stderr.trim()).toBe('Invalid configuration: PORT must be a whole number from 1 to 65535 (got "abc")');
      expect(stdout).toBe('');
    },
  );
});
