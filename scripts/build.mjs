#!/usr/bin/env node
/**
 * `npm run build`: compiles every process, worker thread and child entry to plain JavaScript in
 * dist/, one esbuild bundle per entry (the repository's own modules inlined, packages left to
 * node_modules but for drizzle-orm: INLINED_PACKAGES), with source maps. `npm start` and the image run these with plain `node`; tsx is
 * for development, tests and benches only. Plain JavaScript itself, so it runs after
 * `npm ci --omit=dev`; esbuild and Vite are development dependencies (decision 0423), loaded only
 * when something must be compiled. A production install runs from a build made elsewhere (the
 * image's build stage, .ci/production-install): `--if-stale` then finds it current and loads
 * neither, and if a build is needed without them it says so in one line and exits 1.
 *
 * Without arguments it then builds the browser console too (console/build.ts, itself a no-op when
 * console/dist is current) and the geo table (platform/geo/geo-table-build.ts), as the image needs. `--if-stale` compiles the server only, and only
 * when its sources changed since the last build: a hash of everything the bundles are made from is
 * kept in dist/.source-hash, so `npm start` calls it every time (and builds the console later, in
 * cli/prepare.ts).
 *
 * Two rewrites keep the bundles behaving as the sources do:
 * - `import.meta.url` in each of our modules becomes that module's source file URL (relative to
 *   the bundle, so the checkout may move), so files found next to a module (migrations, menu
 *   styles, pdf.js fonts, console/dist) are found from dist/ as from the sources;
 * - the thread entries (*.mjs wrappers) register tsx to load their TypeScript task; in a bundle
 *   the task is already JavaScript, so `tsx/esm/api` is replaced by a register() that does nothing.
 * The bundles define QRLINKS_COMPILED, by which platform/process/runnable.ts starts the compiled
 * sibling of a thread or child entry.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, extname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
const STAMP = '.source-hash';

/** Every entry: processes, then the worker threads and the child process they start. */
const ENTRIES = [
  'main.ts',
  'cli/prepare.ts',
  'api/server.ts',
  'redirect/server.ts',
  'workers/server.ts',
  'cli/index.ts',
  'cli/migrate.ts',
  'console/build.ts',
  'redirect/page-render-worker.mjs',
  'infra/qr/render-worker.mjs',
  'platform/images/pdf-preview-worker.mjs',
  'api/json-body-worker.mjs',
  'platform/geo/geo-table-build.ts',
];
/** The menu page's browser script, compiled as redirect/pages/menu/script.ts compiles it. */
const MENU_CLIENT = 'redirect/pages/menu/client.ts';

/** What the bundles are made from: a change to any of these makes `--if-stale` build. */
const INPUTS = [
  'api',
  'redirect',
  'workers',
  'cli',
  'infra',
  'domain',
  'platform',
  'console/build.ts',
  'main.ts',
  'scripts/build.mjs',
  'package-lock.json',
];

async function filesOf(path) {
  const full = join(ROOT, path);
  if (!existsSync(full)) return [];
  if (!(await readdir(full).catch(() => null))) return [full];
  const entries = await readdir(full, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && !e.parentPath.split(sep).includes('node_modules')).map((e) => join(e.parentPath, e.name));
}

export async function sourceHash() {
  const files = (await Promise.all(INPUTS.map(filesOf))).flat().sort();
  const hash = createHash('sha256');
  for (const file of files)
    hash
      .update(relative(ROOT, file))
      .update('\0')
      .update(await readFile(file))
      .update('\0');
  return hash.digest('hex');
}

const outputOf = (entry) => entry.replace(/\.(ts|mjs)$/, '.js');

/**
 * Packages inlined into the bundles instead of left to node_modules. drizzle-orm is ~450 modules
 * under one 175 KB package.json, and Node 22.21+/24 parses a package's package.json again for
 * each module it loads from it (nodejs/node#60397): on Node 24 importing drizzle-orm took ~2 s of
 * CPU and ~220 MB of peak resident memory in every process that uses it, against ~0.3 s and
 * ~50 MB on Node 20. Inlined, Node loads none of its modules. (package-lock.json is an input of the
 * source hash, so a new drizzle-orm rebuilds.)
 */
const INLINED_PACKAGES = new Set(['drizzle-orm']);

