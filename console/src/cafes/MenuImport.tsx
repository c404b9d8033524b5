/**
 * A whole menu from a CSV file (POST /cafes/:id/items/bulk-insert): the warning that it replaces
 * every item, category and group; a sample file; the file dropped or chosen, its rows previewed
 * with the API's own check (cafes/menu-import.ts), problems at their row and cell; then, after a
 * confirm, the import goes out with an Idempotency-Key and `Prefer: respond-async`, and its job's
 * progress bar is followed to the end, when the cafe page is told (`onImported`) to show the new menu.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import { DropZone } from '../bulk/DropZone.js';
import { newIdempotencyKey, reportOf, summaryText, type FieldProblem } from '../bulk/report.js';
import { ReportTable } from '../bulk/ReportTable.js';
import { unfinished } from '../forms.js';
import { JobProgress, useFollowedJob } from '../jobs/JobProgress.js';
import { saveBlob } from '../save-file.js';
import { Dialog } from '../screens/Dialog.js';
import { apiProblems, countsText, DEFAULT_CURRENCY, formatText, MENU_COLUMNS, previewMenu, sampleMenuCsv } from './menu-import.js';
import '../bulk/bulk.css';

/** The API's body limit for an import; a file past it could not be sent (its JSON is larger still). */
const FILE_MAX_BYTES = 16 * 1024 * 1024;

type Chosen = { fileName: string; text: string; key: string } | { fileName: string; error: string };

type Run =
  | { phase: 'idle' }
  | { phase: 'confirming'; error: string | null; busy: boolean }
  | { phase: 'following'; key: string; jobId: string }
  | { phase: 'refused'; message: string };

interface ImportResult {
  groups: number;
  categories: number;
  items: number;
  deleted: { groups: number; categories: number; items: number };
}

function saveSample() {
  saveBlob(new Blob([sampleMenuCsv()], { type: 'text/csv;charset=utf-8' }), 'qrlinks-menu-sample.csv');
}

