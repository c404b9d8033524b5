/**
 * The account's recent jobs (GET /jobs): state badges, a progress bar for unfinished ones that
 * follows GET /jobs/:id each second, and the file of finished ones.
 */
import { useEffect, useState } from 'preact/hooks';
import type { paths } from '../api/schema.js';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import { jobFile, unfinished, type Job } from '../forms.js';

type JobList = paths['/api/v1/jobs']['get']['responses'][200]['content']['application/json'];

const POLL_MS = 1000;
const PAGE_SIZE = 20;
/** At most this many jobs are followed at once (requests a second, well inside a key's rate limit); the next ones as these end. */
const MAX_FOLLOWED = 5;

const KINDS: Record<string, string> = {
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
  const pending = list?.data.filter(unfinished).slice(0, MAX_FOLLOWED).map((j) => j.id).join(',') ?? '';
  useEffect(() => {
    if (!pending) return;
    const client = signedInClient();
    const timer = setInterval(async () => {
      const views = await Promise.all(pending.split(',').map((jobId) => client.GET('/api/v1/jobs/{jobId}', { params: { path: { jobId } } }).catch(() => null)));
      setList((current) =>
        current && { ...current, data: current.data.map((job) => ({ ...job, ...(views.find((v) => v?.data?.id === job.id)?.data ?? {}) })) },
      );
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [pending]);

  return (
    <section class="jobs">
      <h1>Jobs</h1>
      <p class="hint">Scan exports, bulk generations and menu imports of this account, newest first. Finished jobs and their files are kept for 7 days unless the operator set another retention.</p>
      {error ? (
        <p class="field-error" role="alert">
          The jobs could not be loaded. {error}
        </p>
      ) : !list ? (
        <p role="status">Loading jobs…</p>
      ) : list.data.length === 0 ? (
        <p class="empty">No jobs yet. Exports, bulk generations and menu imports you start appear here with their progress.</p>
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
  const kind = KINDS[job.type] ?? job.type;
  const file = jobFile(job);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const labelId = `job-${job.id}`;

  const download = async () => {
    setDownloadError(null);
    try {
      const { data, error, response } = await signedInClient().GET('/api/v1/jobs/{jobId}/download', { params: { path: { jobId: job.id } }, parseAs: 'blob' });
      if (!data) return setDownloadError(problemText(response.status, error));
      const url = URL.createObjectURL(data as Blob);
      const a = Object.assign(document.createElement('a'), { href: url, download: file!.fileName });
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch {
      setDownloadError(UNREACHABLE);
    }
  };

  return (
    <li class="job">
      <div class="job-head">
        <strong id={labelId}>{kind}</strong> <span class={`badge badge-${job.state}`}>{job.state}</span>
        <time dateTime={job.createdAt}>{new Date(job.createdAt).toLocaleString()}</time>
      </div>
      {unfinished(job) && (
        <div class="progress-row">
          <div class="progress" role="progressbar" aria-labelledby={labelId} aria-valuemin={0} aria-valuemax={100} aria-valuenow={job.progress}>
            <div class="progress-fill" style={{ width: `${job.progress}%` }} />
          </div>
          <span aria-hidden="true">{job.progress}%</span>
        </div>
      )}
      {job.state === 'failed' && <p class="field-error">It failed: {job.error ?? 'no reason was recorded'}.</p>}
      {file && (
        <button type="button" onClick={download}>
          Download {file.fileName}
        </button>
      )}
      {downloadError && (
        <p class="field-error" role="alert">
          The file could not be downloaded. {downloadError}
        </p>
      )}
    </li>
  );
}
