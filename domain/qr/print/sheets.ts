/**
 * Print sheets: many codes in one print-ready PDF, drawn on a render thread (render-task.ts).
 *
 * - `grid`: A4 or Letter pages, a grid of codes at `sizeMm` inside the margins, each with a
 *   caption under it (the link's name and a short typable fallback such as `aroma.pt/k7F2q`), a
 *   page number in the footer, and crop marks in the margins on every cut line between cards.
 *   Codes are kept a quiet zone apart (QUIET_SHARE of their size: four modules of the smallest
 *   code a short URL makes, more modules for bigger codes), and captions start past it.
 * - `table-tent`: one A5 page per cafe, folded across the middle into a tent: the front (bottom
 *   half) and the back (top half, upside down so it reads upright once folded) each show the
 *   cafe's name, the menu code and, when the cafe has one, its Wi-Fi code.
 */
import type { ResolvedQrOptions } from '../options.js';
import type { QrImage } from '../render/index.js';
import { PdfDocument, type PdfColorSpace } from '#platform/pdf/pdf-document.js';
import { codeSvgForPdf, pdfReadyLogo, printedHeightMm } from './pdf.js';
import { defaultFrameText, wifiCaption, type FrameLanguage } from './frame-texts.js';

export const SHEET_PAPERS = ['a4', 'letter'] as const;
export type SheetPaper = (typeof SHEET_PAPERS)[number];
export const SHEET_TEMPLATES = ['grid', 'table-tent'] as const;
export type SheetTemplate = (typeof SHEET_TEMPLATES)[number];

/** Paper sizes, portrait, mm. */
const PAPER_MM: Record<SheetPaper | 'a5', { width: number; height: number }> = {
  a4: { width: 210, height: 297 },
  letter: { width: 215.9, height: 279.4 },
  a5: { width: 148, height: 210 },
};

export const SHEET_MARGIN_MIN_MM = 5;
export const SHEET_MARGIN_MAX_MM = 50;
export const SHEET_MARGIN_DEFAULT_MM = 10;
/** The space between codes (and between a code and its caption), as a share of the code's width. */
const QUIET_SHARE = 0.16;
/** The band at the foot of the printable area that holds the page number. */
const FOOTER_MM = 6;
/** Caption lines: name (bold) and the typable fallback. */
const CAPTION_LINES = 2;

/** One code of a sheet: its design (data included), its logo (an index into `logos`), and its caption. */
export interface SheetCode {
  options: ResolvedQrOptions;
  logo: number | null;
  name: string;
  /** The short URL without its scheme, e.g. `aroma.pt/k7F2q`. */
  fallback: string;
}

export interface SheetTent {
  cafeName: string;
  /** The language of the cafe's menu page, which the tent's captions speak. */
  language: FrameLanguage;
  menu: SheetCode;
  wifi: SheetCode | null;
}

export interface SheetRequest {
  template: SheetTemplate;
  paper: SheetPaper;
  sizeMm: number;
  marginsMm: number;
  caption: boolean;
  cropMarks: boolean;
  colorSpace: PdfColorSpace;
  title: string;
  /** Logos, once each: codes of a batch share one. */
  logos: QrImage[];
  codes: SheetCode[];
  tents: SheetTent[];
}

export interface GridLayout {
  columns: number;
  rows: number;
  perPage: number;
  /** Distance between codes, and from a code to its caption. */
  gapMm: number;
  captionPt: number;
  cellHeightMm: number;
  /** Left and top of the grid on the page. */
  leftMm: number;
  topMm: number;
  page: { width: number; height: number };
}

function captionPt(sizeMm: number): number {
  return Math.min(10, Math.max(5, Math.round(sizeMm / 5)));
}

