/**
 * Two speed-ups of the HTTP path lean on how Node and its V8 behave inside (tick-object-shape.ts,
 * and the response constructor in graceful.ts). They were measured on Node 20 (V8 11.3) and again
 * on Node 24 (V8 13.6; docs/decisions/0416); on another major version the same code might be
 * useless or slower, so there the plain way is used and the speed-up is left to be measured again.
 */
export const VERIFIED_NODE_MAJORS: readonly number[] = [20, 24];

/** Whether the Node-internals workarounds apply to this Node version (`process.versions.node` form). */
export function nodeInternalsVerified(nodeVersion: string = process.versions.node): boolean {
  return VERIFIED_NODE_MAJORS.includes(Number(nodeVersion.split('.')[0]));
}
