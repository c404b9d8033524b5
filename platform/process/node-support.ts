/**
 * Which Node.js versions qrlinks runs on: Node 24 (the LTS the image uses) and still Node 20, which
 * is out of support since 2026-04-30 and so gets a warning at start (`npm start`, main.ts).
 */
const SUPPORTED_FROM_MAJOR = 22;

/** The one-line start-up warning for this Node version, or null where it is supported. */
export function nodeSupportWarning(nodeVersion: string = process.versions.node): string | null {
  if (Number(nodeVersion.split('.')[0]) >= SUPPORTED_FROM_MAJOR) return null;
  return `Node.js ${nodeVersion.split('.')[0]} is out of support since 2026-04-30; run qrlinks on Node.js 24`;
}
