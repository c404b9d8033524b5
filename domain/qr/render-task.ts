/**
 * What one render thread does with one task: options in, and out either image bytes (PNG) or
 * text (SVG), or a print report (the scannability gate and its figures: print/print-report.ts).
 * Everything here is CPU work, which is why it runs on the render threads, never on a process's
 * event loop.
 */
import { withQrDefaults, type QrOptions, type ResolvedQrOptions } from './options.js';
import { autoFix } from './print/auto-fix.js';
import { applyPatch } from './print/design-patch.js';
import { printReport, type PrintReport, type PrintRequest } from './print/print-report.js';
import { renderFramed } from './print/frames.js';
import { DISTANCE_PER_SIZE, gateDesign } from './print/scannability.js';
import { renderPng, renderSvg, withPixelsPerMetre, type QrImage } from './render/index.js';
import { renderQrPdf, type PdfPrint } from './print/pdf.js';
import { renderSheet, type SheetRequest } from './print/sheets.js';

export type QrFormat = 'png' | 'svg' | 'pdf';

/** Asked of an image render: judge it at a print size first, and draw the fixed design when it fails. */
export interface AutoFixRequest {
  sizeMm: number;
  distanceMm?: number;
}

export type RenderTask =
  | {
      kind: 'image';
      format: QrFormat;
      options: ResolvedQrOptions;
      image: QrImage | null;
      autoFix?: AutoFixRequest;
      /** The printed size and print options: a PDF's (required for one), an SVG's width and height in mm, a PNG's density. */
      print?: PdfPrint;
    }
  | { kind: 'report'; options: ResolvedQrOptions; image: QrImage | null; print: PrintRequest }
  | { kind: 'sheet'; sheet: SheetRequest };

/** An auto-fixed image says what was changed, so the api can tell its client. */
export interface RenderedImage {
  body: Uint8Array;
  /** The changes applied by auto-fix (their words), empty when the design already scanned well or none was asked. */
  fixed: string[];
}

export type RenderOutcome =
  | { ok: true; kind: 'image'; value: RenderedImage }
  | { ok: true; kind: 'report'; value: PrintReport }
  | { ok: true; kind: 'sheet'; value: Uint8Array }
  | { ok: false; path: string; message: string };

export async function renderTask(task: RenderTask): Promise<RenderOutcome> {
  if (task.kind === 'sheet') return { ok: true, kind: 'sheet', value: await renderSheet(task.sheet) };
  // Crossing into the thread turns a Buffer into a plain Uint8Array; the renderer needs a Buffer.
  const image = task.image && {
    ...task.image,
    data: Buffer.from(task.image.data.buffer, task.image.data.byteOffset, task.image.data.byteLength),
  };
  try {
    if (task.kind === 'report') return { ok: true, kind: 'report', value: await printReport(task.options, image, task.print) };
    let options = task.options;
    let fixed: string[] = [];
    if (task.autoFix) {
      const { sizeMm } = task.autoFix;
      const distanceMm = task.autoFix.distanceMm ?? sizeMm * DISTANCE_PER_SIZE;
      const gate = await gateDesign(options, image, sizeMm, distanceMm);
      const fix = gate.verdict === 'scans-well' ? null : await autoFix(options, image, sizeMm, distanceMm);
      if (fix) {
        options = withQrDefaults(applyPatch(options, fix.qrOptionsPatch), options.data);
        fixed = fix.changes.map((c) => c.text);
      }
    }
    const body = await renderImage(task.format, options, image, task.print);
    return { ok: true, kind: 'image', value: { body, fixed } };
  } catch (err) {
    // A render error that names an option is the user's to fix (400); errors cross the thread
    // boundary as plain data so their class is not lost.
    const e = err as { path?: unknown; message?: string };
    if (typeof e.path === 'string') return { ok: false, path: e.path, message: e.message ?? 'Cannot render' };
    throw err;
  }
}

async function renderImage(
  format: QrFormat,
  options: ResolvedQrOptions,
  image: QrImage | null,
  print: PdfPrint | undefined,
): Promise<Buffer> {
  if (format === 'pdf') {
    if (!print) throw new Error('A PDF render needs its print size');
    // Every print PDF carries the gate's verdict at its size in its metadata (~0.1 s; then cached).
    const report = await printReport(options, image, { sizeMm: print.sizeMm, proposeFix: false });
    return renderQrPdf(options, image, print, {
      verdict: report.gate.verdict,
      score: report.gate.score,
      gateMm: report.distances.gateMm,
      ruleOfTenMm: report.distances.ruleOfTenMm,
    });
  }
  // A framed design is drawn through SVG; an unframed PNG keeps the direct path (the qr bench's).
  if (format === 'png') {
    const png = options.frameOptions ? renderFramed('png', options, image) : renderPng(options, image);
    // Drawn for a print size: it says so, in pixels per metre.
    return print ? withPixelsPerMetre(png, options.width / (print.sizeMm / 1000)) : png;
  }
  const svg = options.frameOptions ? renderFramed('svg', options, image).toString() : renderSvg(options, image);
  if (!print) return Buffer.from(svg);
  return Buffer.from(withPhysicalSize(svg, print.sizeMm, print.sizeMm * svgAspect(svg)));
}

/** An SVG document's height over its width, read from its root (a framed picture is taller than its code). */
function svgAspect(svg: string): number {
  const root = /^<svg[^>]*? width="([\d.]+)" height="([\d.]+)"/.exec(svg);
  return root ? Number(root[2]) / Number(root[1]) : 1;
}

/** The SVG's root sized in millimetres (its viewBox keeps the drawing's own units), so it prints at that size. */
export function withPhysicalSize(svg: string, widthMm: number, heightMm: number): string {
  const mm = (v: number) => `${Math.round(v * 1000) / 1000}mm`;
  return svg.replace(/^(<svg[^>]*?) width="[^"]*" height="[^"]*"/, `$1 width="${mm(widthMm)}" height="${mm(heightMm)}"`);
}
