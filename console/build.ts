/**
 * Builds the browser console (console/src) with Vite into console/dist, which the api serves
 * (api/console.ts). `ensureConsoleBuilt` rebuilds only when the console's sources or the
 * dependency lock changed since the last build (a hash kept beside the output), so `npm start`
 * calls it every time at little cost. A build is written to a fresh folder and swapped in whole,
 * so an api serving the old one never sees half of the new one.
 *
 * Vite (and Preact, uPlot and the other packages only the browser bundle holds) are development
 * dependencies (decision 0423): Vite is imported only when a build is needed. A production install
 * (`npm ci --omit=dev`) runs with a console/dist built elsewhere; if that one is stale there, the
 * build fails with one line saying so (the preparation then serves the previous build).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const CONSOLE_DIR = dirname(fileURLToPath(import.meta.url));
export const CONSOLE_DIST_DIR = join(CONSOLE_DIR, 'dist');
const STAMP = '.source-hash';

/** The built files that are text, served compressed (api/console.ts); images and fonts already are. */
export const PRECOMPRESSED_EXTENSIONS = new Set(['.html', '.js', '.css', '.svg', '.json', '.webmanifest']);
/** Each compressed copy sits beside its file with one of these suffixes, by content coding. */
export const PRECOMPRESSED_SUFFIX = { br: '.br', gzip: '.gz' } as const;

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Writes a brotli and a gzip copy beside every text file of the build, at the highest levels: the
 * files are immutable per build, so they are compressed once here and never per request. A copy
 * that would not be smaller is not written (the api then sends the file as it is).
 */
async function precompress(dir: string): Promise<void> {
  for (const file of await filesUnder(dir)) {
    if (!PRECOMPRESSED_EXTENSIONS.has(extname(file))) continue;
    const bytes = await readFile(file);
    const copies = {
      br: await brotliAsync(bytes, {
        params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
      }),
      gzip: await gzipAsync(bytes, { level: constants.Z_BEST_COMPRESSION }),
    };
    for (const coding of ['br', 'gzip'] as const)
      if (copies[coding].length < bytes.length) await writeFile(file + PRECOMPRESSED_SUFFIX[coding], copies[coding]);
  }
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/**
 * A hash of everything the build reads: the console's sources, the shared code it bundles (the QR
 * renderer, link data rules, the cafe bulk-insert schema, the colour rules: all of domain/ and platform/, so none is missed), this
 * file and the dependency lock.
 */
async function sourceHash(): Promise<string> {
  const files = [
    ...(await filesUnder(join(CONSOLE_DIR, 'src'))),
    ...(await filesUnder(join(CONSOLE_DIR, '..', 'domain'))),
    ...(await filesUnder(join(CONSOLE_DIR, '..', 'platform'))),
    join(CONSOLE_DIR, 'index.html'),
    fileURLToPath(import.meta.url),
    join(CONSOLE_DIR, '..', 'package-lock.json'),
  ];
  const hash = createHash('sha256');
  for (const file of files.sort())
    hash
      .update(relative(CONSOLE_DIR, file))
      .update('\0')
      .update(await readFile(file))
      .update('\0');
  return hash.digest('hex');
}

/** Why the console cannot be built here: Vite is not installed. Known by its name (scripts/build.mjs). */
class BuildToolMissing extends Error {
  override name = 'BuildToolMissing';
}

/** Vite, imported when a build is needed; without it, a BuildToolMissing saying what to do. */
async function importVite(): Promise<typeof import('vite')> {
  try {
    return await import('vite');
  } catch (err) {
    const { code, message } = err as NodeJS.ErrnoException;
    if (code !== 'ERR_MODULE_NOT_FOUND' || !message.includes("'vite'")) throw err;
    throw new BuildToolMissing(
      'console/dist (the browser console) must be built (console/src changed since the last build, or it was never built), ' +
        'but vite is not installed: it is a development dependency, absent after npm ci --omit=dev. Run npm ci and ' +
        'npm run build, or copy in the console/dist of a build made from these sources',
    );
  }
}

export async function ensureConsoleBuilt(log: (line: string) => void = () => {}): Promise<'current' | 'built'> {
  const hash = await sourceHash();
  const built = await readFile(join(CONSOLE_DIST_DIR, STAMP), 'utf8').catch(() => null);
  if (built === hash) return 'current';
  const { build } = await importVite();
  log('building the console (console/src changed since the last build)');
  const outDir = join(CONSOLE_DIR, `.dist-${process.pid}-${Date.now()}`);
  try {
    await build({
      configFile: false,
      root: CONSOLE_DIR,
      base: '/',
      logLevel: 'warn',
      oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
      build: { outDir, emptyOutDir: true, assetsDir: 'assets', target: 'es2022', reportCompressedSize: false },
    });
    await precompress(outDir);
    await writeFile(join(outDir, STAMP), hash);
    await rm(CONSOLE_DIST_DIR, { recursive: true, force: true });
    await rename(outDir, CONSOLE_DIST_DIR).catch(async (err: NodeJS.ErrnoException) => {
      // Another process building the same sources at once swapped its build in first: that one serves.
      const theirs = await readFile(join(CONSOLE_DIST_DIR, STAMP), 'utf8').catch(() => null);
      if (theirs !== hash) throw err;
    });
  } finally {
    if (existsSync(outDir)) await rm(outDir, { recursive: true, force: true });
  }
  return 'built';
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await ensureConsoleBuilt((line) => process.stdout.write(`${line}\n`)).catch((err: unknown) => {
    if (!(err instanceof BuildToolMissing)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  });
  process.stdout.write(`console ${result === 'built' ? 'built' : 'already current'}: ${relative(process.cwd(), CONSOLE_DIST_DIR)}\n`);
}
