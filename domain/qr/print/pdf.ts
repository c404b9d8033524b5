/**
 * A QR code as a print PDF: our own SVG (render/svg-write.ts) drawn as vector paths at an exact
 * physical size (platform/pdf), and the print decisions that belong to QR codes: the colour space
 * (CMYK turns a black code into pure K), bleed filled with the code's background, crop marks, a
 * logo of any type we accept, and the print facts in the file's metadata. Runs on a render thread.
 */
import type { ResolvedQrOptions } from '../options.js';
import { parseCssColor } from '../css-color.js';
import { renderSvg, type QrImage } from '../render/index.js';
import { computeLayout } from '../render/layout.js';
import { makeMatrix } from '../render/matrix.js';
import { svgToPdf, type PdfColorSpace, type PdfSvgImage } from '#platform/pdf/pdf-document.js';
import { pngOf } from '#platform/pdf/png-of.js';
import { frameCodeBox, framedCodeSide } from './frame-geometry.js';
import { defaultFrameText, framedSvg, resolveFrame } from './frames.js';

export const PDF_COLOR_SPACES = ['rgb', 'cmyk'] as const satisfies readonly PdfColorSpace[];
export const BLEED_MAX_MM = 10;

/** What a print PDF is asked for, besides the design. */
export interface PdfPrint {
  /** Printed width of the whole picture, mm; the height follows its aspect ratio. */
  sizeMm: number;
  colorSpace: PdfColorSpace;
  bleedMm: number;
  cropMarks: boolean;
  /** The document's title (the link's or template's name). */
  title: string;
}

/** The printed height of a picture `sizeMm` wide. */
export function printedHeightMm(options: Pick<ResolvedQrOptions, 'width' | 'height'>, sizeMm: number): number {
  return (sizeMm * options.height) / options.width;
}

