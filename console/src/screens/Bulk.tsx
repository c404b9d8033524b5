/**
 * Bulk generation (/bulk): choose a link type, give rows as a CSV file or pasted text, check them
 * with the API's dry run (the report as a table, each bad cell marked with its message), then
 * generate: the batch goes out with an Idempotency-Key, and a progress bar follows its job until
 * the ZIP of the codes can be downloaded. Rows go as the CSV form (multipart), so the API names
 * them by their row in the person's own file (docs/decisions/0085-bulk-page-rows-are-sent.md).
 */
import { scopeBlock } from '../access.js';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Me } from '../api/client.js';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import { BULK_COLUMNS, BULK_TYPE_LABELS, sampleCsv, type BulkType } from '../bulk/columns.js';
import { readCsvText, type CsvTable } from '../bulk/csv.js';
import { ReportTable } from '../bulk/ReportTable.js';
import { DropZone } from '../bulk/DropZone.js';
import { newIdempotencyKey, progressText, reportOf, summaryText, type CheckReport, type FieldProblem } from '../bulk/report.js';
import { jobFile, unfinished, type Job } from '../forms.js';
import { Field } from '../fields/Field.js';
import { defaultChoice, domainChoices } from '../domains/domains.js';
import { useDomains } from '../domains/use-domains.js';
import { NO_ERRORS, type FieldErrors } from '../fields/errors.js';
import { JobDownload, JobProgress, useFollowedJob, type JobView } from '../jobs/JobProgress.js';
import { PrintSheets } from '../jobs/PrintSheets.js';
import { DEFAULT_VIEW, routeOfView } from '../links/view.js';
import '../bulk/bulk.css';
import { saveBlob } from '../save-file.js';

type Client = ReturnType<typeof signedInClient>;
/** A list the key may not read, or that failed, is the reason in words; null while loading. */
type Choices = Array<{ id: string; name: string }> | string | null;

type Check =
  | { phase: 'none' }
  | { phase: 'checking' }
  | { phase: 'failed'; message: string }
  | { phase: 'done'; key: string; table: CsvTable; count: number | null; valid: boolean; report: CheckReport };

type Run =
  { phase: 'idle' } | { phase: 'sending' } | { phase: 'refused'; message: string } | { phase: 'following'; key: string; jobId: string };

const TYPES = Object.keys(BULK_COLUMNS) as BulkType[];

function useChoices(
  me: Me,
  scope: string,
  load: () => Promise<{ data?: { data: Array<{ id: string; name: string }> }; error?: unknown; response: Response }>,
  what: string,
): Choices {
  const [choices, setChoices] = useState<Choices>(null);
  const block = scopeBlock(me, scope);
  useEffect(() => {
    if (block) return setChoices(`${block} The batch is made without one.`);
    load()
      .then(({ data, error, response }) =>
        setChoices(data ? data.data : `The ${what} could not be loaded. ${problemText(response.status, error)}`),
      )
      .catch(() => setChoices(`The ${what} could not be loaded. ${UNREACHABLE}`));
  }, [block]);
  return choices;
}

/** The CSV form the API takes: the rows as the file `file`, beside the batch's type and choices. */
function bulkForm(type: BulkType, rows: Blob, fileName: string, folderId: string, templateId: string, domain: string | null): FormData {
  const form = new FormData();
  form.set('type', type);
  if (folderId) form.set('folderId', folderId);
  if (templateId) form.set('templateId', templateId);
  if (domain) form.set('domain', domain);
  form.set('file', rows, fileName);
  return form;
}

function saveSample(type: BulkType) {
  saveBlob(new Blob([sampleCsv(type)], { type: 'text/csv;charset=utf-8' }), `qrlinks-${type}-sample.csv`);
}

