/**
 * The QR designer: a live preview drawn in the browser by the server's own renderer, with the
 * instant scan-risk hints and the server's print verdict (PrintPanel.tsx) beside it, kept in view while the controls scroll (beside them on a wide
 * container, pinned above them on a narrow one); the controls (DesignControls.tsx); downloads
 * and templates (apply one, save the design as one). Controlled: `value` is the API's
 * `qrOptions`, each change comes back through `onChange`. `errors` are the API's, keyed by option
 * path (`dotsOptions.color`).
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { Me } from '../api/client.js';
import type { QrImage } from '#domain/qr/render/scene.js';
import { NO_ERRORS, type FieldErrors } from '../fields/errors.js';
import { Icon } from '../ui/Icon.js';
import { UNREACHABLE } from '../api/signed-in.js';
import { decodeDataUri, DOWNLOAD_SIZES, renderDesign, type QrOptions } from './design.js';
import { DesignControls } from './DesignControls.js';
import type { ScanRisk } from '#domain/qr/print/risks.js';
import { ApplyTemplate, SaveAsTemplate } from './template-actions.js';
import { downloadName } from './download-name.js';
import './qr.css';
import { saveBlob } from '../save-file.js';
import { PrintFiles, PrintSection, PrintVerdict, usePrintCheck, type PrintChoice, type PrintFileSource } from './PrintPanel.js';
import { DEFAULT_PRINT_SIZE_MM } from '#domain/qr/print/print-sizes.js';
import { framedFile, useFramePreview, type FramePreview } from './frame-preview.js';

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
  /**
   * A stored link's code or template: offers its print files (a PDF, a 300 dpi PNG), drawn by the
   * server from the saved design at the Print section's size; `block` says why not now (not saved
   * yet, design changed).
   */
  printFiles?: { of: PrintFileSource; block?: string | undefined };
}

const FRAMED_DOWNLOAD_MAX = 1024;
function withoutFrame(value: QrOptions): QrOptions {
  if (!value.frameOptions) return value;
  const { frameOptions: _, ...code } = value;
  return code;
}
const svgUri = (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

export function QrDesigner({ value, onChange, data, name, me, errors = NO_ERRORS, downloadBlock, printFiles }: Props) {
  const { logo, state: logoState } = useLogo(value.image ?? null);
  // The browser draws the code; a frame is the server's (its text needs the server's font), and so
  // are the frame's messages: the code drawn here stays on screen while a frame's text is refused.
  const rendered = useMemo(() => renderDesign(withoutFrame(value), data, logo), [value, data, logo]);
  const framed = Boolean(value.frameOptions);
  const frame = useFramePreview(value, data, framed && rendered.ok);
  const fieldErrors: FieldErrors = rendered.ok ? { ...errors, ...frame.errors } : { ...errors, ...rendered.errors };
  const [print, setPrint] = useState<PrintChoice>({ sizeMm: DEFAULT_PRINT_SIZE_MM, distanceMm: null });
  const check = usePrintCheck(value, data, print, rendered.ok);
  const logoNote = (
    <>
      {logoState === 'reading' && <p class="hint">Reading the logo…</p>}
      {logoState === 'unreadable' && (
        <p class="field-error" role="alert">
          The browser cannot draw this logo; choose another file.
        </p>
      )}
    </>
  );
  return (
    <div class="qr-designer-box">
      <div class="qr-designer">
        <DesignControls
          value={value}
          onChange={onChange}
          data={data}
          errors={fieldErrors}
          logoNote={logoNote}
          printSection={<PrintSection check={check} print={print} onPrint={setPrint} />}
        />
        <div class="qr-side">
          <div class="qr-stage" role="group" aria-label="Preview">
            <div class="qr-preview">
              {rendered.ok && framed ? (
                <FramedPreview frame={frame} data={data} />
              ) : rendered.ok ? (
                <img src={svgUri(rendered.svg)} alt={`QR code preview encoding ${data}`} data-testid="qr-preview" />
              ) : (
                <p class="field-error" role="alert">
                  The code cannot be drawn: {Object.values(rendered.errors).join('; ')}
                </p>
              )}
            </div>
            <div class="qr-verdict">
              {logoState === 'remote' && <p class="hint">The logo at {value.image} is drawn by the server; the preview leaves it out.</p>}
              {rendered.ok && <PrintVerdict check={check} print={print} value={value} onChange={onChange} />}
              {rendered.ok && <Risks risks={rendered.risks} />}
            </div>
          </div>
          <div class="qr-actions">
            {rendered.ok && <Downloads value={value} data={data} name={name} logo={logo} block={downloadBlock} framed={framed} />}
            {printFiles && <PrintFiles of={printFiles.of} block={printFiles.block} sizeMm={print.sizeMm} name={name} />}
            <ApplyTemplate me={me} onApply={onChange} />
            <SaveAsTemplate me={me} value={value} />
          </div>
        </div>
      </div>
    </div>
  );
}

/**
 * The server's picture of a framed design: the last one stays (dimmed) while the next is drawn;
 * before the first, the box keeps its size with a word instead.
 */
function FramedPreview({ frame, data }: { frame: FramePreview; data: string }) {
  return (
    <div class={`qr-framed${frame.loading ? ' qr-checking' : ''}`} aria-busy={frame.loading}>
      {frame.svg ? (
        <img src={svgUri(frame.svg)} alt={`QR code preview with its frame, encoding ${data}`} data-testid="qr-preview" />
      ) : (
        !frame.problem && <p class="hint">Drawing the frame…</p>
      )}
      {frame.problem && (
        <p class="field-error" role="alert">
          The frame could not be drawn: {frame.problem}
        </p>
      )}
    </div>
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
      {risks.length === 0 && (
        <p class="qr-ok">
          <Icon name="circle-check" />
          No scan risks found
        </p>
      )}
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
  framed,
}: {
  value: QrOptions;
  data: string;
  name: string;
  logo: QrImage | null;
  block: string | undefined;
  framed: boolean;
}) {
  const [chosenSize, setSize] = useState<number>(1024);
  const [problem, setProblem] = useState<string | null>(null);
  // A framed code is drawn by the server's preview route, which draws at most 1024 px.
  const sizes = framed ? DOWNLOAD_SIZES.filter((s) => s <= FRAMED_DOWNLOAD_MAX) : DOWNLOAD_SIZES;
  const size = Math.min(chosenSize, sizes[sizes.length - 1]!);
  const download = async (format: 'png' | 'svg') => {
    if (block) return;
    setProblem(null);
    if (framed) {
      try {
        const file = await framedFile(value, data, format, size);
        if (typeof file === 'string') return setProblem(`The framed code could not be drawn: ${file}`);
        return saveBlob(file, downloadName(name, size, format));
      } catch {
        return setProblem(UNREACHABLE);
      }
    }
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
        {sizes.map((s) => (
          <option key={s} value={s}>
            {framed ? `${s} px wide` : `${s} × ${s} px`}
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
