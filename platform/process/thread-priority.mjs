// Plain JavaScript: thread entries call it before they register tsx.
import { constants, setPriority } from 'node:os';

/**
 * Lowers the calling worker thread to the lowest CPU priority (nice 19), so its batch work never
 * takes CPU from request handling on the same machine. Only on Linux, where the nice value belongs
 * to each thread and pid 0 means the calling thread; elsewhere (macOS, Windows) it would slow the
 * whole process, event loop included. Where the system refuses, the thread keeps its priority.
 */
export function lowerThreadPriority() {
  if (process.platform !== 'linux') return;
  try {
    setPriority(0, constants.priority.PRIORITY_LOW);
  } catch {
    // not permitted here: run at normal priority
  }
}
