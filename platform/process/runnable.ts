/**
 * Where a thread, child process or build output lives when the code runs compiled. `npm start`
 * and the image run the bundles scripts/build.mjs writes to dist/ (one per entry, plain `node`);
 * development, tests and benches run the TypeScript sources under tsx. The build defines
 * QRLINKS_COMPILED, and rewrites each module's `import.meta.url` to its source file's, so paths
 * relative to a module (migrations, styles, fonts, console/dist) resolve the same either way.
 */
declare const QRLINKS_COMPILED: boolean | undefined;

/** True inside the bundles in dist/, false under tsx. */
export const COMPILED = typeof QRLINKS_COMPILED !== 'undefined' && QRLINKS_COMPILED === true;

const ROOT = new URL('../../', import.meta.url);

/**
 * The file to start for an entry given by its source (a .ts or .mjs file of this repository): the
 * source itself under tsx, its compiled copy in dist/ (same path, .js) when running compiled.
 */
export function runnable(source: URL): URL {
  if (!COMPILED) return source;
  if (!source.href.startsWith(ROOT.href)) throw new Error(`${source.href} is not a file of this repository`);
  return new URL(`dist/${source.href.slice(ROOT.href.length).replace(/\.(ts|mjs)$/, '.js')}`, ROOT);
}
