/**
 * The menu page's script (client.ts, type-checked as browser code) compiled to the JavaScript the
 * page inlines. Its CSP hash is taken from exactly these bytes, so the page and the framed preview
 * allow the script they serve and nothing else. Compiled by scripts/build.mjs when the server runs
 * from dist/ (read once here); under tsx compiled once per process on first use.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { COMPILED, runnable } from '#platform/process/runnable.js';
import { contentSecurityPolicy, PageScript } from '../common/layout.js';
import { MENU_CLIENT_OPTIONS } from './client-build.mjs';

let compiled: PageScript | undefined;

function compile(): string {
  const client = new URL('./client.ts', import.meta.url);
  if (COMPILED) return readFileSync(runnable(client), 'utf8');
  // Required here, not imported: a compiled server never loads esbuild (nor starts its service process).
  const { transformSync } = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
  return transformSync(readFileSync(client, 'utf8'), MENU_CLIENT_OPTIONS).code;
}

/** The compiled filter script; the same bytes (and hash) for a given client.ts and esbuild. */
export function menuScript(): PageScript {
  compiled ??= new PageScript(compile().trimEnd());
  return compiled;
}

/** The menu page's policy when `frameAncestor` (the console's origin) shows it as a preview in a frame. */
export const framedMenuPolicy = (frameAncestor: string) => contentSecurityPolicy({ scriptHashes: [menuScript().hash], frameAncestor });
