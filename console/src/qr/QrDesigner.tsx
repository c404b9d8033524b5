/**
 * The QR designer: every styling control grouped by what it paints, a live preview drawn in the
 * browser by the server's own renderer, scan-risk warnings beside it, downloads, and templates
 * (apply one, save the design as one). Controlled: `value` is the API's `qrOptions`, each change
 * comes back through `onChange`. `errors` are the API's, keyed by option path (`dotsOptions.color`).
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { Me } from '../api/client.js';
import { CORNER_DOT_TYPES, CORNER_SQUARE_TYPES, DOT_TYPES, ERROR_CORRECTION_LEVELS } from '../../../domain/qr/options.js';
import type { QrImage } from '../../../domain/qr/render/scene.js';
import { Field } from '../fields/Field.js';
import { NO_ERRORS, type FieldErrors } from '../fields/errors.js';
import {
  decodeDataUri,
  DEFAULT_MARGIN,
  DOWNLOAD_SIZES,
  fillControls,
  hexColor,
  logoFileProblem,
  LOGO_TYPES,
  renderDesign,
  resolved,
  withFill,
  withSection,
  type FillControls,
  type FillPart,
  type QrOptions,
} from './design.js';
import type { ScanRisk } from './risks.js';
import { ApplyTemplate, SaveAsTemplate } from './template-actions.js';
import { downloadName } from './download-name.js';
import './qr.css';
import { saveBlob } from '../save-file.js';

interface Props {
  value: QrOptions;
  onChange(next: QrOptions): void;
  /** The text the code encodes (the link's short URL, or a sample one for a template). */
  data: string;
  /** Names downloads (`<name>-512.png`). */
  name: string;
  /**
   * Why the code cannot be downloaded (a link not saved yet: `data` is then a placeholder, a short
   * URL no link holds); the buttons stay visible, off, with this beside them. Absent: downloads on.
   */
  downloadBlock?: string;
  me: Me;
  errors?: FieldErrors;
}

const LEVEL_LABELS: Record<(typeof ERROR_CORRECTION_LEVELS)[number], string> = {
  L: 'L: recovers 7 % (smallest code)',
  M: 'M: recovers 15 %',
  Q: 'Q: recovers 25 %',
  H: 'H: recovers 30 % (best with a logo)',
};

