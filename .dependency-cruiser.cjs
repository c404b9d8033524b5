/**
 * The layers, top to bottom: entry processes (api/, redirect/, workers/, cli/, main.ts) over the
 * domain (domain/) over the platform (platform/). An import may point down or sideways within
 * its own layer, never up, and never round in a cycle. The console (console/src) is a browser
 * app: it speaks to the api over HTTP and may bundle pure domain rules, nothing of the server.
 */
const ENTRIES = '^(api|redirect|workers|cli)/|^main\\.ts$';
const FASTIFY = '^node_modules/(fastify|@fastify/|fastify-plugin|fastify-type-provider-zod)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle makes load order matter and every module in it depend on all the others.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-not-up',
      severity: 'error',
      comment: 'The domain returns plain values; the entry processes speak HTTP, pages and jobs.',
      from: { path: '^domain/' },
      to: { path: [ENTRIES, '^console/'] },
    },
    {
      name: 'domain-no-http-framework',
      severity: 'error',
      comment: 'Fastify belongs to the edges; the domain is called from HTTP, jobs and the CLI alike.',
      from: { path: '^domain/' },
      to: { path: FASTIFY },
    },
    {
      name: 'platform-not-up',
      severity: 'error',
      comment: 'The platform knows nothing of links, cafes or scans.',
      from: { path: '^platform/' },
      to: { path: ['^domain/', ENTRIES, '^console/'] },
    },
    {
      name: 'entries-apart',
      severity: 'error',
      comment: 'Each entry process is deployed alone; what two of them share belongs below them.',
      from: { path: '^(api|redirect|workers|cli)/' },
      to: { path: '^(api|redirect|workers|cli)/', pathNot: '^$1/' },
    },
    {
      name: 'console-not-server',
      severity: 'error',
      comment: 'The browser console reaches the server only through the generated API client.',
      from: { path: '^console/src/' },
      to: { path: [ENTRIES, '^platform/'] },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true, pathNot: '\\.css$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^console/(dist|\\.dist-)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
