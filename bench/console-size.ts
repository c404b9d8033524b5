/**
 * What the browser console's first screen downloads (budget: 150 KB of JavaScript gzipped): the
 * files console/dist/index.html loads, raw and gzipped (level 6, what a proxy's default
 * compression gives, and level 9). Baseline: Preact's own runtime and hooks, gzipped the same way,
 * the floor any Preact console starts from.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CONSOLE_DIST_DIR, ensureConsoleBuilt } from '#console/build.js';
import { printTable } from './support.js';

const BUDGET_KB = 150;
const kb = (bytes: number) => (bytes / 1024).toFixed(1);

function sizes(bytes: Buffer): Array<string> {
  return [kb(bytes.length), kb(gzipSync(bytes, { level: 6 }).length), kb(gzipSync(bytes, { level: 9 }).length)];
}

export async function benchConsoleSize(): Promise<string> {
  await ensureConsoleBuilt();
  const html = await readFile(join(CONSOLE_DIST_DIR, 'index.html'), 'utf8');
  const loaded = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  const rows: Array<Array<string>> = [];
  let js = Buffer.alloc(0);
  for (const file of loaded) {
    const bytes = await readFile(join(CONSOLE_DIST_DIR, file));
    if (file.endsWith('.js')) js = Buffer.concat([js, bytes]);
    rows.push([file, ...sizes(bytes)]);
  }
  rows.push([`**first screen's JavaScript** (budget ${BUDGET_KB} KB gzipped)`, ...sizes(js)]);
  const require = createRequire(import.meta.url);
  const preact = Buffer.concat([await readFile(require.resolve('preact')), await readFile(require.resolve('preact/hooks'))]);
  rows.push(['baseline: preact + preact/hooks (their own dist files)', ...sizes(preact)]);
  return printTable('console-size: what the first screen loads', ['file', 'raw KB', 'gzip -6 KB', 'gzip -9 KB'], rows);
}
