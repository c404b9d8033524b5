/**
 * Uploads to POST /api/v1/files with progress. fetch reports no upload progress, so this one call
 * uses XMLHttpRequest (docs/decisions/0295-uploads-use-xmlhttprequest-not-the-typed-client.md); its
 * answer is still typed from the generated schema.
 */
import type { paths } from '../api/schema.js';
import { problemText } from '../api/signed-in.js';
import { noticeSessionAnswer } from '../api/session-ended.js';
import { savedKey } from '../session.js';

type FilesPost = paths['/api/v1/files']['post'];
export type StoredFile = FilesPost['responses'][200]['content']['application/json'];

export type UploadResult = { ok: true; file: StoredFile } | { ok: false; message: string };

/** Why the API refused a file, in words: its own message (and the `file` field's), or the status. */
export function uploadFailure(status: number, body: unknown): string {
  if (status === 0) return 'The upload did not reach the server. Check your connection and try again.';
  if (status === 401) return problemText(status, body);
  const answer = (typeof body === 'object' && body !== null ? body : {}) as {
    message?: unknown;
    errors?: Array<{ path?: unknown; message?: unknown }>;
  };
  const fieldMessage = Array.isArray(answer.errors) ? answer.errors.find((e) => e.path === 'file')?.message : undefined;
  if (typeof fieldMessage === 'string') return `The file was refused: ${fieldMessage}.`;
  if (typeof answer.message === 'string') return `The file was refused: ${answer.message}.`;
  return `The file was refused (the server answered ${status}).`;
}

/** Sends `file`; `onProgress` hears the fraction sent (0 to 1). */
export function uploadFile(file: File, onProgress: (fraction: number) => void): Promise<UploadResult> {
  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    request.open('POST', '/api/v1/files');
    // With no key the browser sends the session cookie itself.
    const key = savedKey({ session: sessionStorage, local: localStorage });
    if (key) request.setRequestHeader('Authorization', `Basic ${key}`);
    request.responseType = 'json';
    request.upload.addEventListener('progress', (e) => e.lengthComputable && onProgress(e.loaded / e.total));
    request.addEventListener('load', () => {
      if (request.status === 200) return resolve({ ok: true, file: request.response as StoredFile });
      if (!key) noticeSessionAnswer(request.status, (request.response as { code?: unknown } | null)?.code);
      resolve({ ok: false, message: uploadFailure(request.status, request.response) });
    });
    request.addEventListener('error', () => resolve({ ok: false, message: uploadFailure(0, null) }));
    const form = new FormData();
    form.append('file', file);
    request.send(form);
  });
}
