/**
 * Vector PDF at exact physical sizes: SVG documents drawn as PDF paths (svg-to-pdfkit over
 * pdfkit, decision 0439), text in an embedded font (Inter, subset), colours in DeviceRGB or
 * DeviceCMYK, bleed and crop marks. Generic: it knows pages, millimetres, SVG and text, nothing
 * of QR codes. Synchronous CPU work: callers run it on a render thread, never on an event loop.
 *
 * Coordinates are millimetres from the top-left corner of a page's trim box (the finished
 * page). A page with bleed or crop marks is bigger than its trim box: the MediaBox grows by the
 * bleed and, for crop marks, by the slug that holds them; TrimBox and BleedBox say where the
 * finished page and its bleed are, as print shops' preflight tools read them.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import SVGtoPDF from 'svg-to-pdfkit';

export type PdfColorSpace = 'rgb' | 'cmyk';

/** Points (1/72 in) per millimetre. */
export const PT_PER_MM = 72 / 25.4;
const pt = (mm: number) => mm * PT_PER_MM;

/** Where crop marks start outside the trim box (past the bleed), and how long they are. */
const MARK_GAP_MM = 2;
const MARK_LENGTH_MM = 5;
/** The hairline print shops expect for crop marks: 0.25 pt. */
const MARK_WIDTH_PT = 0.25;

export interface PdfDocumentOptions {
  colorSpace: PdfColorSpace;
  /** Shown by viewers as the document's name. */
  title: string;
  subject?: string;
  keywords?: string;
  /** More Info entries (names without spaces), e.g. the print facts. */
  extraInfo?: Record<string, string>;
  /** Fixed dates make equal inputs give equal bytes (cached files, tests). */
  createdAt?: Date;
}

export interface PdfPageOptions {
  widthMm: number;
  heightMm: number;
  /** Bleed on every side, 0 to 10 mm. */
  bleedMm?: number;
  /** Crop marks at the trim box's corners, in a slug outside the bleed. */
  cropMarks?: boolean;
  /** Painted over the trim box and its bleed before anything else (a CSS #rrggbb). */
  background?: string;
}

/** A raster or SVG picture an SVG placed on the page refers to, in that SVG's user units. */
export interface PdfSvgImage {
  x: number;
  y: number;
  width: number;
  height: number;
  contentType: 'image/png' | 'image/jpeg' | 'image/svg+xml';
  data: Uint8Array;
}

export interface PdfBox {
  xMm: number;
  yMm: number;
  widthMm: number;
  heightMm: number;
}

export interface PdfTextOptions {
  xMm: number;
  yMm: number;
  widthMm: number;
  sizePt: number;
  bold?: boolean;
  align?: 'left' | 'center' | 'right';
  /** #rrggbb; default black (pure K in CMYK). */
  color?: string;
  /** Lines the text may take before it is cut with an ellipsis (default 2). */
  lines?: number;
}

const requireHere = createRequire(import.meta.url);
let fonts: { regular: Buffer; bold: Buffer } | null = null;
/** Inter (SIL OFL), from @fontsource: read once per thread, embedded as a subset of the glyphs used. */
function interFonts() {
  fonts ??= {
    regular: readFileSync(requireHere.resolve('@fontsource/inter/files/inter-latin-400-normal.woff')),
    bold: readFileSync(requireHere.resolve('@fontsource/inter/files/inter-latin-700-normal.woff')),
  };
  return fonts;
}

function parseHex(color: string): [number, number, number] | null {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  return m ? [parseInt(m[1]!, 16), parseInt(m[2]!, 16), parseInt(m[3]!, 16)] : null;
}

/**
 * RGB (0–255) to CMYK percentages by the plain under-colour formula: black is pure K (0 0 0 100),
 * grays are K only, white is no ink. No ICC profile: a print shop converts with its own when it
 * must; what matters here is that a black code prints with one ink, never a four-colour black.
 */
export function rgbToCmyk([r, g, b]: readonly number[]): [number, number, number, number] {
  const R = r! / 255;
  const G = g! / 255;
  const B = b! / 255;
  const k = 1 - Math.max(R, G, B);
  if (k >= 1) return [0, 0, 0, 100];
  const round = (v: number) => Math.round(v * 10000) / 100;
  return [round((1 - R - k) / (1 - k)), round((1 - G - k) / (1 - k)), round((1 - B - k) / (1 - k)), round(k)];
}

export class PdfDocument {
  private readonly doc: PDFKit.PDFDocument;
  private readonly chunks: Buffer[] = [];
  private readonly done: Promise<Buffer>;
  private readonly cmyk: boolean;
  /** Top-left corner of the current page's trim box, in points from the MediaBox's. */
  private origin = { x: 0, y: 0 };
  private pages = 0;

