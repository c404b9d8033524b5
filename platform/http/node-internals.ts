/**
 * Two speed-ups of the HTTP path lean on how Node 20 and its V8 behave inside (tick-object-shape.ts,
 * and the response constructor in graceful.ts). They were measured on Node 20 only; on another
 * major version the same code might be useless or slower, so there the plain way is used and the
 * speed-up is left to be measured again.
 */
export const VERIFIED_NODE_MAJOR = 20;

/** Whether the Node-internals workarounds apply to this Node version (`process.versions.node` form). */
export function nodeInternalsVerified(nodeVersion: string = process.versions.node): boolean {
  return Number(nodeVersion.split('.')[0]) === VERIFIED_NODE_MAJOR;
}
