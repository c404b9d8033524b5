/**
 * The print report: what a print shop and a cafe owner need to know before printing a code at a
 * size. Its QR version, module size in millimetres, contrast, logo coverage against what error
 * correction can recover, quiet zone, the distances it reads from (the 10:1 rule and the gate's
 * own figure), the gate's verdict with its captures, warnings that say what to change, and, when
 * the design fails, the smallest change that passes (auto-fix.ts).
 */
import type { ResolvedQrOptions } from '../options.js';
import type { QrImage } from '../render/scene.js';
import { autoFix, type DesignFix } from './auto-fix.js';
import { framedHeight } from './frame-geometry.js';
import { CAPTURES } from './phone-capture.js';
import { designFigures, scanRisks, type ScanRisk } from './risks.js';
import { DISTANCE_PER_SIZE, MIN_CAPTURE_PX_PER_MODULE, printedPicture, scoreCaptures, type GateResult } from './scannability.js';

export interface PrintRequest {
  /** The printed width of the whole picture, in mm. */
  sizeMm: number;
  /** Where it is read from, in mm; absent: ten times the code's size (the 10:1 rule). */
  distanceMm?: number;
  /** Also find the smallest change that passes, when the design does not. */
  proposeFix: boolean;
}

export type PrintWarningCode = ScanRisk['code'] | 'MODULES_TOO_SMALL' | 'TOO_FAR' | 'FAILS_CAPTURES';

export interface PrintWarning {
  code: PrintWarningCode;
  level: 'warning' | 'note';
  text: string;
}

export interface PrintReport {
  version: number;
  modules: number;
  errorCorrectionLevel: ResolvedQrOptions['qrOptions']['errorCorrectionLevel'];
  sizeMm: number;
  heightMm: number;
  /** The code's own width, quiet zone left out. */
  codeSizeMm: number;
  moduleMm: number;
  quietZoneModules: number;
  /** Lowest contrast of any part with the background (WCAG ratio); null when a part is transparent. */
  contrastRatio: number | null;
  logo: { coverage: number; capacity: number; shareOfCapacity: number } | null;
  distances: {
    /** What the report was asked about. */
    askedMm: number;
    /** Ten times the code's printed width (the print trade's rule). */
    ruleOfTenMm: number;
    /** The farthest the gate's steady and dim captures still read with both decoders. */
    gateMm: number;
  };
  gate: GateResult;
  warnings: PrintWarning[];
  /** When the design does not scan well: the smallest change that does (null when none was found or none was asked). */
  fix: DesignFix | null;
}

/** Captures the reading distance is searched with: a steady hand and a dim cafe. */
const DISTANCE_CAPTURES = [CAPTURES[0]!, CAPTURES[4]!];

export async function printReport(opts: ResolvedQrOptions, image: QrImage | null, request: PrintRequest): Promise<PrintReport> {
  // A framed design's code is printed smaller than the picture (printedPicture measures it).
  const { picture, layout } = printedPicture(opts, image, request.sizeMm);
  const mmPerPx = picture.widthMm / picture.width;
  const modules = layout.count;
  const moduleMm = layout.dotSize * mmPerPx;
  const codeSizeMm = modules * moduleMm;
  const ruleOfTenMm = round1(picture.widthMm * DISTANCE_PER_SIZE);
  const askedMm = request.distanceMm ?? ruleOfTenMm;
  const gate = await scoreCaptures(picture, opts.data, layout.dotSize, askedMm);
  const gateMm = await farthestReading(picture, opts.data, layout.dotSize, picture.widthMm);
  const figures = designFigures(opts, layout);

  const warnings: PrintWarning[] = scanRisks(opts, layout).map(({ code, level, text }) => ({ code, level, text }));
  if (gate.capturePxPerModule < MIN_CAPTURE_PX_PER_MODULE) {
    warnings.push({
      code: 'MODULES_TOO_SMALL',
      level: 'warning',
      text: `Each module is ${round2(moduleMm)} mm: from ${cm(askedMm)} a phone sees it as ${round1(gate.capturePxPerModule)} pixels, and needs ${MIN_CAPTURE_PX_PER_MODULE}. Print it larger, shorten the link, or scan from closer.`,
    });
  }
  if (askedMm > ruleOfTenMm) {
    warnings.push({
      code: 'TOO_FAR',
      level: 'note',
      text: `Read from ${cm(askedMm)}, beyond ten times its size (${cm(ruleOfTenMm)}): print it at least ${round1(askedMm / DISTANCE_PER_SIZE / 10)} cm wide.`,
    });
  }
  if (gate.verdict !== 'scans-well') {
    const failed = gate.captures.filter((c) => !(c.zxing && c.jsqr)).map((c) => c.name);
    warnings.push({
      code: 'FAILS_CAPTURES',
      level: 'warning',
      text: `Simulated phones could not read it when ${failed.join('; ')}.`,
    });
  }

  const fix = request.proposeFix && gate.verdict !== 'scans-well' ? await autoFix(opts, image, request.sizeMm, askedMm) : null;
  return {
    version: (modules - 17) / 4,
    modules,
    errorCorrectionLevel: opts.qrOptions.errorCorrectionLevel,
    sizeMm: request.sizeMm,
    heightMm: round1(
      opts.frameOptions
        ? (request.sizeMm * framedHeight(opts.frameOptions.style, opts.width)) / opts.width
        : (request.sizeMm * picture.height) / picture.width,
    ),
    codeSizeMm: round1(codeSizeMm),
    moduleMm: round2(moduleMm),
    quietZoneModules: round1(figures.quietZoneModules),
    contrastRatio: figures.contrastRatio === null ? null : round1(figures.contrastRatio),
    logo: figures.logo && {
      coverage: round3(figures.logo.coverage),
      capacity: figures.logo.capacity,
      shareOfCapacity: round3(figures.logo.shareOfCapacity),
    },
    distances: { askedMm, ruleOfTenMm, gateMm },
    gate,
    warnings,
    fix,
  };
}

/**
 * The farthest distance (mm, to 5 %) at which both `DISTANCE_CAPTURES` still read with both
 * decoders: a search between 2 and 40 times the printed size, in as few gates as it takes.
 */
async function farthestReading(
  picture: Parameters<typeof scoreCaptures>[0],
  data: string,
  modulePx: number,
  sizeMm: number,
): Promise<number> {
  const reads = async (distance: number) => (await scoreCaptures(picture, data, modulePx, distance, DISTANCE_CAPTURES)).score === 1;
  let near = sizeMm * 2;
  let far = sizeMm * 40;
  if (!(await reads(near))) return 0;
  if (await reads(far)) return far;
  while (far / near > 1.05) {
    const mid = Math.sqrt(near * far);
    if (await reads(mid)) near = mid;
    else far = mid;
  }
  return Math.round(near);
}

const round1 = (v: number) => Math.round(v * 10) / 10;
const round2 = (v: number) => Math.round(v * 100) / 100;
const round3 = (v: number) => Math.round(v * 1000) / 1000;
const cm = (mm: number) => `${round1(mm / 10)} cm`;
