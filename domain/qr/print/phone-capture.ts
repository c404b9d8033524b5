/**
 * What a phone's camera makes of a printed code: the picture as printed, seen from a distance,
 * reduced to the pixels the camera gives it, then blurred, tilted, dimmed and noised the way a
 * hand-held phone in a cafe is. The gate (scannability.ts) hands these captures to real decoders.
 *
 * The camera: a mid-range phone's scanner reads frames 1280 px wide through a lens of about 65°
 * horizontal field of view (a main camera of ~26 mm equivalent), so at a distance d (mm) a
 * millimetre of print spans 1280 / (2·d·tan 32.5°) ≈ 1005 / d pixels. At the print trade's
 * 10:1 rule (read from ten times the code's size) a code therefore always spans ~100 px, about
 * 3 px a module for a typical short URL: the edge of what phone decoders read.
 *
 * Everything here is plain arithmetic over gray pixels (luma, Rec. 601, as both decoders compute
 * it), seeded, so the same design always gets the same captures and the same score.
 */

/** Pixels across one frame the phone's scanner analyses. */
export const CAMERA_FRAME_PX = 1920;
/** The lens's horizontal field of view, in degrees. */
export const CAMERA_FOV_DEG = 65;

/** Capture pixels per millimetre of print at `distanceMm`. */
export function capturePxPerMm(distanceMm: number): number {
  return CAMERA_FRAME_PX / (2 * distanceMm * Math.tan(((CAMERA_FOV_DEG / 2) * Math.PI) / 180));
}

/** A printed picture as gray levels (0 black, 255 white), with its physical width. */
export interface PrintedPicture {
  luma: Uint8Array;
  width: number;
  height: number;
  widthMm: number;
}

/** How one capture differs from a perfect view straight on. */
export interface CaptureConditions {
  /** What this capture stands for, in a few words. */
  name: string;
  /** The phone's distance as a multiple of the asked one. */
  distanceFactor: number;
  /** The print tilted away about its horizontal axis, and about its vertical one (degrees). */
  tiltX: number;
  tiltY: number;
  /** Turned in its own plane (degrees). */
  rotate: number;
  /** Optical blur (defocus, a shaking hand): Gaussian sigma in capture pixels. */
  blur: number;
  /** What the camera makes of black ink and of white paper in this light (0–255). */
  black: number;
  white: number;
  /** A band of glare: the brightness added at the brightest corner (0: none). */
  glare: number;
  /** Sensor noise: Gaussian sigma in gray levels. */
  noise: number;
}

/**
 * The captures a design is judged by: what happens to a table tent, a flyer or a menu card in a
 * real cafe. Calibrated in test/integration/qr/qr-print-gate.test.ts against zbar and jsQR on
 * pictures degraded independently (ImageMagick), over 40+ designs.
 */
export const CAPTURES: readonly CaptureConditions[] = [
  { name: 'steady, in good light', distanceFactor: 1, tiltX: 0, tiltY: 0, rotate: 0, blur: 0.6, black: 24, white: 232, glare: 0, noise: 3 },
  { name: 'a slight shake', distanceFactor: 1, tiltX: 0, tiltY: 0, rotate: 3, blur: 1.0, black: 24, white: 232, glare: 0, noise: 4 },
  { name: 'tilted back 25°', distanceFactor: 1, tiltX: 25, tiltY: 0, rotate: 0, blur: 0.7, black: 24, white: 228, glare: 0, noise: 4 },
  { name: 'held at an angle', distanceFactor: 1, tiltX: 8, tiltY: 20, rotate: 12, blur: 0.7, black: 24, white: 228, glare: 0, noise: 4 },
  { name: 'a dim cafe', distanceFactor: 1, tiltX: 0, tiltY: 0, rotate: 0, blur: 0.9, black: 30, white: 160, glare: 0, noise: 4 },
  { name: 'glare from a lamp', distanceFactor: 1, tiltX: 10, tiltY: 0, rotate: 0, blur: 0.7, black: 24, white: 228, glare: 90, noise: 4 },
  { name: 'a step farther', distanceFactor: 1.2, tiltX: 0, tiltY: 0, rotate: 0, blur: 0.7, black: 24, white: 232, glare: 0, noise: 4 },
  { name: 'shaking, in dim light', distanceFactor: 1, tiltX: 0, tiltY: 0, rotate: 5, blur: 1.2, black: 30, white: 180, glare: 0, noise: 4 },
];

/** The gray of what surrounds the print (a table, a wall, the rest of a poster): neither paper nor ink. */
export const SURROUNDING_GRAY = 140;