  constructor(private readonly opts: PdfDocumentOptions) {
    this.cmyk = opts.colorSpace === 'cmyk';
    const createdAt = opts.createdAt ?? new Date();
    this.doc = new PDFDocument({
      autoFirstPage: false,
      compress: true,
      info: {
        Title: opts.title,
        ...(opts.subject !== undefined && { Subject: opts.subject }),
        ...(opts.keywords !== undefined && { Keywords: opts.keywords }),
        Creator: 'qrlinks',
        Producer: 'qrlinks (pdfkit)',
        CreationDate: createdAt,
        ModDate: createdAt,
      },
      displayTitle: true,
    });
    const info = this.doc.info as Record<string, unknown>;
    for (const [name, value] of Object.entries(opts.extraInfo ?? {})) info[name] = value;
    this.doc.on('data', (chunk: Buffer) => this.chunks.push(chunk));
    this.done = new Promise((resolve, reject) => {
      this.doc.on('end', () => resolve(Buffer.concat(this.chunks)));
      this.doc.on('error', reject);
    });
    const { regular, bold } = interFonts();
    this.doc.registerFont('regular', regular);
    this.doc.registerFont('bold', bold);
  }

  get pageCount(): number {
    return this.pages;
  }

  /** The colour to paint `hex` with in this document's colour space. */
  private paint(hex: string | undefined): [number, number, number] | [number, number, number, number] {
    const rgb = (hex && parseHex(hex)) || ([0, 0, 0] as [number, number, number]);
    return this.cmyk ? rgbToCmyk(rgb) : rgb;
  }

  addPage(page: PdfPageOptions): void {
    const bleed = Math.max(0, page.bleedMm ?? 0);
    const slug = page.cropMarks ? bleed + MARK_GAP_MM + MARK_LENGTH_MM + 1 : bleed;
    const width = pt(page.widthMm + 2 * slug);
    const height = pt(page.heightMm + 2 * slug);
    this.doc.addPage({ size: [width, height], margin: 0 });
    this.pages++;
    this.origin = { x: pt(slug), y: pt(slug) };
    // PDF boxes count from the bottom-left; ours are symmetric, so the same offsets hold.
    const box = (inset: number) => [pt(inset), pt(inset), width - pt(inset), height - pt(inset)];
    const dictionary = this.doc.page.dictionary.data as Record<string, unknown>;
    dictionary.TrimBox = box(slug);
    dictionary.BleedBox = box(slug - bleed);
    if (page.background) {
      this.doc
        .rect(pt(slug - bleed), pt(slug - bleed), pt(page.widthMm + 2 * bleed), pt(page.heightMm + 2 * bleed))
        .fill(this.paint(page.background));
    }
    if (page.cropMarks)
      this.cropMarks({ xMm: 0, yMm: 0, widthMm: page.widthMm, heightMm: page.heightMm }, bleed + MARK_GAP_MM, MARK_LENGTH_MM);
  }

  /**
   * Marks at the four corners of `box`, each a pair of hairlines `gapMm` away from it and
   * `lengthMm` long, in registration colour (all four inks in CMYK, so every plate shows them).
   */
  cropMarks(box: PdfBox, gapMm: number, lengthMm: number): void {
    const { doc } = this;
    const left = this.origin.x + pt(box.xMm);
    const top = this.origin.y + pt(box.yMm);
    const right = left + pt(box.widthMm);
    const bottom = top + pt(box.heightMm);
    const gap = pt(gapMm);
    const len = pt(lengthMm);
    doc.save().lineWidth(MARK_WIDTH_PT);
    doc.strokeColor(this.cmyk ? [100, 100, 100, 100] : [0, 0, 0]);
    for (const [x, dx] of [
      [left, -1],
      [right, 1],
    ] as const) {
      for (const [y, dy] of [
        [top, -1],
        [bottom, 1],
      ] as const) {
        doc
          .moveTo(x + dx * gap, y)
          .lineTo(x + dx * (gap + len), y)
          .stroke();
        doc
          .moveTo(x, y + dy * gap)
          .lineTo(x, y + dy * (gap + len))
          .stroke();
      }
    }
    doc.restore();
  }

