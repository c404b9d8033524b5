/** Runs the project's real entry points as child processes, the way `npm start` and the CLI do. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * How a role is started: its compiled bundle in dist/ (what `npm start` and the image run; the
 * global setup compiles what changed before any test), which starts in well under half tsx's
 * time; an entry with no bundle (a test's own script) through tsx.
 */
function commandOf(entry: string): string[] {
  const compiled = join(ROOT, 'dist', entry.replace(/\.(ts|mjs)$/, '.js'));
  return existsSync(compiled) ? ['--enable-source-maps', compiled] : ['--import', 'tsx', entry];
}

/** Starts an entry (`cli/index.ts`) from the project root, as built, with the test env plus `env`. */
export function startEntry(entry: string, args: string[] = [], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [...commandOf(entry), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export function runEntry(entry: string, args: string[] = [], env: Record<string, string> = {}, timeoutMs = 120_000): Promise<RunResult> {
  const child = startEntry(entry, args, env);
  return collect(child, timeoutMs);
}

export function collect(child: ChildProcess, timeoutMs = 120_000): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`process did not exit within ${timeoutMs} ms; stderr: ${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      // Let the pipes drain.
      setImmediate(() => resolve({ code, stdout, stderr }));
    });
  });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function waitForHttp(url: string, timeoutMs = 120_000): Promise<Response> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fetch(url);
    } catch (err) {
      if (Date.now() > end) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Resolves once the child has exited, at once if it already has (an 'exit' event already fired is not fired again). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => child.once('exit', () => r()));
}

/** Stops a child process (SIGTERM unless told otherwise) and waits for it to exit; a process already gone is fine. */
export async function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = exited(child);
  child.kill(signal);
  await gone;
}

/**
 * Starts the worker role (workers/server.ts) and resolves once it serves its queues (it logged
 * "worker started"); its output is read on, so a full pipe never holds it up.
 */
export async function startWorkerProcess(env: Record<string, string> = {}, timeoutMs = 120_000): Promise<ChildProcess> {
  const child = startEntry('workers/server.ts', [], { LOG_LEVEL: 'info', ...env });
  let output = '';
  const read = (d: Buffer) => (output = (output + String(d)).slice(-20_000));
  child.stdout!.on('data', read);
  child.stderr!.on('data', read);
  const end = Date.now() + timeoutMs;
  while (!output.includes('"msg":"worker started"')) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > end) {
      child.kill('SIGKILL');
      throw new Error(`the worker did not start; its output: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return child;
}
