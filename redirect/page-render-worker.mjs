// Entry of the redirect's page render thread. Threads start without the parent's TypeScript loader
// in some hosts (test runners), so register tsx here, then load the task written in TypeScript.
import { register } from 'tsx/esm/api';

register();
const { renderPageTask } = await import('./page-render-task.ts');

export default renderPageTask;