/** `packages: 'external'`, except the INLINED_PACKAGES. */
function externalPackages() {
  return {
    name: 'qrlinks-external-packages',
    setup(build) {
      build.onResolve({ filter: /^[^./#]/ }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        const parts = args.path.split('/');
        const name = args.path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
        return INLINED_PACKAGES.has(name) ? undefined : { path: args.path, external: true };
      });
    },
  };
}

/** The esbuild plugin behind the two rewrites above, for the bundle written to `outfile`. */
function sourcePaths(outfile) {
  const loaders = { '.ts': 'ts', '.tsx': 'tsx', '.mts': 'ts', '.mjs': 'js', '.js': 'js' };
  return {
    name: 'qrlinks-source-paths',
    setup(build) {
      build.onResolve({ filter: /^tsx\/esm\/api$/ }, () => ({ path: 'tsx-esm-api', namespace: 'qrlinks-compiled' }));
      build.onLoad({ filter: /.*/, namespace: 'qrlinks-compiled' }, () => ({
        contents: 'export function register() {}',
        loader: 'js',
      }));
      build.onLoad({ filter: /\.(ts|tsx|mts|mjs|js)$/ }, async (args) => {
        if (args.path.split(sep).includes('node_modules')) return undefined;
        const text = await readFile(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        const fromBundle = relative(dirname(outfile), args.path).split(sep).join('/');
        return {
          contents: text.replace(/\bimport\.meta\.url\b/g, `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`),
          loader: loaders[extname(args.path)],
        };
      });
    },
  };
}

/** Why a build cannot be made here: the tool it needs is not installed. Known by its name. */
class BuildToolMissing extends Error {
  name = 'BuildToolMissing';
}

/**
 * A build tool (a development dependency), imported only when a build is needed; without it (after
 * `npm ci --omit=dev`) a BuildToolMissing naming what was to be built and how to get it.
 * console/build.ts does the same for Vite.
 */
async function importBuildTool(name, what) {
  try {
    return await import(name);
  } catch (err) {
    if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !String(err.message).includes(`'${name}'`)) throw err;
    throw new BuildToolMissing(
      `${what} must be built (its sources changed since the last build, or it was never built), but ${name} is not installed: ` +
        'it is a development dependency, absent after npm ci --omit=dev. Run npm ci and npm run build, or copy in the dist/, ' +
        'console/dist and node_modules/.cache/qrlinks of a build made from these sources',
    );
  }
}

const loadEsbuild = () => importBuildTool('esbuild', 'dist/ (the compiled server)');

export async function build() {
  const esbuild = await loadEsbuild();
  const hash = await sourceHash();
  const out = join(ROOT, `.dist-${process.pid}-${Date.now()}`);
  try {
    await Promise.all(
      ENTRIES.map((entry) => {
        const outfile = join(out, outputOf(entry));
        return esbuild.build({
          entryPoints: [join(ROOT, entry)],
          outfile,
          bundle: true,
          platform: 'node',
          format: 'esm',
          target: 'node20',
          sourcemap: true,
          // The sources are in the image beside dist/; a map that only points at them is much smaller.
          sourcesContent: false,
          define: { QRLINKS_COMPILED: 'true' },
          plugins: [externalPackages(), sourcePaths(join(DIST, outputOf(entry)))],
          logLevel: 'warning',
        });
      }),
    );
    const { MENU_CLIENT_OPTIONS } = await import(pathToFileURL(join(ROOT, 'redirect/pages/menu/client-build.mjs')).href);
    const { code } = await esbuild.transform(await readFile(join(ROOT, MENU_CLIENT), 'utf8'), MENU_CLIENT_OPTIONS);
    await mkdir(dirname(join(out, outputOf(MENU_CLIENT))), { recursive: true });
    await writeFile(join(out, outputOf(MENU_CLIENT)), code);
    await writeFile(join(out, STAMP), hash);
    // Swapped in whole: a process starting a thread meanwhile finds the old build or the new one.
    const old = join(ROOT, `.dist-old-${process.pid}-${Date.now()}`);
    if (existsSync(DIST)) await rename(DIST, old);
    await rename(out, DIST);
    await rm(old, { recursive: true, force: true });
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

export async function isStale() {
  const built = await readFile(join(DIST, STAMP), 'utf8').catch(() => null);
  return built !== (await sourceHash());
}

async function main() {
  const ifStale = process.argv.includes('--if-stale');
  if (!ifStale || (await isStale())) {
    const started = Date.now();
    // Without esbuild, its one line is all that is said (not that a compile starts first).
    await loadEsbuild();
    if (ifStale) process.stderr.write('qrlinks: compiling the server into dist/ (the sources changed since the last build)\n');
    await build();
    process.stderr.write(`qrlinks: compiled ${ENTRIES.length} entries into dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
  if (!ifStale) {
    const { ensureConsoleBuilt } = await import(pathToFileURL(join(DIST, 'console/build.js')).href);
    const result = await ensureConsoleBuilt((line) => process.stderr.write(`qrlinks: ${line}\n`));
    process.stderr.write(`qrlinks: console ${result === 'built' ? 'built' : 'already current'} (console/dist)\n`);
    // The image's roles start without npm start's preparation, so the geo table is made here.
    const { ensureGeoTable, describeGeoTableBuild } = await import(pathToFileURL(join(DIST, 'platform/geo/geo-table-build.js')).href);
    const geo = ensureGeoTable();
    process.stderr.write(`qrlinks: ${geo ? describeGeoTableBuild(geo) : 'geo table already current'}\n`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await main().catch((err) => {
    // This file's and the console build's (console/build.ts) alike: one line, no stack.
    if (err?.name !== 'BuildToolMissing') throw err;
    process.stderr.write(`qrlinks: ${err.message}\n`);
    process.exit(1);
  });
}
