/**
 * The supervisor behind `npm start`: api, redirect and worker as child processes, each restarted
 * with backoff when it dies, so one crashed role is a short gap in that role, not an outage of
 * the whole (the others keep serving meanwhile). A role that keeps dying (more than `maxRestarts`
 * exits within `windowMs`) stops everything with a line that says so: restarting it for ever would
 * hide a broken setup behind a log nobody reads.
 *
 * Roles say they serve by sending `{qrlinks: 'ready'}` over the IPC channel (`announceReady`, once
 * they listen or their queues run); "running" is printed once every role has, and not before.
 * SIGTERM/SIGINT stop every role (each drains) and then the supervisor.
 *
 * Imports nothing but Node's own modules: the supervisor lives as long as the service, and what
 * it loads it holds for that long.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface RoleSpec {
  name: string;
  /** The role's entry module. */
  entry: URL;
  /** Node options of the role's process, after the supervisor's own (which carry tsx under tests). */
  nodeOptions?: string[];
  /** Defaults for the role's environment; the supervisor's environment wins where it sets the same name. */
  env?: Record<string, string>;
}

export interface SupervisorOptions {
  /** Environment of every role. */
  env: NodeJS.ProcessEnv;
  /** First restart delay; doubled for each further exit inside the window. */
  restartDelayMs: number;
  restartMaxDelayMs: number;
  /** Exits of one role tolerated inside `windowMs`; one more stops the whole. */
  maxRestarts: number;
  windowMs: number;
  /** Printed once every role is ready. */
  runningMessage: string;
  log: (line: string) => void;
}

/** What the preparation child (cli/prepare.ts) hands the supervisor before it exits. */
export interface Preparation extends Omit<SupervisorOptions, 'env' | 'log'> {
  /** Set in every role's environment. */
  env: Record<string, string>;
  /** Removed from every role's environment. */
  unset: string[];
}

/**
 * Runs the preparation entry to its end; resolves with what it handed over, or with the exit code
 * to exit with when it failed (its own lines on stderr say why) or was stopped by SIGTERM/SIGINT.
 */
export function prepare(entry: URL): Promise<Preparation | number> {
  return new Promise((resolve) => {
    const child = fork(fileURLToPath(entry), { stdio: 'inherit' });
    let preparation: Preparation | null = null;
    let stopped = false;
    const stop = () => {
      stopped = true;
      child.kill('SIGTERM');
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    child.on('message', (message) => {
      const m = message as { qrlinks?: unknown; preparation?: Preparation } | null;
      if (m?.qrlinks === 'prepared' && m.preparation) preparation = m.preparation;
    });
    child.on('exit', (code) => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      if (stopped) resolve(0);
      else if (code === 0 && preparation) resolve(preparation);
      else resolve(code || 1);
    });
  });
}

/** A role tells its supervisor (if it has one) that it serves. */
export function announceReady(): void {
  process.send?.({ qrlinks: 'ready' });
}

interface RoleState {
  spec: RoleSpec;
  child: ChildProcess | null;
  exits: number[];
  restartTimer: NodeJS.Timeout | null;
  ready: boolean;
}

/** Starts the roles; resolves with the exit code once they have all stopped for good. */
export function supervise(roles: RoleSpec[], options: SupervisorOptions): Promise<number> {
  const states = roles.map((spec): RoleState => ({ spec, child: null, exits: [], restartTimer: null, ready: false }));
  let stopping = false;
  let announced = false;
  let exitCode = 0;
  let finish: (code: number) => void;
  const finished = new Promise<number>((resolve) => (finish = resolve));

  const start = (state: RoleState) => {
    state.restartTimer = null;
    const child = fork(fileURLToPath(state.spec.entry), {
      env: { ...state.spec.env, ...options.env },
      stdio: 'inherit',
      execArgv: [...process.execArgv, ...(state.spec.nodeOptions ?? [])],
    });
    state.child = child;
    options.log(`${state.spec.name} started (pid ${child.pid})`);
    child.on('message', (message) => {
      if ((message as { qrlinks?: unknown } | null)?.qrlinks !== 'ready') return;
      if (state.exits.length > 0) options.log(`${state.spec.name} is serving again (pid ${child.pid})`);
      state.ready = true;
      if (!announced && states.every((s) => s.ready)) {
        announced = true;
        options.log(options.runningMessage);
      }
    });
    child.on('exit', (code, signal) => {
      state.child = null;
      state.ready = false;
      if (stopping) return settle();
      const now = Date.now();
      state.exits = [...state.exits.filter((at) => now - at < options.windowMs), now];
      const how = signal ?? `code ${code}`;
      if (state.exits.length > options.maxRestarts) {
        options.log(
          `${state.spec.name} exited (${how}) ${state.exits.length} times within ${Math.round(options.windowMs / 1000)} s; ` +
            `stopping qrlinks. Its log lines above say why.`,
        );
        exitCode = 1;
        return stop('SIGTERM');
      }
      const delay = Math.min(options.restartDelayMs * 2 ** (state.exits.length - 1), options.restartMaxDelayMs);
      options.log(`${state.spec.name} exited (${how}); restarting it in ${(delay / 1000).toFixed(1)} s; the other roles keep serving`);
      state.restartTimer = setTimeout(() => start(state), delay);
    });
  };

  const settle = () => {
    if (states.every((s) => s.child === null)) finish(exitCode);
  };

  const stop = (signal: NodeJS.Signals) => {
    stopping = true;
    for (const state of states) {
      if (state.restartTimer) clearTimeout(state.restartTimer);
      state.restartTimer = null;
      state.child?.kill(signal);
    }
    settle();
  };

  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGTERM'));
  for (const state of states) start(state);
  return finished;
}
