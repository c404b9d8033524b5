/** The print report as the api answers it (domain/qr/print/print-report.ts), and what asks for one. */
import { z } from 'zod';
import { booleanQuery, distanceMmQuery, sizeMmQuery } from '#domain/qr/qr-images.js';
import { DEFAULT_PRINT_SIZE_MM } from '#domain/qr/print/print-sizes.js';
import type { AutoFixRequest } from '#domain/qr/render-task.js';

const verdict = z.enum(['scans-well', 'risky', 'will-fail']);

export const printReportResponse = z.object({
  version: z.number().int(),
  modules: z.number().int(),
  errorCorrectionLevel: z.enum(['L', 'M', 'Q', 'H']),
  sizeMm: z.number(),
  heightMm: z.number(),
  codeSizeMm: z.number().meta({ description: "The code's own width in mm, quiet zone left out" }),
  moduleMm: z.number().meta({ description: 'One module (the smallest square) in mm at this print size' }),
  quietZoneModules: z.number().meta({ description: 'Plain space around the code, in modules (the QR standard asks for 4)' }),
  contrastRatio: z
    .number()
    .nullable()
    .meta({ description: 'The lowest contrast of any part with the background (WCAG ratio); null when a part is transparent' }),
  logo: z
    .object({
      coverage: z.number().meta({ description: 'Share of the code the logo covers' }),
      capacity: z.number().meta({ description: 'Share the error-correction level can recover (L 0.07, M 0.15, Q 0.25, H 0.3)' }),
      shareOfCapacity: z.number(),
    })
    .nullable(),
  distances: z.object({
    askedMm: z.number().meta({ description: 'The distance the gate read it from' }),
    ruleOfTenMm: z.number().meta({ description: 'Ten times its printed size: the print trade’s reading distance' }),
    gateMm: z.number().meta({
      description: 'The farthest the simulated phones read it (steady hand and dim light, both decoders); 0: not even at twice its size',
    }),
  }),
  gate: z.object({
    verdict,
    score: z.number().meta({ description: 'Share of the simulated captures both decoders read' }),
    captures: z.array(z.object({ name: z.string(), zxing: z.boolean(), jsqr: z.boolean() })),
    decoders: z.array(z.string()),
    capturePxPerModule: z.number(),
  }),
  warnings: z.array(
    z.object({
      code: z.string().meta({
        description:
          'A stable word: LOW_CONTRAST, INVERTED, TRANSPARENT_MODULES, LOGO_TOO_BIG, QUIET_ZONE, MODULES_TOO_SMALL, TOO_FAR, FAILS_CAPTURES',
      }),
      level: z.enum(['warning', 'note']),
      text: z.string(),
    }),
  ),
  fix: z
    .object({
      changes: z.array(z.object({ path: z.string(), from: z.unknown(), to: z.unknown(), text: z.string() })),
      score: z.number(),
      verdict,
      qrOptionsPatch: z
        .record(z.string(), z.unknown())
        .meta({ description: 'The changed members of qr_options: merge them into the design to apply the fix' }),
    })
    .nullable()
    .meta({ description: 'When the design does not scan well: the smallest change that does, or null when none does' }),
});

/** What a QR image request may add to be judged at a print size first (an addition). */
export const autoFixQuery = {
  autoFix: booleanQuery.optional().meta({
    description: 'An addition: judge the design printed `sizeMm` wide first, and draw the smallest change that scans well when it does not',
  }),
  sizeMm: sizeMmQuery.optional().meta({
    description:
      'An addition: the printed width in mm. With format=pdf a vector PDF exactly this wide (its trim box; default ' +
      `${DEFAULT_PRINT_SIZE_MM}); with png a PNG of it at 300 dpi that says its size (pHYs; at most 346 mm); with svg width and height in mm. ` +
      'autoFix judges the design at it.',
  }),
  distanceMm: distanceMmQuery
    .optional()
    .meta({ description: 'An addition: the reading distance in mm that autoFix judges (default: ten times sizeMm)' }),
};

/** The auto-fix a QR image request asks for, if any. */
export function autoFixOf(query: { autoFix?: boolean; sizeMm?: number; distanceMm?: number }): { autoFix?: AutoFixRequest } {
  if (!query.autoFix) return {};
  return {
    autoFix: { sizeMm: query.sizeMm ?? DEFAULT_PRINT_SIZE_MM, ...(query.distanceMm !== undefined && { distanceMm: query.distanceMm }) },
  };
}

/** What the report is asked about: print size and reading distance. */
export const printQuery = z.strictObject({
  sizeMm: sizeMmQuery.default(DEFAULT_PRINT_SIZE_MM).meta({ description: `The printed width in mm (default ${DEFAULT_PRINT_SIZE_MM})` }),
  distanceMm: distanceMmQuery.optional().meta({ description: 'The reading distance in mm (default: ten times the printed width)' }),
});