  /**
   * An SVG document scaled into `box` (its viewBox fills the box, aspect kept), every shape as
   * PDF paths. `images` are pictures drawn over it at their places in the SVG's user units
   * (`svgWidth` × `svgHeight`): PNG and JPEG embedded as they are, SVG drawn as paths.
   */
  drawSvg(svg: string, svgWidth: number, svgHeight: number, box: PdfBox, images: readonly PdfSvgImage[] = []): void {
    const x = this.origin.x + pt(box.xMm);
    const y = this.origin.y + pt(box.yMm);
    const width = pt(box.widthMm);
    const height = pt(box.heightMm);
    const colorCallback = this.cmyk
      ? (color: [number[], number] | undefined): [number[], number] | undefined =>
          color && color[0].length === 3 ? [rgbToCmyk(color[0]), color[1]] : color
      : undefined;
    const scale = Math.min(width / svgWidth, height / svgHeight);
    // The root's own width and height would win over a viewport given here: scale its user units instead.
    this.doc.save().translate(x, y).scale(scale);
    SVGtoPDF(this.doc, svg, 0, 0, {
      width: svgWidth,
      height: svgHeight,
      assumePt: true,
      precision: 4,
      ...(colorCallback && { colorCallback }),
      warningCallback: () => undefined,
    });
    this.doc.restore();
    for (const image of images) {
      const ix = x + image.x * scale;
      const iy = y + image.y * scale;
      const iw = image.width * scale;
      const ih = image.height * scale;
      if (image.contentType === 'image/svg+xml') {
        SVGtoPDF(this.doc, Buffer.from(image.data).toString('utf8'), ix, iy, {
          width: iw,
          height: ih,
          assumePt: true,
          preserveAspectRatio: 'xMidYMid meet',
          ...(colorCallback && { colorCallback }),
          warningCallback: () => undefined,
        });
      } else {
        this.doc.image(Buffer.from(image.data), ix, iy, { fit: [iw, ih], align: 'center', valign: 'center' });
      }
    }
  }

  /** Text wrapped within `widthMm`, cut with an ellipsis past `lines` lines. */
  text(text: string, opts: PdfTextOptions): void {
    const { doc } = this;
    doc
      .font(opts.bold ? 'bold' : 'regular')
      .fontSize(opts.sizePt)
      .fillColor(this.paint(opts.color));
    doc.text(text, this.origin.x + pt(opts.xMm), this.origin.y + pt(opts.yMm), {
      width: pt(opts.widthMm),
      align: opts.align ?? 'left',
      lineBreak: true,
      height: opts.sizePt * 1.25 * (opts.lines ?? 2),
      ellipsis: true,
      lineGap: 0,
    });
  }

  /** A hairline in registration colour (a cut line's mark). */
  line(x1Mm: number, y1Mm: number, x2Mm: number, y2Mm: number): void {
    this.doc
      .save()
      .lineWidth(MARK_WIDTH_PT)
      .strokeColor(this.cmyk ? [100, 100, 100, 100] : [0, 0, 0])
      .moveTo(this.origin.x + pt(x1Mm), this.origin.y + pt(y1Mm))
      .lineTo(this.origin.x + pt(x2Mm), this.origin.y + pt(y2Mm))
      .stroke()
      .restore();
  }

  /** Draws what `draw` draws turned `degrees` about (xMm, yMm). */
  rotated(degrees: number, xMm: number, yMm: number, draw: () => void): void {
    this.doc.save().rotate(degrees, { origin: [this.origin.x + pt(xMm), this.origin.y + pt(yMm)] });
    draw();
    this.doc.restore();
  }

  /** A dashed line (a fold), in a light gray. */
  foldLine(x1Mm: number, y1Mm: number, x2Mm: number, y2Mm: number): void {
    const { doc } = this;
    doc
      .save()
      .lineWidth(0.5)
      .dash(3, { space: 3 })
      .strokeColor(this.paint('#999999'))
      .moveTo(this.origin.x + pt(x1Mm), this.origin.y + pt(y1Mm))
      .lineTo(this.origin.x + pt(x2Mm), this.origin.y + pt(y2Mm))
      .stroke()
      .undash()
      .restore();
  }

  /** The finished file. */
  finish(): Promise<Buffer> {
    if (this.pages === 0) this.addPage({ widthMm: 210, heightMm: 297 });
    this.doc.end();
    return this.done;
  }
}

/** One SVG as a one-page PDF exactly `widthMm` × `heightMm` (its trim box), with optional bleed and crop marks. */
export async function svgToPdf(
  svg: string,
  opts: PdfDocumentOptions &
    PdfPageOptions & {
      svgWidth: number;
      svgHeight: number;
      images?: readonly PdfSvgImage[];
    },
): Promise<Buffer> {
  const doc = new PdfDocument(opts);
  doc.addPage(opts);
  doc.drawSvg(svg, opts.svgWidth, opts.svgHeight, { xMm: 0, yMm: 0, widthMm: opts.widthMm, heightMm: opts.heightMm }, opts.images);
  return doc.finish();
}
