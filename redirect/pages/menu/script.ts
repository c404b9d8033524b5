/**
 * The menu page's script (client.ts, type-checked as browser code) compiled to the JavaScript the
 * page inlines, once per process on first use. Its CSP hash is taken from exactly these bytes, so
 * the page and the framed preview allow the script they serve and nothing else.
 */
import { readFileSync } from 'node:fs';
import { transformSync } from 'esbuild';
import { contentSecurityPolicy, PageScript } from '../layout.js';

let compiled: PageScript | undefined;

/** The compiled filter script; the same bytes (and hash) for a given client.ts and esbuild. */
export function menuScript(): PageScript {
  if (!compiled) {
    const source = readFileSync(new URL('./client.ts', import.meta.url), 'utf8');
    const { code } = transformSync(source, {
      loader: 'ts',
      format: 'iife',
      target: 'es2020',
      minify: true,
      legalComments: 'none',
      charset: 'utf8',
    });
    compiled = new PageScript(code.trimEnd());
  }
  return compiled;
}

/** The menu page's policy when `frameAncestor` (the console's origin) shows it as a preview in a frame. */
export const framedMenuPolicy = (frameAncestor: string) => contentSecurityPolicy({ scriptHashes: [menuScript().hash], frameAncestor });
