/** What one render thread does with one task: options in, image bytes (PNG) or text (SVG) out. */
import type { ResolvedQrOptions } from './options.js';
import { renderPng, renderSvg, type QrImage } from './render/index.js';

export type QrFormat = 'png' | 'svg';

export interface RenderTask {
  format: QrFormat;
  options: ResolvedQrOptions;
  image: QrImage | null;
}

export type RenderOutcome = { ok: true; body: Uint8Array } | { ok: false; path: string; message: string };

export function renderTask(task: RenderTask): RenderOutcome {
  // Crossing into the thread turns a Buffer into a plain Uint8Array; the renderer needs a Buffer.
  const image = task.image && {
    ...task.image,
    data: Buffer.from(task.image.data.buffer, task.image.data.byteOffset, task.image.data.byteLength),
  };
  try {
    const body = task.format === 'png' ? renderPng(task.options, image) : Buffer.from(renderSvg(task.options, image));
    return { ok: true, body };
  } catch (err) {
    // A render error that names an option is the user's to fix (400); errors cross the thread
    // boundary as plain data so their class is not lost.
    const e = err as { path?: unknown; message?: string };
    if (typeof e.path === 'string') return { ok: false, path: e.path, message: e.message ?? 'Cannot render' };
    throw err;
  }
}
