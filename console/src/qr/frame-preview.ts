/**
 * A framed design's picture, drawn by the server (POST /qr/preview): the browser cannot draw a
 * frame, whose text is outlined from a font file only the server reads. Asked ~300 ms after the
 * last change, the previous question dropped; the last picture stays while the next one is drawn,
 * so the preview never empties or jumps. Its 400 messages come back by option path.
 */
import { useEffect, useState } from 'preact/hooks';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import { errorsUnder, fieldErrorsOf, NO_ERRORS, type FieldErrors } from '../fields/errors.js';
import type { QrOptions } from './design.js';

const ASK_AFTER_MS = 300;

export interface FramePreview {
  /** The last picture drawn (an SVG document), or null before the first. */
  svg: string | null;
  loading: boolean;
  /** The server's refusal of the design, by option path (`frameOptions.text`). */
  errors: FieldErrors;
  /** A failure no field names (unreachable, 5xx). */
  problem: string | null;
}

const NOTHING: FramePreview = { svg: null, loading: false, errors: NO_ERRORS, problem: null };

/** What the server answers for this design; `enabled` false (no frame) asks nothing and forgets the picture. */
export function useFramePreview(value: QrOptions, data: string, enabled: boolean): FramePreview {
  const [preview, setPreview] = useState<FramePreview>(NOTHING);
  const question = JSON.stringify([value, data]);
  useEffect(() => {
    if (!enabled) return setPreview(NOTHING);
    const abort = new AbortController();
    setPreview((was) => ({ ...was, loading: true }));
    const timer = setTimeout(() => {
      signedInClient()
        .POST('/api/v1/qr/preview', {
          body: { qr_options: value, data, format: 'svg' },
          parseAs: 'text',
          signal: abort.signal,
        })
        .then(({ data: svg, error, response }) => {
          if (abort.signal.aborted) return;
          if (svg !== undefined) return setPreview({ svg, loading: false, errors: NO_ERRORS, problem: null });
          const parsed = typeof error === 'string' ? safeJson(error) : error;
          const errors = errorsUnder(fieldErrorsOf(parsed), 'qr_options');
          setPreview((was) => ({
            ...was,
            loading: false,
            errors,
            problem: Object.keys(errors).length ? null : problemText(response.status, parsed),
          }));
        })
        .catch(() => !abort.signal.aborted && setPreview((was) => ({ ...was, loading: false, problem: UNREACHABLE })));
    }, ASK_AFTER_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [question, enabled]);
  return preview;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** A framed design as a file, drawn by the server at `size` px wide (at most 1024, the preview's limit). */
export async function framedFile(value: QrOptions, data: string, format: 'png' | 'svg', size: number): Promise<Blob | string> {
  const {
    data: file,
    error,
    response,
  } = await signedInClient().POST('/api/v1/qr/preview', {
    body: { qr_options: value as never, data, format, size },
    parseAs: 'blob',
  });
  return file ?? problemText(response.status, error);
}
