/**
 * "Print sheets": a batch's or a folder's codes laid out for printing (POST /print-sheets, a job):
 * a small dialog asks the paper, the code's printed width and the template (a grid, or table
 * tents), then the job is followed beside the button with the progress bar the other jobs use,
 * and its PDF offered when done. A refusal is said in a toast where the button is.
 */
import { useRef, useState } from 'preact/hooks';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import { jobFile, unfinished } from '../forms.js';
import { Dialog } from '../screens/Dialog.js';
import { Icon } from '../ui/Icon.js';
import { showToast } from '../ui/toasts.js';
import { JobDownload, JobProgress, useFollowedJob } from './JobProgress.js';
import './print-sheets.css';

/** Which codes go on the sheets: a bulk generation's links, or a folder's. */
export type SheetSource = { bulkJobId: string } | { folderId: string };

const SIZES_MM = [20, 30, 40, 50, 80, 100] as const;

export function PrintSheets({ source, what }: { source: SheetSource; what: string }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [jobId, setJobId] = useState<string | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const { job, lost } = useFollowedJob(jobId);
  const file = job && jobFile(job);
  const running = jobId !== null && !lost && (!job || unfinished(job));

  const start = async (form: FormData) => {
    setBusy(true);
    const body = {
      ...source,
      paper: form.get('paper') === 'letter' ? ('letter' as const) : ('a4' as const),
      sizeMm: Number(form.get('sizeMm')),
      template: form.get('template') === 'table-tent' ? ('table-tent' as const) : ('grid' as const),
    };
    try {
      // Answered at once with the job (202), never with the PDF itself (the 200 of a batch done within JOB_WAIT_MS).
      const { data, error, response } = await signedInClient().POST('/api/v1/print-sheets', {
        params: { header: { prefer: 'respond-async' } },
        body,
      });
      const answer = typeof data === 'object' ? data : undefined;
      if (answer && typeof answer.jobId === 'string') {
        setJobId(answer.jobId);
        setAsking(false);
      } else {
        showToast(`The print sheets could not be started: ${problemText(response.status, error)}`, {
          anchor: button.current,
          tone: 'error',
        });
      }
    } catch {
      showToast(UNREACHABLE, { anchor: button.current, tone: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const statusId = `print-sheets-status-${'folderId' in source ? source.folderId : source.bulkJobId}`;
  return (
    <div class="print-sheets">
      <button type="button" ref={button} disabled={running} onClick={() => setAsking(true)}>
        <Icon name="stack" />
        Print sheets
      </button>
      {jobId !== null && (
        <div class="print-sheets-job" role="status">
          <span id={statusId}>
            {lost
              ? `The sheets' progress could not be read. ${lost}`
              : !job
                ? 'Starting the print sheets…'
                : unfinished(job)
                  ? 'Laying out the sheets…'
                  : job.state === 'completed'
                    ? 'Print sheets ready.'
                    : `The print sheets failed: ${job.error ?? 'no reason was recorded.'}`}
          </span>
          {job && unfinished(job) && <JobProgress progress={job.progress} labelId={statusId} />}
        </div>
      )}
      {jobId !== null && file && <JobDownload jobId={jobId} fileName={file.fileName} label={`Download ${file.fileName}`} />}
      {asking && (
        <Dialog
          title={`Print sheets of ${what}`}
          submitLabel="Make the sheets"
          busy={busy}
          onCancel={() => setAsking(false)}
          onSubmit={(f) => void start(f)}
        >
          <fieldset class="dialog-field print-sheets-choice">
            <legend>Paper</legend>
            <label>
              <input type="radio" name="paper" value="a4" defaultChecked /> A4
            </label>
            <label>
              <input type="radio" name="paper" value="letter" /> Letter
            </label>
          </fieldset>
          <label class="dialog-field print-sheets-width">
            Code width
            <select name="sizeMm">
              {SIZES_MM.map((mm) => (
                <option key={mm} value={mm} selected={mm === 30}>
                  {mm / 10} cm
                </option>
              ))}
            </select>
          </label>
          <fieldset class="dialog-field print-sheets-choice">
            <legend>Template</legend>
            <label>
              <input type="radio" name="template" value="grid" defaultChecked /> Grid, a caption under each code
            </label>
            <label>
              <input type="radio" name="template" value="table-tent" /> Table tents (A5, folded)
            </label>
          </fieldset>
        </Dialog>
      )}
    </div>
  );
}
