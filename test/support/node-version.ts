/**
 * The tests need Node.js 22 or later: vitest 5 does (its engines; on Node 20 it runs tests but its
 * reporter throws when it prints a failure). qrlinks itself still starts on Node 20 (with a warning,
 * platform/process/node-support.ts); CI runs the tests on Node 24 (.ci/run). Each vitest config
 * calls this first, so `npm test` on an older Node stops at once and says why instead of failing
 * halfway through a report.
 */
const TESTS_NEED_MAJOR = 22;

export function requireTestNode(version: string = process.versions.node): void {
  if (Number(version.split('.')[0]) >= TESTS_NEED_MAJOR) return;
  process.stderr.write(
    `The tests need Node.js ${TESTS_NEED_MAJOR} or later (vitest 5); this is Node.js ${version}.\n` +
      'Put a Node.js 24 first on PATH: .ci/run installs one into .ci/node24 (see docs/guide/testing.md).\n',
  );
  process.exit(1);
}
