// Entry of the redirect's page render thread. Threads start without the parent's TypeScript loader
// in some hosts (test runners), so register tsx here, then load the task written in TypeScript.
import { register } from 'tsx/esm/api';
import { lowerThreadPriority } from '../platform/process/thread-priority.mjs';

// A page is made once per edit, for the one account that edited: the scans of every account,
// answered on the event loop, come first.
lowerThreadPriority();
register();
const { renderPageTask } = await import('./page-render-task.ts');

export default renderPageTask;
