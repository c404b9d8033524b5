/**
 * Designs the print gate is held to, and an independent phone: captures made by sharp (libvips
 * resampling, blur, levels) and read by zbar and jsQR, sharing nothing with the gate's own
 * simulation (domain/qr/print/phone-capture.ts) or its decoders' builds.
 */
import sharp from 'sharp';
import { CORNER_SQUARE_TYPES, DOT_TYPES, type QrOptions } from '#domain/qr/options.js';
import { LOOKS, withLook } from '#console/src/qr/looks.js';
import { decodesAll } from './qr-reference.js';

/**
 * The 18 reference styles: each of the six dot types with each of the three corner-square
 * families (square, dot, extra-rounded; the corner dot matching: square eyes in square rings,
 * round in the others), black on white, the API's other defaults.
 */
export const REFERENCE_STYLES: ReadonlyArray<{ name: string; options: QrOptions }> = DOT_TYPES.flatMap((dots) =>
  (['square', 'dot', 'extra-rounded'] as const satisfies ReadonlyArray<(typeof CORNER_SQUARE_TYPES)[number]>).map((ring) => ({
    name: `${dots} dots, ${ring} corners`,
    options: {
      dotsOptions: { type: dots },
      cornersSquareOptions: { type: ring },
      cornersDotOptions: { type: ring === 'square' ? 'square' : 'dot' },
    } satisfies QrOptions,
  })),
);

/** The console's ready-made looks, applied to the default design. */
export const CONSOLE_LOOKS: ReadonlyArray<{ name: string; options: QrOptions }> = LOOKS.map((look) => ({
  name: `look "${look.name}"`,
  options: withLook({}, look),
}));

/** The gray of a table or a wall around a printed code (as the gate assumes). */
const SURROUND = 140;

export interface PhoneShot {
  name: string;
  /** The capture's side in pixels, for a code printed `sizeMm` wide. */
  make: (png: Buffer, codePx: number) => Promise<Buffer>;
}

/**
 * Three independent captures of conditions the gate also simulates (decision 0435): steady in
 * good light (ink at 24, paper at 232, sensor noise 3); a dim cafe (ink at 30, paper at 160,
 * noise 4); turned 9° and blurred. Every real sensor has some noise: a noiseless shot would read
 * codes no camera can (zbar reads #eeeeee on white from a perfect picture).
 */
const GOOD_LIGHT: [number, number] = [208 / 255, 24];
export const PHONE_SHOTS: readonly PhoneShot[] = [
  { name: 'steady', make: (png, px) => shoot(png, px, { blur: 0.6, level: GOOD_LIGHT, noise: 3 }) },
  { name: 'dim and noisy', make: (png, px) => shoot(png, px, { blur: 0.9, level: [130 / 255, 30], noise: 4 }) },
  { name: 'turned and blurred', make: (png, px) => shoot(png, px, { blur: 1.0, rotate: 9, level: GOOD_LIGHT, noise: 4 }) },
];

async function shoot(
  png: Buffer,
  codePx: number,
  o: { blur: number; level?: [number, number]; noise?: number; rotate?: number },
): Promise<Buffer> {
  const border = Math.round(codePx * 0.3);
  let img = sharp(png)
    .flatten({ background: '#ffffff' })
    .resize(codePx, codePx, { kernel: 'lanczos3', fit: 'fill' })
    .extend({ top: border, bottom: border, left: border, right: border, background: { r: SURROUND, g: SURROUND, b: SURROUND } });
  if (o.rotate) img = sharp(await img.png().toBuffer()).rotate(o.rotate, { background: { r: SURROUND, g: SURROUND, b: SURROUND } });
  img = img.blur(o.blur);
  if (o.level) img = img.linear(o.level[0], o.level[1]);
  const { data, info } = await img.removeAlpha().greyscale().raw().toBuffer({ resolveWithObject: true });
  if (o.noise) {
    let seed = 12345;
    const uniform = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    for (let i = 0; i < data.length; i++) {
      const n = Math.sqrt(-2 * Math.log(Math.max(uniform(), 1e-9))) * Math.cos(2 * Math.PI * uniform());
      data[i] = Math.max(0, Math.min(255, data[i]! + n * o.noise));
    }
  }
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } })
    .png()
    .toBuffer();
}

/**
 * How many of the independent shots of `png` (a code printed so that it spans `codePx` camera
 * pixels) zbar or jsQR read to `data`.
 */
export async function independentReads(png: Buffer, codePx: number, data: string): Promise<{ read: number; of: number; shots: string[] }> {
  const shots = await Promise.all(PHONE_SHOTS.map((s) => s.make(png, codePx)));
  const ok = await decodesAll(shots, data, { quietZone: false });
  return { read: ok.filter(Boolean).length, of: shots.length, shots: PHONE_SHOTS.filter((_, i) => ok[i]).map((s) => s.name) };
}
