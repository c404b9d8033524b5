/**
 * The account's recent jobs (GET /jobs): state badges, a progress bar for unfinished ones that
 * follows GET /jobs/:id each second, and the file of finished ones.
 */
import { useEffect, useState } from 'preact/hooks';
import type { paths } from '../api/schema.js';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import { jobFile, unfinished, type Job } from '../forms.js';
import { JobDownload, JobProgress, POLL_MS } from '../jobs/JobProgress.js';
import { EmptyState, Skeleton } from '../ui/Feedback.js';
import { Icon } from '../ui/Icon.js';

type JobList = paths['/api/v1/jobs']['get']['responses'][200]['content']['application/json'];

const PAGE_SIZE = 20;
/** At most this many jobs are followed at once (requests a second, well inside a key's rate limit); the next ones as these end. */
const MAX_FOLLOWED = 5;

/** Each kind of job in words (the Home screen's recent jobs say them too). */
export const JOB_KINDS: Record<string, string> = {
  'analytics-export': 'Scan export',
  'bulk-generate': 'Bulk generation',
  'cafe-bulk-insert': 'Menu import',
  'qr-render': 'QR code ZIP',
};

export function Jobs() {
  const [page, setPage] = useState(1);
  const [list, setList] = useState<JobList | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    setList(null);
    setError(null);
    signedInClient()
      .GET('/api/v1/jobs', { params: { query: { page, size: PAGE_SIZE } } })
      .then(({ data, error: failure, response }) => live && (data ? setList(data) : setError(problemText(response.status, failure))))
      .catch(() => live && setError(UNREACHABLE));
    return () => void (live = false);
  }, [page]);

  // Each unfinished job follows its own GET /jobs/:id until it ends.
  const pending =
    list?.data
      .filter(unfinished)
      .slice(0, MAX_FOLLOWED)
      .map((j) => j.id)
      .join(',') ?? '';
  useEffect(() => {
    if (!pending) return;
    const client = signedInClient();
    // Never rejects: a job that cannot be asked about keeps its row as it was.
    const refresh = async () => {
      const views = await Promise.all(
        pending.split(',').map((jobId) => client.GET('/api/v1/jobs/{jobId}', { params: { path: { jobId } } }).catch(() => null)),
      );
      setList(
        (current) =>
          current && {
            ...current,
            data: current.data.map((job) => ({ ...job, ...(views.find((v) => v?.data?.id === job.id)?.data ?? {}) })),
          },
      );
    };
    const timer = setInterval(() => void refresh(), POLL_MS);
    return () => clearInterval(timer);
  }, [pending]);

  return (
    <section class="jobs">
      <h1>Jobs</h1>
      <p class="hint">
        Scan exports, bulk generations and menu imports of this account, newest first. Finished jobs and their files are kept for 7 days
        unless the operator set another retention.
      </p>
      {error ? (
        <p class="field-error" role="alert">
          The jobs could not be loaded. {error}
        </p>
      ) : !list ? (
        <Skeleton label="Loading jobs…" rows={4} />
      ) : list.data.length === 0 ? (
        <EmptyState icon="list-check" title="No jobs yet">
          <p>Exports, bulk generations and menu imports you start appear here with their progress.</p>
          <a class="button primary" href="#/bulk">
            <Icon name="stack" />
            Make codes in bulk
          </a>
        </EmptyState>
      ) : (
        <>
          <ul class="job-list">
            {list.data.map((job) => (
              <JobRow key={job.id} job={job} />
            ))}
          </ul>
          {list.meta.totalPages > 1 && (
            <nav class="pager" aria-label="Job pages">
              <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                Newer
              </button>
              <span>
                Page {page} of {list.meta.totalPages}
              </span>
              <button type="button" disabled={page >= list.meta.totalPages} onClick={() => setPage(page + 1)}>
                Older
              </button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}

function JobRow({ job }: { job: Job }) {
  const kind = JOB_KINDS[job.type] ?? job.type;
  const file = jobFile(job);
  const labelId = `job-${job.id}`;

  return (
    <li class="job">
      <div class="job-head">
        <strong id={labelId}>{kind}</strong> <span class={`badge badge-${job.state}`}>{job.state}</span>
        <time dateTime={job.createdAt}>{new Date(job.createdAt).toLocaleString()}</time>
      </div>
      {unfinished(job) && <JobProgress progress={job.progress} labelId={labelId} />}
      {job.state === 'failed' && <p class="field-error">It failed: {job.error ?? 'no reason was recorded'}.</p>}
      {file && <JobDownload jobId={job.id} fileName={file.fileName} label={`Download ${file.fileName}`} />}
    </li>
  );
}
