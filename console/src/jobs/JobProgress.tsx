/**
 * What the Jobs and Bulk screens share about one job: its progress bar, and saving its file.
 * The file comes through the API with the key (a plain link could not carry the Authorization
 * header), then is saved from a blob URL.
 */
import { useState } from 'preact/hooks';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import { saveBlob } from '../save-file.js';

/** How often an unfinished job is asked for (GET /jobs/:id): well inside a key's rate limit. */
export const POLL_MS = 1000;

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
    const { data, error, response } = await signedInClient().GET('/api/v1/jobs/{jobId}/download', { params: { path: { jobId } }, parseAs: 'blob' });
    if (!data) return problemText(response.status, error);
    saveBlob(data as Blob, fileName);
    return null;
  } catch {
    return UNREACHABLE;
  }
}

/** A button that saves the job's file, and why it could not, beneath it. */
export function JobDownload({ jobId, fileName, label, primary = false }: { jobId: string; fileName: string; label: string; primary?: boolean }) {
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setError(null);
    setError(await downloadJobFile(jobId, fileName));
  };
  return (
    <>
      <button type={primary ? 'submit' : 'button'} onClick={download}>
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