/** Where a grid sheet's codes go; `perPage` 0 when not one code fits the paper at that size. */
export function gridLayout(opts: Pick<SheetRequest, 'paper' | 'sizeMm' | 'marginsMm' | 'caption'>): GridLayout {
  const page = PAPER_MM[opts.paper];
  const gapMm = Math.max(3, opts.sizeMm * QUIET_SHARE);
  const pt = captionPt(opts.sizeMm);
  // A caption line is about 1.25 × its font size (pt → mm).
  const captionMm = opts.caption ? (CAPTION_LINES * pt * 1.3 * 25.4) / 72 : 0;
  const cellHeightMm = opts.sizeMm + (opts.caption ? gapMm * 0.5 + captionMm : 0);
  const usableWidth = page.width - 2 * opts.marginsMm;
  const usableHeight = page.height - 2 * opts.marginsMm - FOOTER_MM;
  const columns = Math.max(0, Math.floor((usableWidth + gapMm) / (opts.sizeMm + gapMm)));
  const rows = Math.max(0, Math.floor((usableHeight + gapMm) / (cellHeightMm + gapMm)));
  const gridWidth = columns * opts.sizeMm + Math.max(0, columns - 1) * gapMm;
  const gridHeight = rows * cellHeightMm + Math.max(0, rows - 1) * gapMm;
  return {
    columns,
    rows,
    perPage: columns * rows,
    gapMm,
    captionPt: pt,
    cellHeightMm,
    leftMm: (page.width - gridWidth) / 2,
    topMm: opts.marginsMm + (usableHeight - gridHeight) / 2,
    page,
  };
}

/** Pages a sheet of `count` codes takes. */
export function sheetPages(request: Pick<SheetRequest, 'template' | 'paper' | 'sizeMm' | 'marginsMm' | 'caption'>, count: number): number {
  if (request.template === 'table-tent') return count;
  const { perPage } = gridLayout(request);
  return perPage === 0 ? 0 : Math.ceil(count / perPage);
}

export async function renderSheet(request: SheetRequest): Promise<Uint8Array> {
  const logos = await Promise.all(
    request.logos.map((logo) => pdfReadyLogo({ ...logo, data: Buffer.from(logo.data.buffer, logo.data.byteOffset, logo.data.byteLength) })),
  );
  const doc = new PdfDocument({
    colorSpace: request.colorSpace,
    title: request.title,
    subject:
      request.template === 'grid'
        ? `Print sheet: ${request.codes.length} QR codes, ${request.sizeMm} mm, ${request.paper.toUpperCase()}`
        : `Table tents: ${request.tents.length}, A5 folded`,
    keywords: 'QR code, print sheet',
    extraInfo: {
      QrTemplate: request.template,
      QrPaper: request.template === 'grid' ? request.paper : 'a5',
      QrPrintedSizeMm: String(request.sizeMm),
      QrColorSpace: request.colorSpace === 'cmyk' ? 'DeviceCMYK' : 'DeviceRGB',
      QrCodes: String(request.template === 'grid' ? request.codes.length : request.tents.length),
    },
    createdAt: new Date(0),
  });
  const logoOf = (code: SheetCode) => (code.logo === null ? null : (logos[code.logo] ?? null));
  if (request.template === 'grid') drawGrid(doc, request, logoOf);
  else drawTents(doc, request, logoOf);
  return doc.finish();
}

function drawCode(doc: PdfDocument, code: SheetCode, logo: QrImage | null, xMm: number, yMm: number, widthMm: number): number {
  const heightMm = printedHeightMm(code.options, widthMm);
  const { svg, images } = codeSvgForPdf(code.options, logo);
  doc.drawSvg(svg, code.options.width, code.options.height, { xMm, yMm, widthMm, heightMm }, images);
  return heightMm;
}

function drawGrid(doc: PdfDocument, request: SheetRequest, logoOf: (code: SheetCode) => QrImage | null): void {
  const layout = gridLayout(request);
  const { columns, perPage, gapMm, cellHeightMm, leftMm, topMm, page } = layout;
  const pages = Math.max(1, Math.ceil(request.codes.length / perPage));
  for (let p = 0; p < pages; p++) {
    doc.addPage({ widthMm: page.width, heightMm: page.height });
    const onPage = request.codes.slice(p * perPage, (p + 1) * perPage);
    const rowsUsed = Math.ceil(onPage.length / columns);
    onPage.forEach((code, i) => {
      const x = leftMm + (i % columns) * (request.sizeMm + gapMm);
      const y = topMm + Math.floor(i / columns) * (cellHeightMm + gapMm);
      const h = drawCode(doc, code, logoOf(code), x, y, request.sizeMm);
      if (request.caption) {
        const at = y + h + gapMm * 0.5;
        doc.text(code.name, { xMm: x, yMm: at, widthMm: request.sizeMm, sizePt: layout.captionPt, bold: true, align: 'center', lines: 1 });
        doc.text(code.fallback, {
          xMm: x,
          yMm: at + (layout.captionPt * 1.3 * 25.4) / 72,
          widthMm: request.sizeMm,
          sizePt: layout.captionPt,
          align: 'center',
          lines: 1,
        });
      }
    });
    if (request.cropMarks) gridCropMarks(doc, request, layout, Math.min(columns, onPage.length), rowsUsed);
    doc.text(`${p + 1} / ${pages}`, {
      xMm: request.marginsMm,
      yMm: page.height - request.marginsMm - FOOTER_MM / 2 - 1.5,
      widthMm: page.width - 2 * request.marginsMm,
      sizePt: 8,
      align: 'center',
      color: '#555555',
    });
  }
}

