/** The browser console's test setup: the built console served by a real api on a free port. */
import type { AddressInfo } from 'node:net';
import { ensureConsoleBuilt } from '../../console/build.js';
import { startTestApi, type TestApi } from './harness.js';

/**
 * The api listening on 127.0.0.1 with the console built; `base` is its `/`. `overrides` are
 * settings (JOB_WAIT_MS, …); `port` one chosen beforehand (freePort), for settings that name it.
 */
export async function startConsoleApi(overrides: Record<string, string> = {}, port = 0): Promise<{ api: TestApi; base: string }> {
  await ensureConsoleBuilt();
  const api = await startTestApi(overrides);
  await api.app.listen({ port, host: '127.0.0.1' });
  return { api, base: `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}/` };
}