export function MenuImport({
  cafeId,
  cafeName,
  menuHref,
  onImported,
}: {
  cafeId: string;
  cafeName: string;
  /** The menu tab, where the imported menu is seen. */
  menuHref: string;
  onImported(): void;
}) {
  const client = useMemo(signedInClient, []);
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [run, setRun] = useState<Run>({ phase: 'idle' });
  const [problems, setProblems] = useState<FieldProblem[] | null>(null);
  const [currency, setCurrency] = useState(DEFAULT_CURRENCY);
  const following = run.phase === 'following' ? run : null;
  const { job, lost } = useFollowedJob(following?.jobId ?? null);
  const busy = following !== null && (!job || unfinished(job)) && !lost;

  const choose = async (file: File) => {
    setRun({ phase: 'idle' });
    setProblems(null);
    if (file.size > FILE_MAX_BYTES)
      return setChosen({ fileName: file.name, error: `The file is larger than the ${FILE_MAX_BYTES / 1024 / 1024} MiB an import takes.` });
    try {
      // A new key per file read: the same file chosen again after a fix on disk is a new import.
      setChosen({ fileName: file.name, text: await file.text(), key: newIdempotencyKey() });
    } catch {
      setChosen({ fileName: file.name, error: 'The file could not be read.' });
    }
  };

  const text = chosen && 'text' in chosen ? chosen.text : null;
  const preview = useMemo(() => (text === null ? null : previewMenu(text, { currency: currency.trim() })), [text, currency]);
  const shown = problems ?? preview?.problems ?? [];
  const report = useMemo(() => reportOf(shown), [shown]);
  const fileError = chosen && 'error' in chosen ? chosen.error : report.batch.file;
  const ready = preview?.body && problems === null && !busy;

  const start = async () => {
    if (!chosen || !('key' in chosen) || !preview?.body) return;
    setRun({ phase: 'confirming', error: null, busy: true });
    try {
      const { data, error, response } = await client.POST('/api/v1/cafes/{id}/items/bulk-insert', {
        params: { path: { id: cafeId }, header: { 'idempotency-key': chosen.key, prefer: 'respond-async' } },
        body: preview.body,
      });
      if (data && 'jobId' in data) return setRun({ phase: 'following', key: chosen.key, jobId: data.jobId });
      const listed = (error as { errors?: FieldProblem[] } | undefined)?.errors;
      if (response.status === 400 && Array.isArray(listed)) {
        setProblems(apiProblems(listed, preview));
        return setRun({ phase: 'refused', message: 'The API refused the file; the rows below say why. The menu is as it was.' });
      }
      setRun({ phase: 'confirming', busy: false, error: `The import was not started. ${problemText(response.status, error)}` });
    } catch {
      setRun({ phase: 'confirming', busy: false, error: `${UNREACHABLE} Trying again is safe: the menu is never replaced twice.` });
    }
  };

  // Once the job has finished, the menu editor shows the new menu.
  const told = useRef<string | null>(null);
  useEffect(() => {
    if (following && job?.state === 'completed' && told.current !== following.jobId) {
      told.current = following.jobId;
      onImported();
    }
  }, [following?.jobId, job?.state]);

  // The confirm closes as the import goes out: focus moves to its panel, which says how it goes.
  const runPanel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (run.phase === 'following' || run.phase === 'refused') runPanel.current?.focus();
  }, [run.phase]);

  const restart = () => {
    setRun({ phase: 'idle' });
    setChosen(null);
    setProblems(null);
  };

  return (
    <section class="menu-import" aria-labelledby="menu-import-title">
      <h2 id="menu-import-title">Import a whole menu from a CSV file</h2>
      <p class="notice warning" id="menu-import-warning">
        <strong>Importing replaces the whole menu.</strong> Every item, category and group {cafeName} has now is deleted, with their images,
        and the file’s rows take their place. Check the preview first: nothing changes until you confirm.
      </p>
      <div class="bulk-columns">
        <p>One row per item; the header row names the columns, in any order:</p>
        <ul>
          {MENU_COLUMNS.map((c) => (
            <li key={c.name}>
              <code>{c.name}</code> {c.required ? 'required' : 'optional'}
              {c.hint && <span class="hint">: {c.hint}</span>}
            </li>
          ))}
        </ul>
        <p>
          The columns may be headed in English, Portuguese, Spanish, French or German (Preço, Precio, Prix, Preis), separated by commas,
          semicolons or tabs; in a file separated by semicolons or tabs, prices may have decimal commas (2,50). A column of photo addresses
          is not imported: add photos to the dishes in the menu once it is in.
        </p>
        <p>
          <label for="menu-import-currency">Currency of rows that name none</label>{' '}
          <input
            id="menu-import-currency"
            value={currency}
            size={4}
            maxLength={3}
            autoCapitalize="characters"
            onInput={(e) => {
              setCurrency(e.currentTarget.value);
              setProblems(null);
            }}
          />
        </p>
        <button type="button" onClick={saveSample}>
          Download a sample CSV
        </button>
      </div>

      <DropZone
        id="menu-import-file"
        fileName={chosen?.fileName ?? null}
        invalid={!!fileError}
        describedBy={fileError ? 'menu-import-file-error' : 'menu-import-warning'}
        onFile={(file) => void choose(file)}
      />
      {fileError && (
        <p class="field-error" id="menu-import-file-error">
          {fileError}
        </p>
      )}

      {preview && preview.table.header.length > 0 && (
        <p class="menu-import-format" id="menu-import-format">
          {formatText(preview.format)}.
          {preview.notImported.length > 0 &&
            ` Not imported: the column ${preview.notImported.join(', ')} (photos are uploaded to each dish in the menu after the import).`}
        </p>
      )}
      <p role="status" class="bulk-summary">
        {preview && preview.table.header.length > 0
          ? `${countsText(preview.counts)}. ${summaryText(report.header.size > 0 || report.batch.file ? null : preview.counts.items, report)}`
          : ''}
      </p>

      {preview && (
        <div class="actions">
          <button
            type="button"
            class="danger"
            disabled={!ready || run.phase === 'following'}
            aria-describedby="menu-import-warning"
            onClick={() => setRun({ phase: 'confirming', error: null, busy: false })}
          >
            Replace the menu with these {preview.counts.items.toLocaleString('en')} items…
          </button>
        </div>
      )}

      {run.phase === 'confirming' && preview && (
        <Dialog
          title="Replace the whole menu?"
          submitLabel="Replace the menu"
          danger
          busy={run.busy}
          error={run.error}
          onSubmit={() => void start()}
          onCancel={() => setRun({ phase: 'idle' })}
        >
          <p>
            Every item, category and group on {cafeName}’s menu is deleted, with their images. In their place: {countsText(preview.counts)}.
            This cannot be undone.
          </p>
        </Dialog>
      )}

      {(run.phase === 'following' || run.phase === 'refused') && (
        <div class="bulk-run-wrap" ref={runPanel} tabIndex={-1}>
          {run.phase === 'refused' ? (
            <p class="field-error" role="alert">
              {run.message}
            </p>
          ) : (
            <div class="notice bulk-run" role="region" aria-labelledby="menu-import-run-title">
              <h3 id="menu-import-run-title">The import</h3>
              <JobProgress progress={job?.state === 'completed' ? 100 : (job?.progress ?? 0)} labelId="menu-import-run-title" />
              <p role="status">{lost ? `The import's progress cannot be followed: ${lost} The Jobs page lists it.` : importText(job)}</p>
              {job?.state === 'failed' && <p class="field-error">{job.error ?? 'No reason was recorded.'}</p>}
              {job && !unfinished(job) && (
                <div class="actions">
                  {job.state === 'completed' && (
                    <a class="button primary" href={menuHref}>
                      See the menu
                    </a>
                  )}
                  <button type="button" onClick={restart}>
                    Import another file
                  </button>
                </div>
              )}
            </div>
          )}
        </div>
      )}

      {preview && preview.table.header.length > 0 && <ReportTable table={preview.table} report={report} label="Menu rows to import" />}
    </section>
  );
}

/** The import's job in words; the percentage in steps of ten, so a screen reader is not interrupted every second. */
function importText(job: ReturnType<typeof useFollowedJob>['job']): string {
  if (!job || job.state === 'queued') return 'Waiting for its turn…';
  if (job.state === 'active') return `Replacing the menu… ${Math.floor(job.progress / 10) * 10}%`;
  if (job.state === 'failed') return 'The import failed; the menu is as it was.';
  const r = job.result as ImportResult;
  return `Done: the menu now has ${countsText(r)}. It replaced ${r.deleted.items.toLocaleString('en')} items.`;
}
