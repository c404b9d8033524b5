/**
 * `npm start`: the whole service on one machine, as a small supervisor that stays and loads no
 * framework. A short-lived child (cli/prepare.ts) checks that Postgres and Redis answer, applies
 * migrations once and builds the browser console if its sources changed, then exits; the
 * supervisor then runs api, redirect and worker as separate processes (so a CPU-bound job never
 * blocks request handling) and restarts a role that dies (platform/process/supervisor.ts). SIGTERM
 * is passed to every role, and each drains before exiting. Under `npm start` this runs compiled
 * (dist/main.js, scripts/build.mjs); under tsx (tests) the same code starts the .ts entries.
 */
import { runnable } from './platform/process/runnable.js';
import { prepare, supervise } from './platform/process/supervisor.js';

const entry = (source: string) => runnable(new URL(source, import.meta.url));
/**
 * A young generation of 1 MB semi-spaces instead of up to 16: the api and the worker hold ~30 MB
 * less each when idle (docs/benchmarks.md, "Memory of the npm start tree"); neither answers scans,
 * the one path where a few more scavenges would be felt. The image's commands carry the same flag.
 */
const SMALL_YOUNG_GENERATION = ['--max-semi-space-size=1'];
/**
 * Two glibc malloc arenas instead of up to eight per core: the native threads of the api and the
 * worker (libuv's pool, sharp) each took an arena and kept it; 13 MB less between the two
 * (docs/decisions/0344). Not the redirect: its scan path's CPU per request read higher with it.
 */
const FEW_MALLOC_ARENAS = { MALLOC_ARENA_MAX: '2' };

const preparation = await prepare(entry('./cli/prepare.ts'));
if (typeof preparation === 'number') process.exit(preparation);

const env: NodeJS.ProcessEnv = { ...process.env, ...preparation.env };
for (const name of preparation.unset) delete env[name];
process.exitCode = await supervise(
  [
    { name: 'api', entry: entry('./api/server.ts'), nodeOptions: SMALL_YOUNG_GENERATION, env: FEW_MALLOC_ARENAS },
    { name: 'redirect', entry: entry('./redirect/server.ts') },
    { name: 'worker', entry: entry('./workers/server.ts'), nodeOptions: SMALL_YOUNG_GENERATION, env: FEW_MALLOC_ARENAS },
  ],
  { ...preparation, env, log: (line) => process.stdout.write(`${line}\n`) },
);
