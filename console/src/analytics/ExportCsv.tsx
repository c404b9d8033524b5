/**
 * "Export CSV": asks for the export job at once (Prefer: respond-async), follows it with the
 * progress bar the Jobs and Bulk screens use, and saves the file when it is done.
 */
import { useState } from 'preact/hooks';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import { jobFile, unfinished } from '../forms.js';
import { JobDownload, JobProgress, useFollowedJob } from '../jobs/JobProgress.js';
import { exportBody, type AnalyticsView } from './view.js';

/** `jobId` is empty between the click and the API's answer. */
type Run = { phase: 'idle' } | { phase: 'failed'; message: string } | { phase: 'following'; jobId: string };

export function ExportCsv({ slug, view }: { slug: string | null; view: AnalyticsView }) {
  const [run, setRun] = useState<Run>({ phase: 'idle' });

  const start = async () => {
    const client = signedInClient();
    const params = { header: { prefer: 'respond-async' } };
    const body = exportBody(view, new Date());
    setRun({ phase: 'following', jobId: '' });
    try {
      const { data, error, response } =
        slug === null
          ? await client.POST('/api/v1/analytics/export', { params, body })
          : await client.POST('/api/v1/links/{id}/analytics/export', { params: { ...params, path: { id: slug } }, body });
      if (data && typeof data === 'object' && 'jobId' in data) setRun({ phase: 'following', jobId: data.jobId });
      else setRun({ phase: 'failed', message: problemText(response.status, error) });
    } catch {
      setRun({ phase: 'failed', message: UNREACHABLE });
    }
  };

  const { job, lost } = useFollowedJob(run.phase === 'following' && run.jobId ? run.jobId : null);
  const file = job && jobFile(job);
  const busy = run.phase === 'following' && !lost && (!job || unfinished(job));
  return (
    <div class="analytics-export">
      {/* `start` says its own failures in words: it never rejects. */}
      <button type="button" onClick={() => void start()} disabled={busy}>
        Export CSV
      </button>
      <span class="hint">The scans of this range, {view.bots ? 'bots included' : 'bots left out'}, one row each.</span>
      {run.phase === 'failed' && (
        <p class="field-error" role="alert">
          The export could not be started. {run.message}
        </p>
      )}
      {run.phase === 'following' && (
        <div class="analytics-export-job" role="status">
          <span id="export-progress">
            {!job
              ? 'Starting the export…'
              : unfinished(job)
                ? 'Exporting…'
                : job.state === 'completed'
                  ? 'Export ready.'
                  : 'The export failed.'}
          </span>
          {job && unfinished(job) && <JobProgress progress={job.progress} labelId="export-progress" />}
          {job?.state === 'failed' && <p class="field-error">{job.error ?? 'No reason was recorded.'}</p>}
          {lost && <p class="field-error">The export's progress could not be read. {lost}</p>}
        </div>
      )}
      {run.phase === 'following' && file && (
        <JobDownload jobId={run.jobId} fileName={file.fileName} label={`Download ${file.fileName}`} primary />
      )}
    </div>
  );
}
