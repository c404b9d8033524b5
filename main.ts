/**
 * `npm start`: the whole service on one machine, as a small supervisor that stays and loads no
 * framework. A short-lived child (cli/prepare.ts) checks that Postgres and Redis answer, applies
 * migrations once and builds the browser console if its sources changed, then exits; the
 * supervisor then runs api, redirect and worker as separate processes (so a CPU-bound job never
 * blocks request handling) and restarts a role that dies (platform/process/supervisor.ts). SIGTERM
 * is passed to every role, and each drains before exiting. Under `npm start` this runs compiled
 * (dist/main.js, scripts/build.mjs); under tsx (tests) the same code starts the .ts entries.
 */
import { nodeSupportWarning } from './platform/process/node-support.js';
import { runnable } from './platform/process/runnable.js';
import { ROLE_RUNTIME } from './platform/process/role-runtime.js';
import { prepare, supervise } from './platform/process/supervisor.js';

const entry = (source: string) => runnable(new URL(source, import.meta.url));

const preparation = await prepare(entry('./cli/prepare.ts'));
if (typeof preparation === 'number') process.exit(preparation);

// Once, here, after the configuration proved good (a bad one is still the only line on stderr);
// the roles the supervisor starts do not repeat it.
const warning = nodeSupportWarning();
if (warning) process.stderr.write(`${warning}\n`);

const env: NodeJS.ProcessEnv = { ...process.env, ...preparation.env };
for (const name of preparation.unset) delete env[name];
process.exitCode = await supervise(
  (['api', 'redirect', 'worker'] as const).map((name) => ({ ...ROLE_RUNTIME[name], name, entry: entry(`./${ROLE_RUNTIME[name].entry}`) })),
  { ...preparation, env, log: (line) => process.stdout.write(`${line}\n`) },
);
