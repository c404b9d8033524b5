// Entry of a QR render thread. Threads start without the parent's TypeScript loader in some
// hosts (test runners), so register tsx here, then load the task written in TypeScript.
import { constants, setPriority } from 'node:os';
import { register } from 'tsx/esm/api';

// Renders are batch work: a bulk job of thousands of codes must never take CPU from request
// handling, e.g. a redirect process on the same machine. So this thread runs at the lowest CPU
// priority (nice 19). Only on Linux, where the nice value belongs to each thread and pid 0 means
// the calling thread; elsewhere (macOS, Windows) it would slow the whole process, event loop
// included. Where the system refuses, the thread keeps the normal priority.
if (process.platform === 'linux') {
  try {
    setPriority(0, constants.priority.PRIORITY_LOW);
  } catch {
    // not permitted here: render at normal priority
  }
}

register();
const { renderTask } = await import('./render-task.ts');

export default renderTask;
