// Entry of the api's body thread. Threads start without the parent's TypeScript loader in some
// hosts (test runners), so register tsx here, then load the task written in TypeScript. At normal
// priority, unlike the render threads: a client waits for its answer, and at the lowest one a
// busy machine made a 14 MB body wait 24 s instead of 2 s.
import { register } from 'tsx/esm/api';

register();
const { checkJsonBody } = await import('./json-body-task.ts');

export default checkJsonBody;