const svgUri = (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

export function QrDesigner({ value, onChange, data, name, me, errors = NO_ERRORS, downloadBlock }: Props) {
  const { logo, state: logoState } = useLogo(value.image ?? null);
  const rendered = useMemo(() => renderDesign(value, data, logo), [value, data, logo]);
  const fieldErrors: FieldErrors = rendered.ok ? errors : { ...errors, ...rendered.errors };
  const opts = resolved(value, data);
  const set = <S extends 'dotsOptions' | 'cornersSquareOptions' | 'cornersDotOptions' | 'imageOptions' | 'qrOptions'>(
    section: S,
    patch: NonNullable<QrOptions[S]>,
  ) => onChange(withSection(value, section, patch));

  return (
    <div class="qr-designer">
      <div class="qr-controls">
        <fieldset class="group">
          <legend>Dots</legend>
          <StyleSelect
            path="dotsOptions.type"
            label="Dot style"
            value={opts.dotsOptions.type}
            options={DOT_TYPES}
            errors={fieldErrors}
            onSelect={(type) => set('dotsOptions', { type })}
          />
          <FillFields part="dotsOptions" noun="Dot" value={value} onChange={onChange} errors={fieldErrors} />
        </fieldset>
        <fieldset class="group">
          <legend>Corner squares</legend>
          <StyleSelect
            path="cornersSquareOptions.type"
            label="Corner square style"
            value={opts.cornersSquareOptions.type}
            options={CORNER_SQUARE_TYPES}
            errors={fieldErrors}
            onSelect={(type) => set('cornersSquareOptions', { type })}
          />
          <FillFields part="cornersSquareOptions" noun="Corner square" value={value} onChange={onChange} errors={fieldErrors} />
        </fieldset>
        <fieldset class="group">
          <legend>Corner dots</legend>
          <StyleSelect
            path="cornersDotOptions.type"
            label="Corner dot style"
            value={opts.cornersDotOptions.type}
            options={CORNER_DOT_TYPES}
            errors={fieldErrors}
            onSelect={(type) => set('cornersDotOptions', { type })}
          />
          <FillFields part="cornersDotOptions" noun="Corner dot" value={value} onChange={onChange} errors={fieldErrors} />
        </fieldset>
        <fieldset class="group">
          <legend>Background</legend>
          <FillFields part="backgroundOptions" noun="Background" value={value} onChange={onChange} errors={fieldErrors} />
        </fieldset>
        <LogoFields value={value} onChange={onChange} errors={fieldErrors} logoState={logoState} />
        <fieldset class="group">
          <legend>Size and error correction</legend>
          <Field
            path="margin"
            label="Margin around the code (pixels)"
            errors={fieldErrors}
            hint="The QR standard asks for 4 modules of plain space around the code."
          >
            {(input) => (
              <input
                {...input}
                type="number"
                min={0}
                max={200}
                step={1}
                value={value.margin ?? DEFAULT_MARGIN}
                onInput={(e) => onChange({ ...value, margin: numberOr(e.currentTarget.value, DEFAULT_MARGIN) })}
              />
            )}
          </Field>
          <Field
            path="qrOptions.errorCorrectionLevel"
            label="Error correction"
            errors={fieldErrors}
            hint="Higher levels survive more damage and bigger logos, at the cost of a denser code."
          >
            {(input) => (
              <select
                {...input}
                value={opts.qrOptions.errorCorrectionLevel}
                onChange={(e) =>
                  set('qrOptions', { errorCorrectionLevel: e.currentTarget.value as (typeof ERROR_CORRECTION_LEVELS)[number] })
                }
              >
                {ERROR_CORRECTION_LEVELS.map((level) => (
                  <option key={level} value={level}>
                    {LEVEL_LABELS[level]}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </fieldset>
      </div>

      <aside class="qr-side" aria-label="Preview">
        <div class="qr-preview">
          {rendered.ok ? (
            <img src={svgUri(rendered.svg)} alt={`QR code preview encoding ${data}`} data-testid="qr-preview" />
          ) : (
            <p class="field-error" role="alert">
              The code cannot be drawn: {Object.values(rendered.errors).join('; ')}
            </p>
          )}
        </div>
        {logoState === 'remote' && <p class="hint">The logo at {value.image} is drawn by the server; the preview leaves it out.</p>}
        {rendered.ok && <Risks risks={rendered.risks} />}
        {rendered.ok && <Downloads value={value} data={data} name={name} logo={logo} block={downloadBlock} />}
        <ApplyTemplate me={me} onApply={onChange} />
        <SaveAsTemplate me={me} value={value} />
      </aside>
    </div>
  );
}

const numberOr = (text: string, fallback: number) => (text.trim() === '' || !Number.isFinite(Number(text)) ? fallback : Number(text));

function StyleSelect<T extends string>(props: {
  path: string;
  label: string;
  value: T;
  options: readonly T[];
  errors: FieldErrors;
  onSelect(value: T): void;
}) {
  return (
    <Field path={props.path} label={props.label} errors={props.errors}>
      {(input) => (
        <select {...input} value={props.value} onChange={(e) => props.onSelect(e.currentTarget.value as T)}>
          {props.options.map((o) => (
            <option key={o} value={o}>
              {o.replace(/-/g, ' ')}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** Colour, or a two-colour gradient with its angle, for one painted layer. */
function FillFields({
  part,
  noun,
  value,
  onChange,
  errors,
}: {
  part: FillPart;
  noun: string;
  value: QrOptions;
  onChange(next: QrOptions): void;
  errors: FieldErrors;
}) {
  const fill = fillControls(value, part);
  const update = (patch: Partial<FillControls>) => onChange(withFill(value, part, { ...fill, ...patch }));
  const colorInput = (path: string, label: string, current: string, key: 'color' | 'from' | 'to') => (
    <Field path={path} label={label} errors={errors}>
      {(input) => <input {...input} type="color" value={hexColor(current)} onInput={(e) => update({ [key]: e.currentTarget.value })} />}
    </Field>
  );
  return (
    <>
      <Field path={`${part}.fill`} label={`${noun} fill`} errors={errors}>
        {(input) => (
          <select {...input} value={fill.mode} onChange={(e) => update({ mode: e.currentTarget.value as FillControls['mode'] })}>
            <option value="solid">Solid colour</option>
            <option value="linear">Linear gradient</option>
            <option value="radial">Radial gradient</option>
          </select>
        )}
      </Field>
      {fill.mode === 'solid' ? (
        colorInput(`${part}.color`, `${noun} colour`, fill.color, 'color')
      ) : (
        <div class="qr-gradient">
          {colorInput(`${part}.gradient.colorStops.0.color`, `${noun} gradient start`, fill.from, 'from')}
          {colorInput(`${part}.gradient.colorStops.1.color`, `${noun} gradient end`, fill.to, 'to')}
          {fill.mode === 'linear' && (
            <Field path={`${part}.gradient.rotation`} label={`${noun} gradient angle (degrees)`} errors={errors}>
              {(input) => (
                <input
                  {...input}
                  type="number"
                  min={0}
                  max={360}
                  step={15}
                  value={fill.degrees}
                  onInput={(e) => update({ degrees: numberOr(e.currentTarget.value, 0) })}
                />
              )}
            </Field>
          )}
        </div>
      )}
    </>
  );
}

function LogoFields({
  value,
  onChange,
  errors,
  logoState,
}: {
  value: QrOptions;
  onChange(next: QrOptions): void;
  errors: FieldErrors;
  logoState: LogoState;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  const opts = resolved(value, 'x');
  const choose = (file: File | undefined) => {
    if (!file) return;
    const why = logoFileProblem(file);
    setProblem(why);
    if (why) return;
    const reader = new FileReader();
    reader.onload = () => onChange({ ...value, image: String(reader.result) });
    reader.onerror = () => setProblem('The file could not be read.');
    reader.readAsDataURL(file);
  };
  const imageError = problem ?? errors.image;
  return (
    <fieldset class="group">
      <legend>Logo</legend>
      <Field
        path="image"
        label="Logo image"
        errors={imageError ? { image: imageError } : NO_ERRORS}
        hint="PNG, JPEG, GIF, WebP or SVG, up to 1.5 MB; kept inside the design."
      >
        {(input) => <input {...input} type="file" accept={LOGO_TYPES.join(',')} onChange={(e) => choose(e.currentTarget.files?.[0])} />}
      </Field>
      {value.image && (
        <button type="button" class="small" onClick={() => onChange({ ...value, image: null })}>
          Remove the logo
        </button>
      )}
      <fieldset disabled={!value.image} class="qr-logo-options">
        <legend class="visually-hidden">Logo options</legend>
        <Field path="imageOptions.imageSize" label="Logo size (% of what error correction allows)" errors={errors}>
          {(input) => (
            <input
              {...input}
              type="number"
              min={10}
              max={100}
              step={5}
              value={Math.round(opts.imageOptions.imageSize * 100)}
              onInput={(e) => onChange(withSection(value, 'imageOptions', { imageSize: numberOr(e.currentTarget.value, 50) / 100 }))}
            />
          )}
        </Field>
        <Field path="imageOptions.margin" label="Space around the logo (pixels)" errors={errors}>
          {(input) => (
            <input
              {...input}
              type="number"
              min={0}
              max={50}
              step={1}
              value={opts.imageOptions.margin}
              onInput={(e) => onChange(withSection(value, 'imageOptions', { margin: numberOr(e.currentTarget.value, 0) }))}
            />
          )}
        </Field>
        <div class="check">
          <input
            id="field-imageOptions-hideBackgroundDots"
            type="checkbox"
            checked={opts.imageOptions.hideBackgroundDots}
            onChange={(e) => onChange(withSection(value, 'imageOptions', { hideBackgroundDots: e.currentTarget.checked }))}
          />
          <label for="field-imageOptions-hideBackgroundDots">Hide the dots behind the logo</label>
        </div>
      </fieldset>
      {logoState === 'reading' && <p class="hint">Reading the logo…</p>}
      {logoState === 'unreadable' && (
        <p class="field-error" role="alert">
          The browser cannot draw this logo; choose another file.
        </p>
      )}
    </fieldset>
  );
}

/** Where the logo stands: none; being read; drawn; not an image the browser can draw; a URL only the server fetches. */
type LogoState = 'none' | 'reading' | 'ready' | 'unreadable' | 'remote';

/** The logo as the renderer takes it (bytes, type, natural size), for a logo stored inline as a data: URI. */
function useLogo(image: string | null): { logo: QrImage | null; state: LogoState } {
  const [loaded, setLoaded] = useState<{ logo: QrImage | null; state: LogoState }>({ logo: null, state: 'none' });
  useEffect(() => {
    const decoded = image ? decodeDataUri(image) : null;
    if (!image || !decoded) return setLoaded({ logo: null, state: image ? 'remote' : 'none' });
    setLoaded({ logo: null, state: 'reading' });
    let current = true;
    const probe = new Image();
    probe.onload = () =>
      current && setLoaded({ logo: { ...decoded, width: probe.naturalWidth, height: probe.naturalHeight }, state: 'ready' });
    probe.onerror = () => current && setLoaded({ logo: null, state: 'unreadable' });
    probe.src = image;
    return () => {
      current = false;
    };
  }, [image]);
  return loaded;
}

function Risks({ risks }: { risks: ScanRisk[] }) {
  const warnings = risks.filter((r) => r.level === 'warning');
  const notes = risks.filter((r) => r.level === 'note');
  return (
    <div class="qr-risks" role="status">
      {warnings.length > 0 && (
        <div class="qr-warning">
          <h3>This design may not scan</h3>
          <ul>
            {warnings.map((r) => (
              <li key={r.text}>{r.text}</li>
            ))}
          </ul>
        </div>
      )}
      {notes.map((r) => (
        <p key={r.text} class="hint">
          {r.text}
        </p>
      ))}
    </div>
  );
}

function Downloads({
  value,
  data,
  name,
  logo,
  block,
}: {
  value: QrOptions;
  data: string;
  name: string;
  logo: QrImage | null;
  block: string | undefined;
}) {
  const [size, setSize] = useState<number>(1024);
  const [problem, setProblem] = useState<string | null>(null);
  const download = async (format: 'png' | 'svg') => {
    if (block) return;
    setProblem(null);
    const rendered = renderDesign(value, data, logo, size);
    if (!rendered.ok) return setProblem(Object.values(rendered.errors).join('; '));
    const svgBlob = new Blob([rendered.svg], { type: 'image/svg+xml' });
    if (format === 'svg') return saveBlob(svgBlob, downloadName(name, size, 'svg'));
    try {
      saveBlob(await pngOf(svgBlob, size), downloadName(name, size, 'png'));
    } catch {
      setProblem('The browser could not draw the PNG; download the SVG instead.');
    }
  };
  return (
    <div class="qr-downloads" role="group" aria-labelledby="qr-downloads-title">
      <h3 id="qr-downloads-title">Download</h3>
      <label for="qr-download-size">Download size</label>
      <select id="qr-download-size" value={size} onChange={(e) => setSize(Number(e.currentTarget.value))}>
        {DOWNLOAD_SIZES.map((s) => (
          <option key={s} value={s}>
            {s} × {s} px
          </option>
        ))}
      </select>
      <button
        type="button"
        disabled={block !== undefined}
        aria-describedby={block ? 'qr-downloads-blocked' : undefined}
        onClick={() => void download('png')}
      >
        Download PNG
      </button>
      <button
        type="button"
        disabled={block !== undefined}
        aria-describedby={block ? 'qr-downloads-blocked' : undefined}
        onClick={() => void download('svg')}
      >
        Download SVG
      </button>
      {block && (
        <p id="qr-downloads-blocked" class="hint">
          {block}
        </p>
      )}
      {problem && (
        <p class="field-error" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}

/** The SVG drawn 1:1 on a canvas of its own size: the browser rasterizes the same shapes the server does. */
async function pngOf(svg: Blob, size: number): Promise<Blob> {
  const url = URL.createObjectURL(svg);
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const canvas = Object.assign(document.createElement('canvas'), { width: size, height: size });
    canvas.getContext('2d')!.drawImage(image, 0, 0, size, size);
    return await new Promise<Blob>((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('no PNG'))), 'image/png'));
  } finally {
    URL.revokeObjectURL(url);
  }
}
