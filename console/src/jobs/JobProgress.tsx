/**
 * What the screens share about one job: following it until it ends, its progress bar, and saving its file.
 * The file comes through the API with the key (a plain link could not carry the Authorization
 * header), then is saved from a blob URL.
 */
import { useEffect, useState } from 'preact/hooks';
import type { paths } from '../api/schema.js';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import { unfinished } from '../forms.js';
import { saveBlob } from '../save-file.js';
import { Icon } from '../ui/Icon.js';

/** How often an unfinished job is asked for (GET /jobs/:id): well inside a key's rate limit. */
export const POLL_MS = 1000;

export type JobView = paths['/api/v1/jobs/{jobId}']['get']['responses'][200]['content']['application/json'];

/** The job as last read, or why it cannot be followed (`lost`: gone past its retention, refused). */
export interface FollowedJob {
  job: JobView | null;
  lost: string | null;
}

/** Follows job `jobId` (GET /jobs/:jobId every POLL_MS) until it ends; nothing while `jobId` is null. */
export function useFollowedJob(jobId: string | null): FollowedJob {
  const [followed, setFollowed] = useState<FollowedJob & { jobId: string | null }>({ jobId, job: null, lost: null });
  useEffect(() => {
    setFollowed({ jobId, job: null, lost: null });
    if (!jobId) return;
    const client = signedInClient();
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      const view = await client.GET('/api/v1/jobs/{jobId}', { params: { path: { jobId } } }).catch(() => null);
      if (!live) return;
      if (view?.data) setFollowed({ jobId, job: view.data, lost: null });
      // Gone or refused for good (a 404 once the job is past its retention): asking again would not help.
      else if (view && view.response.status < 500 && view.response.status !== 429)
        return setFollowed({ jobId, job: null, lost: problemText(view.response.status, view.error) });
      // Unreachable, a 5xx or a 429: asked again at the next turn.
      // `poll` never rejects (an unreachable API is a null view, asked again).
      if (!view?.data || unfinished(view.data)) timer = setTimeout(() => void poll(), POLL_MS);
    };
    void poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [jobId]);
  return followed.jobId === jobId ? followed : { job: null, lost: null };
}

/** A job's progress as a bar named by `labelId`, with the percentage beside it for sighted users. */
export function JobProgress({ progress, labelId }: { progress: number; labelId: string }) {
  return (
    <div class="progress-row">
      <div class="progress" role="progressbar" aria-labelledby={labelId} aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress}>
        <div class="progress-fill" style={{ width: `${progress}%` }} />
      </div>
      <span aria-hidden="true">{progress}%</span>
    </div>
  );
}

/** Fetches the job's file and hands it to the browser as `fileName`; null when saved, else why not in words. */
async function downloadJobFile(jobId: string, fileName: string): Promise<string | null> {
  try {
    const { data, error, response } = await signedInClient().GET('/api/v1/jobs/{jobId}/download', {
      params: { path: { jobId } },
      parseAs: 'blob',
    });
    if (!data) return problemText(response.status, error);
    saveBlob(data, fileName);
    return null;
  } catch {
    return UNREACHABLE;
  }
}

/** A button that saves the job's file, and why it could not, beneath it. */
export function JobDownload({
  jobId,
  fileName,
  label,
  primary = false,
}: {
  jobId: string;
  fileName: string;
  label: string;
  primary?: boolean;
}) {
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setError(null);
    setError(await downloadJobFile(jobId, fileName));
  };
  return (
    <>
      {/* downloadJobFile answers a failure in words: `download` never rejects. */}
      <button type={primary ? 'submit' : 'button'} onClick={() => void download()}>
        <Icon name="download" />
        {label}
      </button>
      {error && (
        <p class="field-error" role="alert">
          The file could not be downloaded. {error}
        </p>
      )}
    </>
  );
}
