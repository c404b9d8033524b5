/**
 * The designer's print check: the size the code will be printed at and the distance it is read
 * from, and the server's gate (POST /qr/report) judging the design being edited at that size. The
 * in-browser risk list (risks.ts) is the instant hint; this verdict, from simulated phones and two
 * real decoders, is the judgement. Asked ~500 ms after the last change, the previous question
 * dropped; while it runs the last answer stays, dimmed, so nothing jumps.
 */
import { applyPatch } from '#domain/qr/print/design-patch.js';
import { useEffect, useState } from 'preact/hooks';
import type { paths } from '../api/schema.js';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import {
  PRINT_DISTANCE_MAX_MM,
  PRINT_PNG_DPI,
  PRINT_PNG_MAX_MM,
  PRINT_SIZE_MAX_MM,
  PRINT_SIZE_MIN_MM,
} from '#domain/qr/print/print-sizes.js';
import { saveBlob } from '../save-file.js';
import { Icon } from '../ui/Icon.js';
import { showToast } from '../ui/toasts.js';
import type { QrOptions } from './design.js';
import { downloadName } from './download-name.js';
import './print.css';

export type PrintReport = paths['/api/v1/qr/report']['post']['responses'][200]['content']['application/json']['data'];
type Verdict = PrintReport['gate']['verdict'];

/** The sizes a cafe prints most (table tent, menu, flyer, window), in mm. */
export const PRINT_SIZES_MM = [20, 30, 40, 50, 80, 100] as const;
/** The print trade's reading distance: ten times the printed width. */
const DISTANCE_PER_SIZE = 10;
/** How long the designer waits after the last change before asking the gate. */
const ASK_AFTER_MS = 500;

/** What the designer knows about printing: the width in mm, and the reading distance (null: 10× the width). */
export interface PrintChoice {
  sizeMm: number;
  distanceMm: number | null;
}

type Check =
  | { phase: 'idle' }
  | { phase: 'checking'; last: PrintReport | null }
  | { phase: 'ready'; report: PrintReport }
  | { phase: 'error'; message: string };

const cm = (mm: number) => `${Number((mm / 10).toFixed(1))} cm`;
const VERDICT_WORDS: Record<Verdict, string> = { 'scans-well': 'Scans well', risky: 'Risky', 'will-fail': 'Will fail' };
const VERDICT_ICONS = { 'scans-well': 'circle-check', risky: 'alert-triangle', 'will-fail': 'x' } as const;

