// Entry of a QR render thread. Threads start without the parent's TypeScript loader in some
// hosts (test runners), so register tsx here, then load the task written in TypeScript.
import { register } from 'tsx/esm/api';
import { lowerThreadPriority } from '../../platform/process/thread-priority.mjs';

// Renders are batch work: a bulk job of thousands of codes must never take CPU from request
// handling, e.g. a redirect process on the same machine.
lowerThreadPriority();
register();
const { renderTask } = await import('../../domain/qr/render-task.ts');

export default renderTask;