export function Bulk({ me }: { me: Me }) {
  const client = useMemo(signedInClient, []);
  const [type, setType] = useState<BulkType>('website');
  const [folderId, setFolderId] = useState('');
  const [templateId, setTemplateId] = useState('');
  // Null: the account's default domain (what the API uses when none is named).
  const [picked, setPicked] = useState<string | null>(null);
  const domains = useDomains();
  const domainList = domains ? domainChoices(me.shortUrlBase, domains) : [];
  const domain = picked ?? (domains ? defaultChoice(me.shortUrlBase, domains) : null);
  const [source, setSource] = useState<'file' | 'paste'>('file');
  const [file, setFile] = useState<{ blob: File; text: string } | null>(null);
  const [pasted, setPasted] = useState('');
  const [check, setCheck] = useState<Check>({ phase: 'none' });
  const [run, setRun] = useState<Run>({ phase: 'idle' });
  const folders = useChoices(me, 'folders.read', () => client.GET('/api/v1/folders'), 'folders');
  const templates = useChoices(me, 'templates.read', () => client.GET('/api/v1/templates'), 'templates');
  // One key per set of inputs: a double click or a retry of the same batch sends the same key, so
  // the API answers the first request's batch instead of making a second one.
  const batchKey = useMemo(newIdempotencyKey, [type, folderId, templateId, domain, source, file, pasted]);
  const text = source === 'file' ? (file?.text ?? '') : pasted;
  const rows = source === 'file' ? file?.blob : pasted.trim() ? new Blob([pasted], { type: 'text/csv' }) : undefined;
  const fileName = source === 'file' ? (file?.blob.name ?? 'rows.csv') : 'pasted-rows.csv';
  const current = check.phase === 'done' && check.key === batchKey;
  // These very inputs were sent: sending them again would only answer the same batch.
  const sent = run.phase === 'following' && run.key === batchKey;
  const ready = current && check.phase === 'done' && check.valid;
  const { job, lost } = useFollowedJob(run.phase === 'following' ? run.jobId : null);
  const busy = run.phase === 'sending' || (run.phase === 'following' && (!job || unfinished(job)) && !lost);

  const showReport = (
    errors: readonly FieldProblem[],
    omitted: number | undefined,
    count: number | null,
    valid: boolean,
    table: CsvTable,
  ) => setCheck({ phase: 'done', key: batchKey, table, count, valid, report: reportOf(errors, omitted) });

  const runCheck = async () => {
    if (!rows)
      return setCheck({
        phase: 'failed',
        message: source === 'file' ? 'Choose a CSV file first.' : 'Paste the rows first, a header row then one row per link.',
      });
    const table = readCsvText(text);
    setCheck({ phase: 'checking' });
    try {
      // The OpenAPI document gives the multipart form the JSON body's members; the form is sent as FormData.
      const body = bulkForm(type, rows, fileName, folderId, templateId, domain) as never;
      const { data, error, response } = await client.POST('/api/v1/bulk-generate', { params: { query: { dryRun: 'true' } }, body });
      if (data && 'dryRun' in data) return showReport(data.errors, data.omittedErrors, data.count, data.valid, table);
      // A file the API could not read at all is a 400 naming `file` (or its header): no count of rows.
      const problems = (error as { errors?: FieldProblem[]; omittedErrors?: number } | undefined) ?? {};
      if (response.status === 400 && Array.isArray(problems.errors)) {
        const report = reportOf(problems.errors, problems.omittedErrors);
        return showReport(problems.errors, problems.omittedErrors, report.rows.size > 0 ? table.rows.length : null, false, table);
      }
      setCheck({ phase: 'failed', message: problemText(response.status, error) });
    } catch {
      setCheck({ phase: 'failed', message: UNREACHABLE });
    }
  };

  const generate = async () => {
    if (!rows || !current) return;
    setRun({ phase: 'sending' });
    try {
      const body = bulkForm(type, rows, fileName, folderId, templateId, domain) as never;
      const { data, error, response } = await client.POST('/api/v1/bulk-generate', {
        params: { header: { 'idempotency-key': batchKey } },
        body,
      });
      // 200: the links are made and the job goes on rendering; 202: the job has not made them yet. Both are followed.
      if (data && 'jobId' in data) return setRun({ phase: 'following', key: batchKey, jobId: data.jobId });
      const problems = error as { errors?: FieldProblem[]; omittedErrors?: number } | undefined;
      if (response.status === 400 && Array.isArray(problems?.errors)) {
        showReport(problems.errors, problems.omittedErrors, check.phase === 'done' ? check.count : null, false, readCsvText(text));
        return setRun({ phase: 'refused', message: 'The API refused the batch; the report below says why. Nothing was made.' });
      }
      const why = problemText(response.status, error).replace(/\.?$/, '.');
      setRun({
        phase: 'refused',
        message:
          response.status === 429
            ? `The batch was not started: ${why} Press Generate again in a few seconds; it will not be made twice.`
            : `The batch was not started. ${why}`,
      });
    } catch {
      setRun({ phase: 'refused', message: `${UNREACHABLE} Pressing Generate again is safe: the same batch is never made twice.` });
    }
  };

  // Generate is disabled as the batch goes out: focus moves to the batch's panel, so it is not lost
  // and the next Tab reaches the download once it is there.
  const runPanel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (run.phase === 'sending') runPanel.current?.focus();
  }, [run.phase]);

  const restart = () => {
    setRun({ phase: 'idle' });
    setCheck({ phase: 'none' });
    setFile(null);
    setPasted('');
  };

  // Problems of the batch (`type`, `folderId`, `templateId`, `file`) at the fields of those names.
  const errors = check.phase === 'done' ? check.report.batch : NO_ERRORS;

  return (
    <section class="bulk" aria-labelledby="bulk-title">
      <h1 id="bulk-title">Bulk generation</h1>
      <p class="hint">
        Up to 1,200 links of one type at once, from a spreadsheet saved as CSV. Check the rows first; nothing is made until every row is
        right.
      </p>

      <div class="bulk-form">
        <div class="bulk-what">
          <Field
            path="type"
            label="Link type"
            errors={errors}
            hint="Every row of a batch makes a link of this type; its columns are listed below."
          >
            {(input) => (
              <select {...input} value={type} disabled={busy} onChange={(e) => setType(e.currentTarget.value as BulkType)}>
                {TYPES.map((t) => (
                  <option key={t} value={t}>
                    {BULK_TYPE_LABELS[t]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Columns type={type} />
          <Choice
            path="folderId"
            label="Folder (optional)"
            none="No folder"
            choices={folders}
            value={folderId}
            onChange={setFolderId}
            errors={errors}
            disabled={busy}
          />
          {domainList.length > 1 && (
            <Field path="domain" label="Domain" errors={errors} hint="The name in front of every short URL of the batch.">
              {(input) => (
                <select {...input} value={domain ?? ''} disabled={busy} onChange={(e) => setPicked(e.currentTarget.value)}>
                  {domainList.map((d) => (
                    <option key={d.host} value={d.host}>
                      {d.label}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          )}
          <Choice
            path="templateId"
            label="Template (optional)"
            none="No template: the default style"
            choices={templates}
            value={templateId}
            onChange={setTemplateId}
            errors={errors}
            disabled={busy}
          />
        </div>
        <div class="bulk-rows">
          <fieldset class="bulk-source" disabled={busy}>
            <legend>Rows</legend>
            <div class="bulk-source-choice">
              {(['file', 'paste'] as const).map((s) => (
                <label key={s} class="check">
                  <input type="radio" name="bulk-source" value={s} checked={source === s} onChange={() => setSource(s)} />
                  {s === 'file' ? 'Upload a CSV file' : 'Paste rows'}
                </label>
              ))}
            </div>
            {source === 'file' ? (
              <>
                <DropZone
                  id="bulk-file"
                  fileName={file?.blob.name ?? null}
                  invalid={!!errors.file}
                  describedBy={errors.file ? 'field-file-error' : undefined}
                  onFile={(blob) => void blob.text().then((contents) => setFile({ blob, text: contents }))}
                />
                {errors.file && (
                  <p class="field-error" id="field-file-error">
                    {errors.file}
                  </p>
                )}
              </>
            ) : (
              <Field path="file" label="Rows as CSV: the header row first, then one row per link" errors={errors}>
                {(input) => (
                  <textarea
                    {...input}
                    rows={8}
                    spellcheck={false}
                    value={pasted}
                    placeholder={sampleCsv(type).split('\r\n').slice(0, 2).join('\n')}
                    onInput={(e) => setPasted(e.currentTarget.value)}
                  />
                )}
              </Field>
            )}
          </fieldset>

          <div class="actions bulk-actions">
            <button type="button" disabled={busy || check.phase === 'checking'} onClick={() => void runCheck()}>
              {check.phase === 'checking' ? 'Checking…' : 'Check'}
            </button>
            <button type="submit" disabled={busy || sent || !ready} aria-describedby="bulk-generate-why" onClick={() => void generate()}>
              {run.phase === 'sending' ? 'Sending…' : 'Generate'}
            </button>
          </div>
          <p class="hint" id="bulk-generate-why">
            {sent
              ? 'These rows were sent as the batch below. Change the rows or start another batch to make more links.'
              : ready
                ? 'Every row is ready.'
                : check.phase === 'done' && !current
                  ? 'The rows or choices changed since the last check: check again before generating.'
                  : 'Generate is available once a check finds every row ready.'}
          </p>
        </div>
      </div>

      <p role="status" class="bulk-summary">
        {check.phase === 'checking' ? 'Checking the rows…' : check.phase === 'done' ? summaryText(check.count, check.report) : ''}
      </p>
      {check.phase === 'failed' && (
        <p class="field-error" role="alert">
          The rows could not be checked. {check.message}
        </p>
      )}
      {run.phase !== 'idle' && (
        <div class="bulk-run-wrap" ref={runPanel} tabIndex={-1}>
          <RunPanel run={run} job={job} lost={lost} folderId={folderId} onRestart={restart} />
        </div>
      )}
      {check.phase === 'done' && <ReportTable table={check.table} report={check.report} />}
    </section>
  );
}

function Columns({ type }: { type: BulkType }) {
  const columns = BULK_COLUMNS[type];
  const list = (required: boolean) =>
    columns
      .filter((c) => c.required === required)
      .map((c) => (
        <li key={c.name}>
          <code>{c.name}</code>
          {c.hint && <span class="hint"> ({c.hint})</span>}
        </li>
      ));
  return (
    <div class="bulk-columns" id="bulk-columns">
      <p>Columns of {BULK_TYPE_LABELS[type]} rows, named in the header row, in any order:</p>
      <div class="bulk-column-lists">
        <div>
          <h2>Required</h2>
          <ul>{list(true)}</ul>
        </div>
        {columns.some((c) => !c.required) && (
          <div>
            <h2>Optional (may be left blank)</h2>
            <ul>{list(false)}</ul>
          </div>
        )}
      </div>
      <button type="button" onClick={() => saveSample(type)}>
        Download a sample CSV
      </button>
    </div>
  );
}

interface ChoiceProps {
  path: 'folderId' | 'templateId';
  label: string;
  none: string;
  choices: Choices;
  value: string;
  onChange(value: string): void;
  errors: FieldErrors;
  disabled: boolean;
}

/** A folder or template choice; without the scope to read them, the reason, and the batch goes without one. */
function Choice({ path, label, none, choices, value, onChange, errors, disabled }: ChoiceProps) {
  if (!Array.isArray(choices)) {
    return (
      <div class="field">
        <span class="field-label">{label}</span>
        <p class="hint">{choices ?? 'Loading…'}</p>
      </div>
    );
  }
  return (
    <Field path={path} label={label} errors={errors}>
      {(input) => (
        <select {...input} value={value} disabled={disabled} onChange={(e) => onChange(e.currentTarget.value)}>
          <option value="">{none}</option>
          {choices.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function RunPanel({
  run,
  job,
  lost,
  folderId,
  onRestart,
}: {
  run: Exclude<Run, { phase: 'idle' }>;
  job: JobView | null;
  lost: string | null;
  folderId: string;
  onRestart(): void;
}) {
  if (run.phase === 'sending') return <p class="notice">Sending the batch…</p>;
  if (run.phase === 'refused' || lost) {
    return (
      <p class="field-error" role="alert">
        {run.phase === 'refused'
          ? run.message
          : `The batch's progress cannot be followed: ${lost} The Jobs page lists the account's batches.`}
      </p>
    );
  }
  const file = job ? jobFile(job) : null;
  const made = job?.result && typeof job.result === 'object' ? (job.result as { count?: number }).count : undefined;
  const linksRoute = routeOfView({ ...DEFAULT_VIEW, folder: folderId || null });
  return (
    <div class="notice bulk-run" role="region" aria-labelledby="bulk-run-title">
      <h2 id="bulk-run-title">The batch</h2>
      {job && unfinished(job) && <JobProgress progress={job.progress} labelId="bulk-run-title" />}
      <p role="status">{progressText(job?.state ?? 'queued', job?.progress ?? 0, made)}</p>
      {job?.state === 'failed' && <p class="field-error">{job.error ?? 'No reason was recorded.'}</p>}
      <div class="actions">
        {file && <JobDownload jobId={run.jobId} fileName={file.fileName} label={`Download the codes (${file.fileName})`} primary />}
        {made !== undefined && <a href={`#${linksRoute}`}>See the new links</a>}
        {job?.state === 'completed' && <PrintSheets source={{ bulkJobId: run.jobId }} what="this batch" />}
        {job && !unfinished(job) && (
          <button type="button" onClick={onRestart}>
            Start another batch
          </button>
        )}
      </div>
    </div>
  );
}
