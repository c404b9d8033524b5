/**
 * The redirect's render thread: landing pages (HTML to sanitize) and cafe menus (thousands of
 * items) are made here, once per version (page-cache.ts keeps them), never on the event loop that
 * answers every scan. One thread by default: a page is made after each edit, not per scan, and
 * the thread's heap is capped, so one huge page costs at most that thread, never the process.
 * The thread starts on first use and stops when idle.
 */
import { Piscina } from 'piscina';
import type { PageRenderTask, RenderedPage } from './page-render-task.js';

/** Heap one render may use (a 5000-item menu with every text field full takes about a fifth of it). */
const RENDER_HEAP_MB = 512;

export interface PageRenderer {
  render(task: PageRenderTask): Promise<RenderedPage>;
  close(): Promise<void>;
}

export function createPageRenderer(threads: number): PageRenderer {
  const pool = new Piscina<PageRenderTask, RenderedPage>({
    filename: new URL('./page-render-worker.mjs', import.meta.url).href,
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: 30_000,
    resourceLimits: { maxOldGenerationSizeMb: RENDER_HEAP_MB },
  });
  return {
    render: (task) => pool.run(task),
    close: () => pool.destroy(),
  };
}