/**
 * A printed picture larger than this many capture pixels across is seen at this size: a phone
 * that close has pixels to spare, and the decoders' time grows with the area.
 */
export const MAX_PICTURE_PX = 260;

export interface CapturedFrame {
  /** RGBA with R = G = B, as the decoders take it. */
  data: Uint8ClampedArray;
  width: number;
  height: number;
  /** Capture pixels across one millimetre of the print, straight on. */
  pxPerMm: number;
}

/**
 * One capture of `picture`, read from `distanceMm` (before the conditions' own factor) under
 * `conditions`; `seed` makes its noise repeatable.
 */
export function capturePicture(picture: PrintedPicture, distanceMm: number, conditions: CaptureConditions, seed: number): CapturedFrame {
  const distance = distanceMm * conditions.distanceFactor;
  let pxPerMm = capturePxPerMm(distance);
  if (pxPerMm * picture.widthMm > MAX_PICTURE_PX) pxPerMm = MAX_PICTURE_PX / picture.widthMm;
  const heightMm = (picture.widthMm * picture.height) / picture.width;
  // The frame: the picture with a third of its size again of surroundings, so the decoders must find it.
  const side = Math.max(64, Math.ceil(Math.max(picture.widthMm, heightMm) * pxPerMm * 1.3) + 8);
  const gray = project(picture, heightMm, pxPerMm, distance, conditions, side);
  if (conditions.blur > 0) gaussianBlur(gray, side, side, conditions.blur);
  const data = light(gray, side, conditions, seed);
  return { data, width: side, height: side, pxPerMm };
}

/**
 * The print as a plane tilted and turned before a pinhole camera at `distance`, looked at through
 * each capture pixel: a ray meets the plane and the picture is read there, bilinearly, from a
 * copy of it box-filtered down to at most twice the camera's resolution (so fine modules blend
 * as on a sensor, at one read a pixel).
 */
function project(
  picture: PrintedPicture,
  heightMm: number,
  pxPerMm: number,
  distance: number,
  c: CaptureConditions,
  side: number,
): Float32Array {
  const out = new Float32Array(side * side);
  const rad = Math.PI / 180;
  const [ax, ay, az] = [c.tiltX * rad, c.tiltY * rad, c.rotate * rad];
  // Rotation R = Ry(ay) · Rx(ax) · Rz(az): turn in the plane, then tilt. ex, ey are the plane's
  // own axes in camera space, n its normal.
  const [cx, sx, cy, sy, cz, sz] = [Math.cos(ax), Math.sin(ax), Math.cos(ay), Math.sin(ay), Math.cos(az), Math.sin(az)];
  const ex = rotY([cz, cx * sz, sx * sz], cy, sy);
  const ey = rotY([-sz, cx * cz, sx * cz], cy, sy);
  const n = rotY([0, -sx, cx], cy, sy);
  const focal = pxPerMm * distance; // pixels: x mm straight on at `distance` lands x·pxPerMm off centre
  const factor = Math.max(1, Math.floor(picture.width / picture.widthMm / pxPerMm / 2 + 0.5));
  const { luma, width, height } = reduced(picture, factor);
  const perMm = picture.width / picture.widthMm / factor;
  const half = side / 2;
  // Per capture pixel (u, v) = ((px − half) / focal, (py − half) / focal) the ray (u, v, 1) meets
  // the plane at t = n·C / (n·(u, v, 1)); the plane's coordinates are linear in (u, v) over that
  // same denominator, so each is (A·u + B·v + C) / (n·(u, v, 1)).
  const d = n[2] * distance;
  const [xa, xb, xk, xm] = [d * ex[0], d * ex[1], d * ex[2], distance * ex[2]];
  const [ya, yb, yk, ym] = [d * ey[0], d * ey[1], d * ey[2], distance * ey[2]];
  for (let py = 0; py < side; py++) {
    const v = (py + 0.5 - half) / focal;
    for (let px = 0; px < side; px++) {
      const u = (px + 0.5 - half) / focal;
      const den = n[0] * u + n[1] * v + n[2];
      let value = SURROUNDING_GRAY;
      if (den > 0) {
        // xMm = (t·u)·ex0 + (t·v)·ex1 + (t − distance)·ex2 with t = d / den.
        const xMm = (xa * u + xb * v + xk) / den - xm;
        const yMm = (ya * u + yb * v + yk) / den - ym;
        const sxp = (xMm + picture.widthMm / 2) * perMm - 0.5;
        const syp = (yMm + heightMm / 2) * perMm - 0.5;
        if (sxp > -1 && syp > -1 && sxp < width && syp < height) value = bilinear(luma, width, height, sxp, syp);
      }
      out[py * side + px] = value;
    }
  }
  return out;
}

