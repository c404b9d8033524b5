/** A fix's changed members merged into a stored design (auto-fix.ts makes the patch). */
import type { QrOptions } from '../options.js';

/** `patch` over the stored design: what a client saves to apply a fix. */
export function applyPatch(options: QrOptions, patch: QrOptions): QrOptions {
  const out: Record<string, unknown> = { ...options };
  for (const [key, value] of Object.entries(patch)) {
    const own = (options as Record<string, unknown>)[key];
    out[key] = value && typeof value === 'object' && own && typeof own === 'object' ? { ...own, ...value } : value;
  }
  // A fix to black removes the gradients the colours came from.
  for (const part of ['dotsOptions', 'cornersSquareOptions', 'cornersDotOptions', 'backgroundOptions']) {
    const p = patch as Record<string, { color?: string } | undefined>;
    if (p[part]?.color && out[part]) delete (out[part] as { gradient?: unknown }).gradient;
  }
  return out;
}