/**
 * Crop marks on every cut line between cards (a card is a code, its caption and half the gap
 * around them), in the page margins: never inside the grid, where they would fall in a code's
 * quiet zone.
 */
function gridCropMarks(doc: PdfDocument, request: SheetRequest, layout: GridLayout, columns: number, rows: number): void {
  const { gapMm, cellHeightMm, leftMm, topMm } = layout;
  const half = gapMm / 2;
  const xs = Array.from({ length: columns + 1 }, (_, i) => leftMm - half + i * (request.sizeMm + gapMm));
  const ys = Array.from({ length: rows + 1 }, (_, i) => topMm - half + i * (cellHeightMm + gapMm));
  const lengthMm = Math.min(5, request.marginsMm - 1);
  const top = ys[0]!;
  const bottom = ys[ys.length - 1]!;
  const left = xs[0]!;
  const right = xs[xs.length - 1]!;
  for (const x of xs) {
    doc.line(x, top - 1, x, top - 1 - lengthMm);
    doc.line(x, bottom + 1, x, bottom + 1 + lengthMm);
  }
  for (const y of ys) {
    doc.line(left - 1, y, left - 1 - lengthMm, y);
    doc.line(right + 1, y, right + 1 + lengthMm, y);
  }
}

/** Tent pages: A5, folded across the middle; see the module's comment. */
function drawTents(doc: PdfDocument, request: SheetRequest, logoOf: (code: SheetCode) => QrImage | null): void {
  const page = PAPER_MM.a5;
  const face = page.height / 2;
  for (const tent of request.tents) {
    doc.addPage({ widthMm: page.width, heightMm: page.height, cropMarks: request.cropMarks });
    doc.foldLine(0, face, page.width, face);
    // The back face is the front turned half a turn about the top half's centre.
    doc.rotated(180, page.width / 2, face / 2, () => drawTentFace(doc, request, tent, logoOf, 0, page.width, face));
    drawTentFace(doc, request, tent, logoOf, face, page.width, face);
  }
}

function drawTentFace(
  doc: PdfDocument,
  request: SheetRequest,
  tent: SheetTent,
  logoOf: (code: SheetCode) => QrImage | null,
  topMm: number,
  widthMm: number,
  heightMm: number,
): void {
  const margin = 10;
  doc.text(tent.cafeName, {
    xMm: margin,
    yMm: topMm + margin,
    widthMm: widthMm - 2 * margin,
    sizePt: 16,
    bold: true,
    align: 'center',
    lines: 1,
  });
  const codes = tent.wifi ? [tent.menu, tent.wifi] : [tent.menu];
  const menuCaption = defaultFrameText('table-tent', tent.language);
  const labels = tent.wifi ? [menuCaption, wifiCaption(tent.wifi.name, tent.language)] : [menuCaption];
  const available = heightMm - 2 * margin - 12 - 10;
  const size = Math.min(request.sizeMm, available, (widthMm - 2 * margin - (codes.length - 1) * 12) / codes.length);
  const total = codes.length * size + (codes.length - 1) * 12;
  const y = topMm + margin + 12;
  codes.forEach((code, i) => {
    const x = (widthMm - total) / 2 + i * (size + 12);
    const h = drawCode(doc, code, logoOf(code), x, y, size);
    doc.text(labels[i]!, { xMm: x - 6, yMm: y + h + 2, widthMm: size + 12, sizePt: 9, bold: true, align: 'center', lines: 1 });
    doc.text(code.fallback, { xMm: x - 6, yMm: y + h + 6, widthMm: size + 12, sizePt: 7, align: 'center', lines: 1 });
  });
}