/** The gate's answer for this design at this size; `enabled` false (a design the browser cannot draw) asks nothing. */
export function usePrintCheck(value: QrOptions, data: string, print: PrintChoice, enabled: boolean): Check {
  const [check, setCheck] = useState<Check>({ phase: 'idle' });
  const question = JSON.stringify([value, data, print.sizeMm, print.distanceMm]);
  useEffect(() => {
    if (!enabled) return;
    const abort = new AbortController();
    setCheck((was) => ({ phase: 'checking', last: was.phase === 'ready' ? was.report : was.phase === 'checking' ? was.last : null }));
    const timer = setTimeout(() => {
      signedInClient()
        .POST('/api/v1/qr/report', {
          body: {
            qr_options: value as never,
            data,
            sizeMm: print.sizeMm,
            ...(print.distanceMm !== null && { distanceMm: print.distanceMm }),
          },
          signal: abort.signal,
        })
        .then(({ data: answer, error, response }) => {
          if (abort.signal.aborted) return;
          setCheck(answer ? { phase: 'ready', report: answer.data } : { phase: 'error', message: problemText(response.status, error) });
        })
        .catch(() => !abort.signal.aborted && setCheck({ phase: 'error', message: UNREACHABLE }));
    }, ASK_AFTER_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [question, enabled]);
  return check;
}

/**
 * The verdict where the eye is (beside the preview, pinned above the controls on a phone), with
 * "Apply fix" when the gate found the smallest change that scans; the fix is undone from its toast.
 */
export function PrintVerdict({
  check,
  print,
  value,
  onChange,
}: {
  check: Check;
  print: PrintChoice;
  value: QrOptions;
  onChange(next: QrOptions): void;
}) {
  const report = check.phase === 'ready' ? check.report : check.phase === 'checking' ? check.last : null;
  const checking = check.phase === 'checking';
  if (check.phase === 'idle') return null;
  if (check.phase === 'error')
    return (
      <p class="hint qr-print-verdict" data-testid="print-verdict">
        The print check could not run: {check.message}
      </p>
    );
  const applyFix = (button: Element) => {
    const fix = report?.fix;
    if (!fix) return;
    const before = value;
    onChange(applyPatch(value, fix.qrOptionsPatch));
    showToast(`Fix applied: ${fix.changes.map((c) => c.text).join('; ')}`, {
      tone: 'success',
      anchor: button,
      undo: () => onChange(before),
    });
  };
  const verdict = report?.gate.verdict;
  return (
    <div class={`qr-print-verdict${checking ? ' qr-checking' : ''}`} aria-busy={checking} data-testid="print-verdict">
      <p class={`qr-verdict-line${verdict ? ` qr-verdict-${verdict}` : ''}`} role="status">
        {verdict ? (
          <>
            <Icon name={VERDICT_ICONS[verdict]} />
            <strong>{VERDICT_WORDS[verdict]}</strong>
            <span class="qr-verdict-where">
              printed {cm(print.sizeMm)}, read from {cm(report.distances.askedMm)}
            </span>
          </>
        ) : (
          <span class="qr-verdict-where">Checking how it prints…</span>
        )}
      </p>
      {report && (
        <p class="qr-verdict-score">
          {Math.round(report.gate.score * report.gate.captures.length)} of {report.gate.captures.length} simulated phones read it
          {checking && <span class="qr-checking-note"> · checking…</span>}
        </p>
      )}
      {report?.fix && verdict !== 'scans-well' && (
        <div class="qr-fix">
          <button
            type="button"
            class="primary"
            aria-describedby="qr-fix-what"
            onClick={(e) => applyFix(e.currentTarget)}
            disabled={checking}
          >
            Apply fix
          </button>
          <span class="hint" id="qr-fix-what">
            {report.fix.changes.map((c) => c.text).join('; ')}. Then it {VERDICT_WORDS[report.fix.verdict].toLowerCase()}.
          </span>
        </div>
      )}
    </div>
  );
}

/** The Print section of the controls: size and distance, then the reasons and the report's facts. */
export function PrintSection({ check, print, onPrint }: { check: Check; print: PrintChoice; onPrint(next: PrintChoice): void }) {
  const report = check.phase === 'ready' ? check.report : check.phase === 'checking' ? check.last : null;
  const [custom, setCustom] = useState(String(print.sizeMm));
  useEffect(() => setCustom(String(print.sizeMm)), [print.sizeMm]);
  const defaultDistance = print.sizeMm * DISTANCE_PER_SIZE;
  const setSize = (text: string) => {
    setCustom(text);
    const mm = Number(text);
    if (text.trim() !== '' && Number.isFinite(mm) && mm >= PRINT_SIZE_MIN_MM && mm <= PRINT_SIZE_MAX_MM) onPrint({ ...print, sizeMm: mm });
  };
  const setDistance = (text: string) => {
    const centimetres = Number(text);
    if (text.trim() === '') return onPrint({ ...print, distanceMm: null });
    if (Number.isFinite(centimetres) && centimetres > 0 && centimetres * 10 <= PRINT_DISTANCE_MAX_MM)
      onPrint({ ...print, distanceMm: Math.round(centimetres * 10) });
  };
  const customBad = custom.trim() === '' || !(Number(custom) >= PRINT_SIZE_MIN_MM && Number(custom) <= PRINT_SIZE_MAX_MM);
  const warnings = report?.warnings.filter((w) => w.level === 'warning') ?? [];
  const notes = report?.warnings.filter((w) => w.level === 'note') ?? [];
  return (
    <div class="qr-print">
      <fieldset class="qr-choices" role="radiogroup" aria-labelledby="qr-print-size-legend">
        <legend id="qr-print-size-legend">Printed width</legend>
        <div class="qr-choice-row">
          {PRINT_SIZES_MM.map((mm) => (
            <label key={mm} class="qr-choice qr-size-chip">
              <input
                type="radio"
                name="qr-print-size"
                value={mm}
                checked={print.sizeMm === mm}
                onChange={() => onPrint({ ...print, sizeMm: mm })}
              />
              {cm(mm)}
            </label>
          ))}
        </div>
      </fieldset>
      <div class="qr-print-fields">
        <div class="field">
          <label for="qr-print-custom">Custom width (mm)</label>
          <input
            id="qr-print-custom"
            type="number"
            inputMode="numeric"
            min={PRINT_SIZE_MIN_MM}
            max={PRINT_SIZE_MAX_MM}
            value={custom}
            aria-invalid={customBad}
            aria-describedby="qr-print-custom-hint"
            onInput={(e) => setSize(e.currentTarget.value)}
          />
          <span class={customBad ? 'field-error' : 'hint'} id="qr-print-custom-hint">
            {PRINT_SIZE_MIN_MM} to {PRINT_SIZE_MAX_MM} mm, the whole picture
          </span>
        </div>
        <div class="field">
          <label for="qr-print-distance">Reading distance (cm)</label>
          <input
            id="qr-print-distance"
            type="number"
            inputMode="decimal"
            min={1}
            max={PRINT_DISTANCE_MAX_MM / 10}
            placeholder={String(defaultDistance / 10)}
            value={print.distanceMm === null ? '' : String(print.distanceMm / 10)}
            aria-describedby="qr-print-distance-hint"
            onInput={(e) => setDistance(e.currentTarget.value)}
          />
          <span class="hint" id="qr-print-distance-hint">
            Empty: 10× the width ({cm(defaultDistance)})
          </span>
        </div>
      </div>
      {warnings.length > 0 && (
        <div class="qr-print-reasons">
          <h4>Why</h4>
          <ul>
            {warnings.map((w) => (
              <li key={`${w.code}-${w.text}`} data-code={w.code}>
                {w.text}
              </li>
            ))}
          </ul>
        </div>
      )}
      {notes.map((w) => (
        <p key={`${w.code}-${w.text}`} class="hint" data-code={w.code}>
          {w.text}
        </p>
      ))}
      {report && <Facts report={report} />}
      {check.phase === 'checking' && !report && (
        <p class="hint" role="status">
          Checking how it prints…
        </p>
      )}
      {check.phase === 'error' && <p class="hint">The print report could not be made: {check.message}</p>}
    </div>
  );
}

function Facts({ report }: { report: PrintReport }) {
  const { distances, logo } = report;
  return (
    <dl class="qr-print-facts" aria-label="Print report">
      <dt>Module</dt>
      <dd>{report.moduleMm.toFixed(2)} mm</dd>
      <dt>QR version</dt>
      <dd>
        {report.version} ({report.modules} × {report.modules}, level {report.errorCorrectionLevel})
      </dd>
      <dt>Quiet zone</dt>
      <dd>{Number(report.quietZoneModules.toFixed(1))} modules</dd>
      <dt>Contrast</dt>
      <dd>{report.contrastRatio === null ? 'a part is transparent' : `${report.contrastRatio.toFixed(1)} : 1`}</dd>
      {logo && (
        <>
          <dt>Logo</dt>
          <dd>
            covers {Math.round(logo.coverage * 100)} % of the {Math.round(logo.capacity * 100)} % the code can lose
          </dd>
        </>
      )}
      <dt>Reads up to</dt>
      <dd>{distances.gateMm > 0 ? cm(distances.gateMm) : `not even from ${cm(report.sizeMm * 2)}`}</dd>
      <dt>10× rule</dt>
      <dd>{cm(distances.ruleOfTenMm)}</dd>
    </dl>
  );
}

/** Whose print files the designer offers: a stored link's code, or a stored template's proof on sample data. */
export type PrintFileSource = { link: string } | { template: string };

type PrintFileFormat = 'pdf' | 'png';

/**
 * The print files of the stored code at the Print section's width (GET /links/:id/qr or
 * GET /templates/:id/preview with sizeMm): a vector PDF in RGB or CMYK (pure K black for a black
 * code) with crop marks when asked, and a 300 dpi PNG that says its size, for a cafe owner's
 * word processor or Canva. Drawn by the server from the saved design, so they wait for a save.
 */
export function PrintFiles({ of, block, sizeMm, name }: { of: PrintFileSource; block: string | undefined; sizeMm: number; name: string }) {
  const [cmyk, setCmyk] = useState(false);
  const [cropMarks, setCropMarks] = useState(false);
  const [busy, setBusy] = useState<PrintFileFormat | null>(null);
  const pngTooWide = sizeMm > PRINT_PNG_MAX_MM;
  const download = async (format: PrintFileFormat, button: Element) => {
    if (block || busy) return;
    setBusy(format);
    try {
      const query =
        format === 'pdf'
          ? ({ format, sizeMm, colorSpace: cmyk ? 'cmyk' : 'rgb', cropMarks: cropMarks ? 'true' : 'false' } as const)
          : ({ format, sizeMm } as const);
      const client = signedInClient();
      const { data, error, response } =
        'link' in of
          ? await client.GET('/api/v1/links/{id}/qr', { params: { path: { id: of.link }, query }, parseAs: 'blob' })
          : await client.GET('/api/v1/templates/{id}/preview', { params: { path: { id: of.template }, query }, parseAs: 'blob' });
      if (!data) {
        const what = format === 'pdf' ? 'PDF' : 'PNG';
        return showToast(`The ${what} could not be made: ${problemText(response.status, error)}`, { anchor: button, tone: 'error' });
      }
      saveBlob(data, downloadName(name, `${sizeMm}mm`, format));
    } catch {
      showToast(UNREACHABLE, { anchor: button, tone: 'error' });
    } finally {
      setBusy(null);
    }
  };
  const blockedBy = block ? 'qr-print-pdf-blocked' : undefined;
  return (
    <div class="qr-downloads qr-print-pdf" role="group" aria-labelledby="qr-print-pdf-title">
      <h3 id="qr-print-pdf-title">Print file</h3>
      <label class="qr-check">
        <input type="checkbox" checked={cmyk} onChange={(e) => setCmyk(e.currentTarget.checked)} />
        CMYK (for a print shop)
      </label>
      <label class="qr-check">
        <input type="checkbox" checked={cropMarks} onChange={(e) => setCropMarks(e.currentTarget.checked)} />
        Crop marks
      </label>
      <button
        type="button"
        disabled={block !== undefined || busy !== null}
        aria-describedby={blockedBy}
        onClick={(e) => void download('pdf', e.currentTarget)}
      >
        <Icon name="download" />
        {busy === 'pdf' ? 'Making the PDF…' : `Download print PDF (${cm(sizeMm)})`}
      </button>
      <button
        type="button"
        disabled={block !== undefined || busy !== null || pngTooWide}
        aria-describedby={blockedBy ?? (pngTooWide ? 'qr-print-png-too-wide' : undefined)}
        onClick={(e) => void download('png', e.currentTarget)}
      >
        <Icon name="download" />
        {busy === 'png' ? 'Making the PNG…' : `PNG, ${PRINT_PNG_DPI} dpi`}
      </button>
      {block && (
        <p id="qr-print-pdf-blocked" class="hint">
          {block}
        </p>
      )}
      {!block && pngTooWide && (
        <p id="qr-print-png-too-wide" class="hint">
          A {PRINT_PNG_DPI} dpi PNG is at most {cm(PRINT_PNG_MAX_MM)} wide: use the PDF, which prints at any size.
        </p>
      )}
    </div>
  );
}
