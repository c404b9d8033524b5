/**
 * The layers, top to bottom: entry processes (api/, redirect/, workers/, cli/, main.ts) over the
 * adapters and composition root (infra/) over the domain (domain/) over the platform (platform/).
 * An import may point down or sideways within its own layer, never up, and never round in a
 * cycle. The console (console/src) is a browser app: it speaks to the api over HTTP and may bundle
 * pure domain rules, nothing of the server.
 */
const ENTRIES = '^(api|redirect|workers|cli)/|^main\\.ts$';
const INFRA = '^infra/';
const FASTIFY = '^node_modules/(fastify|@fastify/|fastify-plugin|fastify-type-provider-zod)';

/**
 * What the domain may not import (docs/decisions/0421): the Postgres driver (the domain queries
 * through Drizzle), the queue, thread and process machinery, image libraries, the file system and
 * the network. They are reached through platform/ and infra/.
 */
const INFRASTRUCTURE_PACKAGES =
  '^node_modules/(pg|pg-[^/]+|bullmq|ioredis|piscina|sharp|maxmind|minio|nodemailer|@napi-rs/canvas|pdfjs-dist|archiver)/';
/** Server-side packages besides the infrastructure ones: the ORM, the HTTP framework, the logger. */
const NODE_ONLY_PACKAGES = '^node_modules/(drizzle-orm|fastify|@fastify/|pino|bcrypt|tsx)/';
const INFRASTRUCTURE_CORE = '^(fs|fs/promises|child_process|worker_threads|cluster|net|tls|http|https|http2|dgram|os)$';

/**
 * Counted exceptions to domain-sql-through-drizzle: the modules that run SQL of their own on the
 * pool (the scan path's hot statements, the ingester's COPY, the export's cursor), and the
 * database handle that carries the pool. The list may only shrink.
 */
const RAW_SQL_IN_DOMAIN = [
  '^domain/database\\.ts$',
  '^domain/analytics/export\\.ts$',
  '^domain/cafes/published-menu\\.ts$',
  '^domain/links/resolve/link-resolver\\.ts$',
  '^domain/links/resolve/load\\.ts$',
  '^domain/links/resolve/scan-limit\\.ts$',
  '^domain/scans/batch-acks\\.ts$',
  '^domain/scans/ingest\\.ts$',
];

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
      comment:
        'The domain returns plain values; the entry processes speak HTTP, pages and jobs; infra/ builds on the domain, not under it.',
      from: { path: '^domain/' },
      to: { path: [ENTRIES, INFRA, '^console/'] },
    },
    {
      name: 'domain-no-infrastructure',
      severity: 'error',
      comment: 'The domain touches no driver, thread, process, file or socket itself: platform/ and infra/ do (decision 0421).',
      from: { path: '^domain/' },
      to: { path: [INFRASTRUCTURE_PACKAGES, INFRASTRUCTURE_CORE] },
    },
    {
      name: 'domain-sql-through-drizzle',
      severity: 'error',
      comment:
        'The domain queries Postgres through Drizzle; raw SQL on the pool only in the counted files in RAW_SQL_IN_DOMAIN (decision 0421).',
      from: { path: '^domain/', pathNot: RAW_SQL_IN_DOMAIN },
      to: { path: '^platform/database/raw\\.ts$' },
    },
    {
      name: 'infra-not-up',
      severity: 'error',
      comment: 'The adapters and the composition root serve every entry process and know none of them.',
      from: { path: INFRA },
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
      to: { path: ['^domain/', INFRA, ENTRIES, '^console/'] },
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
      to: { path: [ENTRIES, INFRA, '^platform/'] },
    },
    {
      name: 'console-browser-safe',
      severity: 'error',
      comment:
        'What the console bundles of the domain runs in a browser: nothing it reaches, however indirectly, needs Node, a driver or a server package (decision 0424).',
      from: { path: '^console/src/' },
      to: { reachable: true, path: [INFRASTRUCTURE_PACKAGES, INFRASTRUCTURE_CORE, NODE_ONLY_PACKAGES, '^node:', '^platform/'] },
    },
    {
      name: 'cross-folder-by-alias',
      severity: 'error',
      comment: 'An import into another top-level folder names it by its package.json alias (#domain/…), not by ../ (decision 0422).',
      from: { path: '^(api|redirect|workers|cli|infra|domain|platform|console)/', pathNot: '\\.mjs$' },
      to: { dependencyTypes: ['local'], dependencyTypesNot: ['aliased'], pathNot: ['^$1/', '^(assets|docs|db|data|node_modules)/'] },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true, pathNot: '\\.css$' },
    },
  ],
  // A listed exception that no longer imports what it is excused for must leave its list: the
  // counts in decision 0421 only go down.
  required: [
    {
      name: 'raw-sql-exception-still-used',
      severity: 'error',
      module: { path: RAW_SQL_IN_DOMAIN },
      to: { path: '^platform/database/raw\\.ts$' },
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
