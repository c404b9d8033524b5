// Plain JavaScript: scripts/build.mjs compiles the menu script with these options too, so the
// bytes (and the CSP hash taken from them) are the same whether the page is served from dist/ or
// from the sources under tsx.

/** esbuild transform options that make client.ts the script the menu page inlines. */
export const MENU_CLIENT_OPTIONS = {
  loader: 'ts',
  format: 'iife',
  target: 'es2020',
  minify: true,
  legalComments: 'none',
  charset: 'utf8',
};
