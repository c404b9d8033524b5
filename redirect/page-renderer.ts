/**
 * The redirect's render thread: landing pages (HTML to sanitize) and cafe menus (thousands of
 * items) are made here, once per version (page-cache.ts keeps them), never on the event loop that
 * answers every scan. One thread by default: a page is made after each edit, not per scan, and
 * the thread's heap is capped, so one huge page costs at most that thread, never the process.
 * The thread starts on the first render and stops after a minute without one: compiled (dist/),
 * starting it takes ~0.1-0.2 s, while an idle thread holds ~16 MB for the life of the process
 * (docs/benchmarks.md, "Memory of the npm start tree").
 *
 * Shared fairly between accounts: renders wait in one lane per account, and a free thread takes
 * the next render of the lane at the front, which then goes to the back, so accounts take turns:
 * one account's backlog (many links edited at once) delays another account's page by the renders
 * already running and at most one more of each account waiting, never by the backlog. Piscina
 * itself never queues: a task goes to it only when a thread is free.
 */
import { Piscina } from 'piscina';
import { runnable } from '#platform/process/runnable.js';
import type { PageRenderTask, RenderedPage } from './page-render-task.js';

/** Heap one render may use (a 5000-item menu with every text field full takes about a fifth of it). */
const RENDER_HEAP_MB = 512;

export interface PageRenderer {
  /** The page `task` describes, made for `accountId` (the owner of the link). */
  render(accountId: string, task: PageRenderTask): Promise<RenderedPage>;
  close(): Promise<void>;
}

interface Waiting {
  task: PageRenderTask;
  resolve: (page: RenderedPage) => void;
  reject: (err: unknown) => void;
}

export function createPageRenderer(threads: number): PageRenderer {
  const pool = new Piscina<PageRenderTask, RenderedPage>({
    filename: runnable(new URL('./page-render-worker.mjs', import.meta.url)).href,
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: 60_000,
    resourceLimits: { maxOldGenerationSizeMb: RENDER_HEAP_MB },
  });
  // Accounts with renders waiting, in turn (a Map keeps insertion order).
  const lanes = new Map<string, Waiting[]>();
  let running = 0;

  const dispatch = () => {
    while (running < threads && lanes.size > 0) {
      const [accountId, lane] = lanes.entries().next().value!;
      const next = lane.shift()!;
      lanes.delete(accountId);
      if (lane.length > 0) lanes.set(accountId, lane); // to the back: the others go first
      running++;
      pool
        .run(next.task)
        .then(next.resolve, next.reject)
        .finally(() => {
          running--;
          dispatch();
        });
    }
  };

  return {
    render: (accountId, task) =>
      new Promise<RenderedPage>((resolve, reject) => {
        const lane = lanes.get(accountId);
        if (lane) lane.push({ task, resolve, reject });
        else lanes.set(accountId, [{ task, resolve, reject }]);
        dispatch();
      }),
    async close() {
      for (const lane of lanes.values()) for (const waiting of lane) waiting.reject(new Error('page renderer closed'));
      lanes.clear();
      await pool.destroy();
    },
  };
}
