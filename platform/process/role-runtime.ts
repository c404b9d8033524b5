/**
 * Each role's entry module and the Node.js flags and environment it runs with. `npm start` runs
 * them (main.ts), the benches start roles with them, and `npm run start:<role>`, the image and
 * docker-compose.yml repeat them as text (test/unit/repository/deploy-files.unit.test.ts checks that they agree).
 */
export interface RoleRuntime {
  /** The entry module, from the repository's root (dist/ holds it as .js). */
  entry: string;
  nodeOptions: string[];
  env: Record<string, string>;
}

/**
 * A young generation of 1 MB semi-spaces instead of up to 16: the api and the worker hold ~30 MB
 * less each when idle (docs/decisions/0330); neither answers scans, the one path where more
 * scavenges would be felt. Two glibc malloc arenas instead of up to eight per core: their native
 * threads (libuv's pool, sharp) each took an arena and kept it (docs/decisions/0344).
 */
const BACKGROUND_ROLE = { nodeOptions: ['--max-semi-space-size=1'], env: { MALLOC_ARENA_MAX: '2' } };

export const ROLE_RUNTIME = {
  /**
   * Its young generation as BACKGROUND_ROLE's, and a 512 MB old generation as the redirect's: after
   * large requests (a bulk insert's body, a long list) its heap stayed near 500 MB, V8 growing it
   * by a machine's limit rather than collecting (docs/decisions/0384).
   */
  api: { entry: 'api/server.ts', nodeOptions: [...BACKGROUND_ROLE.nodeOptions, '--max-old-space-size=512'], env: BACKGROUND_ROLE.env },
  /**
   * A 512 MB old generation: V8 sizes the heap's growth by its limit, and under load, with the
   * default limit of a large machine, let the old generation grow to several times what it held
   * live before collecting (docs/decisions/0355). The redirect's large holdings are bounded on
   * their own (LINK_CACHE_MB, PAGE_CACHE_MB, whose bytes live outside this heap). Semi-spaces of
   * up to 16 MB, Node 20's default that the redirect was measured with: Node 24's V8 grows them to
   * 32 MB, 64 MB more heap at its limit (docs/decisions/0416).
   */
  redirect: { entry: 'redirect/server.ts', nodeOptions: ['--max-semi-space-size=16', '--max-old-space-size=512'], env: {} },
  worker: { entry: 'workers/server.ts', ...BACKGROUND_ROLE },
} satisfies Record<string, RoleRuntime>;

export type Role = keyof typeof ROLE_RUNTIME;