/** `#rrggbb` of a colour the options hold, or null when it is not opaque (nothing to bleed). */
function opaqueHex(color: string): string | null {
  const rgba = parseCssColor(color);
  if (!rgba || rgba.a < 1) return null;
  return `#${[rgba.r, rgba.g, rgba.b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

const IMAGE_ELEMENT = /<image x="([\d.-]+)" y="([\d.-]+)" width="([\d.]+)" height="([\d.]+)" xlink:href="[^"]*"\/>/;

/**
 * The code's SVG without its logo, and the logo as a picture to draw over it. The logo is taken
 * out of the SVG because svg-to-pdfkit embeds only PNG and JPEG pictures: an SVG logo is drawn as
 * paths of its own. `image` must be PNG, JPEG or SVG already (pdfReadyLogo).
 */
export function codeSvgForPdf(options: ResolvedQrOptions, image: QrImage | null): { svg: string; images: PdfSvgImage[] } {
  const svg = renderSvg(options, image);
  const match = image ? IMAGE_ELEMENT.exec(svg) : null;
  if (!image || !match) return { svg, images: [] };
  const [element, x, y, width, height] = match;
  const box = { x: Number(x), y: Number(y), width: Number(width), height: Number(height) };
  const withoutLogo = svg.replace(element, '');
  if (image.contentType === 'image/png' || image.contentType === 'image/jpeg' || image.contentType === 'image/svg+xml') {
    return { svg: withoutLogo, images: [{ ...box, contentType: image.contentType, data: image.data }] };
  }
  return { svg: withoutLogo, images: [] };
}

/** A logo a PDF can hold: GIF and WebP become PNG (same natural size, so the code's layout is the same); null stays null. */
export async function pdfReadyLogo(image: QrImage | null): Promise<QrImage | null> {
  if (!image || image.contentType === 'image/png' || image.contentType === 'image/jpeg' || image.contentType === 'image/svg+xml')
    return image;
  const png = await pngOf(image.data);
  return png ? { ...image, contentType: 'image/png', data: png } : null;
}

/** The print facts, for a PDF's metadata: what a print shop or a later reader checks. */
export function printFacts(
  options: ResolvedQrOptions,
  print: Omit<PdfPrint, 'title'>,
  picture: { width: number; height: number } = options,
): Record<string, string> {
  const heightMm = (print.sizeMm * picture.height) / picture.width;
  // A framed code is drawn smaller than the picture, at its place in the frame.
  const side = options.frameOptions ? framedCodeSide(options.frameOptions.style, options.width) : null;
  const code = side ? { ...options, width: side, height: side } : options;
  const matrix = makeMatrix(code);
  const { count, dotSize } = computeLayout(code, matrix.count, null);
  const scale = side ? pictureCodeScale(options, side) : 1;
  const mmPerUnit = (print.sizeMm / picture.width) * scale;
  return {
    QrPrintedSizeMm: `${round2(print.sizeMm)} x ${round2(heightMm)}`,
    QrColorSpace: print.colorSpace === 'cmyk' ? 'DeviceCMYK' : 'DeviceRGB',
    QrBleedMm: String(print.bleedMm),
    QrCropMarks: print.cropMarks ? 'yes' : 'no',
    QrModules: String(count),
    QrModuleMm: String(round2(dotSize * mmPerUnit)),
    QrErrorCorrection: options.qrOptions.errorCorrectionLevel,
    QrData: options.data,
  };
}

const round2 = (v: number) => Math.round(v * 100) / 100;

/** The design as a one-page print PDF `print.sizeMm` wide (its trim box), with the asked bleed and crop marks. */
/**
 * What a PDF draws: the code's SVG and its logo, or, for a framed design, the frame around the
 * code (frames.ts) with the logo moved to where the code sits in it; and the picture's own size.
 */
export function pictureForPdf(
  options: ResolvedQrOptions,
  image: QrImage | null,
): { svg: string; images: PdfSvgImage[]; width: number; height: number } {
  const frameOptions = options.frameOptions;
  if (!frameOptions) return { ...codeSvgForPdf(options, image), width: options.width, height: options.height };
  const side = framedCodeSide(frameOptions.style, options.width);
  const { frameOptions: _frame, ...codeDesign } = options;
  const code = codeSvgForPdf({ ...codeDesign, width: side, height: side }, image);
  const frame = resolveFrame(frameOptions, options, defaultFrameText(frameOptions.style, 'en'));
  const framed = framedSvg(code.svg, side, side, frame, options);
  const k = framed.code.width / side;
  const images = code.images.map((i) => ({
    ...i,
    x: framed.code.x + i.x * k,
    y: framed.code.y + i.y * k,
    width: i.width * k,
    height: i.height * k,
  }));
  return { svg: framed.svg, images, width: framed.width, height: framed.height };
}

/** How much a framed code's own pixels are scaled to its place in the frame. */
function pictureCodeScale(options: ResolvedQrOptions, side: number): number {
  const box = frameCodeBox(options.frameOptions!.style, options.width);
  return Math.min(box.width, box.height) / side;
}

/** What the print gate said of the design at the PDF's size, for its metadata (print-report.ts). */
export interface PdfScanFacts {
  verdict: string;
  score: number;
  /** The farthest the simulated phones read it, and ten times the code's printed width. */
  gateMm: number;
  ruleOfTenMm: number;
}

export async function renderQrPdf(
  options: ResolvedQrOptions,
  image: QrImage | null,
  print: PdfPrint,
  scan?: PdfScanFacts,
): Promise<Buffer> {
  const picture = pictureForPdf(options, await pdfReadyLogo(image));
  const { svg, images } = picture;
  const heightMm = (print.sizeMm * picture.height) / picture.width;
  const facts: Record<string, string> = {
    ...printFacts(options, print, picture),
    ...(scan && {
      QrScanVerdict: scan.verdict,
      QrScanScore: String(scan.score),
      QrReadsFromMm: String(scan.gateMm),
      QrRuleOfTenMm: String(scan.ruleOfTenMm),
    }),
  };
  const background = print.bleedMm > 0 && !options.backgroundOptions.gradient ? opaqueHex(options.backgroundOptions.color) : null;
  return svgToPdf(svg, {
    colorSpace: print.colorSpace,
    title: print.title,
    subject: `QR code, printed ${facts.QrPrintedSizeMm} mm, ${facts.QrColorSpace}, bleed ${print.bleedMm} mm${print.cropMarks ? ', crop marks' : ''}`,
    keywords: 'QR code, print',
    extraInfo: facts,
    createdAt: new Date(0),
    widthMm: print.sizeMm,
    heightMm,
    bleedMm: print.bleedMm,
    cropMarks: print.cropMarks,
    ...(background && { background }),
    svgWidth: picture.width,
    svgHeight: picture.height,
    images,
  });
}