/** The picture's gray level at (x, y), between pixel centres; outside it, the surroundings. */
function bilinear(luma: Uint8Array, width: number, height: number, x: number, y: number): number {
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const fx = x - x0;
  const fy = y - y0;
  const at = (xi: number, yi: number) => (xi < 0 || yi < 0 || xi >= width || yi >= height ? SURROUNDING_GRAY : luma[yi * width + xi]!);
  const top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx;
  const bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx;
  return top * (1 - fy) + bottom * fy;
}

const reductions = new WeakMap<PrintedPicture, Map<number, PrintedPicture>>();

/**
 * The picture averaged over `factor`×`factor` blocks (remembered: the captures share them). Its
 * pixel i covers the source's pixels i·factor to (i + 1)·factor − 1.
 */
function reduced(picture: PrintedPicture, factor: number): PrintedPicture {
  if (factor <= 1) return picture;
  let byFactor = reductions.get(picture);
  if (!byFactor) reductions.set(picture, (byFactor = new Map()));
  const known = byFactor.get(factor);
  if (known) return known;
  const width = Math.floor(picture.width / factor);
  const height = Math.floor(picture.height / factor);
  const luma = new Uint8Array(width * height);
  const area = factor * factor;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let j = 0; j < factor; j++) {
        const row = (y * factor + j) * picture.width + x * factor;
        for (let i = 0; i < factor; i++) sum += picture.luma[row + i]!;
      }
      luma[y * width + x] = Math.round(sum / area);
    }
  }
  const out = { luma, width, height, widthMm: picture.widthMm };
  byFactor.set(factor, out);
  return out;
}

function rotY(v: [number, number, number], c: number, s: number): [number, number, number] {
  return [c * v[0] + s * v[2], v[1], -s * v[0] + c * v[2]];
}

/** In place, separable; edges repeat their last pixel. */
function gaussianBlur(img: Float32Array, width: number, height: number, sigma: number): void {
  const radius = Math.ceil(sigma * 3);
  const kernel = new Float32Array(radius * 2 + 1);
  let total = 0;
  for (let i = -radius; i <= radius; i++) total += kernel[i + radius] = Math.exp(-(i * i) / (2 * sigma * sigma));
  for (let i = 0; i < kernel.length; i++) kernel[i]! /= total;
  const line = new Float32Array(Math.max(width, height));
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) line[x] = img[row + x]!;
    for (let x = 0; x < width; x++) {
      let acc = 0;
      for (let k = -radius; k <= radius; k++) acc += kernel[k + radius]! * line[Math.min(width - 1, Math.max(0, x + k))]!;
      img[row + x] = acc;
    }
  }
  for (let x = 0; x < width; x++) {
    for (let y = 0; y < height; y++) line[y] = img[y * width + x]!;
    for (let y = 0; y < height; y++) {
      let acc = 0;
      for (let k = -radius; k <= radius; k++) acc += kernel[k + radius]! * line[Math.min(height - 1, Math.max(0, y + k))]!;
      img[y * width + x] = acc;
    }
  }
}

/** The sensor's answer to the light: ink and paper levels, glare, noise; as RGBA. */
function light(gray: Float32Array, side: number, c: CaptureConditions, seed: number): Uint8ClampedArray {
  const out = new Uint8ClampedArray(side * side * 4);
  const random = gaussianRandom(seed);
  const span = (c.white - c.black) / 255;
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const i = y * side + x;
      // Glare: strongest at the top-right corner, fading across the diagonal.
      const glare = c.glare ? c.glare * Math.max(0, (x - y) / side) : 0;
      const value = c.black + gray[i]! * span + glare + (c.noise ? c.noise * random() : 0);
      const o = i * 4;
      out[o] = out[o + 1] = out[o + 2] = value;
      out[o + 3] = 255;
    }
  }
  return out;
}

/** Standard normal numbers from a seed (mulberry32 and Box–Muller). */
function gaussianRandom(seed: number): () => number {
  let state = seed >>> 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  let spare: number | null = null;
  return () => {
    if (spare !== null) {
      const s = spare;
      spare = null;
      return s;
    }
    const u = Math.max(uniform(), 1e-12);
    const v = uniform();
    const r = Math.sqrt(-2 * Math.log(u));
    spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  };
}
