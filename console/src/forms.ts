/** The Jobs and API keys screens' mapping between what a person sees and enters and what the API takes and answers. */
import type { paths } from './api/schema.js';

export type Job = paths['/api/v1/jobs']['get']['responses'][200]['content']['application/json']['data'][number];
export type ApiKey = paths['/api/v1/api-keys']['get']['responses'][200]['content']['application/json']['data'][number];
type CreateKeyBody = paths['/api/v1/api-keys']['post']['requestBody']['content']['application/json'];
export type Scope = CreateKeyBody['scopes'][number];

export const unfinished = (job: Pick<Job, 'state'>) => job.state === 'queued' || job.state === 'active';

/** The job's file, when its result names one (exports' downloadUrl, bulk generation's qrZipUrl). */
export function jobFile(job: Pick<Job, 'id' | 'state' | 'result'>): { fileName: string } | null {
  if (job.state !== 'completed' || !job.result || typeof job.result !== 'object') return null;
  const result = job.result as { downloadUrl?: unknown; qrZipUrl?: unknown; fileName?: unknown };
  if (typeof result.downloadUrl !== 'string' && typeof result.qrZipUrl !== 'string') return null;
  return { fileName: typeof result.fileName === 'string' ? result.fileName : `${job.id}.bin` };
}

export function keyStatus(key: Pick<ApiKey, 'active' | 'revoked_at'>): 'active' | 'revoked' | 'expired' {
  if (key.revoked_at) return 'revoked';
  return key.active ? 'active' : 'expired';
}

/**
 * The create-key form as the API's body, or what to fix first, in words. `expiry` is a
 * datetime-local value, read in the browser's time zone; empty means no expiry.
 */
export function createKeyBody(name: string, scopes: ReadonlySet<Scope>, expiry: string): { body: CreateKeyBody } | { error: string } {
  if (!name.trim()) return { error: 'Give the key a name, so you can tell it apart later.' };
  if (scopes.size === 0) return { error: 'Choose at least one scope.' };
  const body: CreateKeyBody = { name: name.trim(), scopes: scopes.has('all') ? ['all'] : [...scopes] };
  if (expiry) {
    const at = new Date(expiry);
    if (Number.isNaN(at.getTime())) return { error: 'The expiry is not a date and time.' };
    if (at.getTime() <= Date.now()) return { error: 'The expiry must be in the future.' };
    body.expiresAt = at.toISOString();
  }
  return { body };
}
