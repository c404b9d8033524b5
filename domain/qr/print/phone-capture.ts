/**
 * What a phone's camera makes of a printed code: the picture as printed, seen from a distance,
 * reduced to the pixels the camera gives it, then blurred, tilted, dimmed and noised the way a
 * hand-held phone in a cafe is. The gate (scannability.ts) hands these captures to real decoders.
 *
 * The camera: a mid-range phone's scanner reads 1080p frames, 1920 px wide, through a lens of
 * about 65° horizontal field of view (a main camera of ~26 mm equivalent), so at a distance d (mm)
 * a millimetre of print spans 1920 / (2·d·tan 32.5°) ≈ 1507 / d pixels. At the print trade's 10:1
 * rule (read from ten times the code's size) a code therefore always spans ~150 px, 4–5 px a
 * module for a typical short URL (3.5 with a 4-module quiet zone inside the printed size); 1280 px
 * frames (the least Google's ML Kit recommends) made every code with the standard quiet zone
 * risky at 10:1, which the print trade's experience says it is not.
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
  const { luma, width, height } = sourceFor(picture, factor);
  const perMm = picture.width / picture.widthMm / factor;
  const half = side / 2;
  // Per capture pixel (u, v) = ((px − half) / focal, (py − half) / focal) the ray (u, v, 1) meets
  // the plane at t = n·C / (n·(u, v, 1)); the plane's coordinates are linear in (u, v) over that
  // same denominator: xMm = (t·u)·ex0 + (t·v)·ex1 + (t − distance)·ex2, likewise yMm.
  const d = n[2] * distance;
  const [n0, n1, n2] = n;
  const [xa, xb, xk, xm] = [d * ex[0], d * ex[1], d * ex[2], distance * ex[2]];
  const [ya, yb, yk, ym] = [d * ey[0], d * ey[1], d * ey[2], distance * ey[2]];
  // Source pixel coordinates of the padded copy: +1 for its border, −0.5 for pixel centres.
  const offX = (picture.widthMm / 2) * perMm + 0.5;
  const offY = (heightMm / 2) * perMm + 0.5;
  const maxX = width - 1;
  const maxY = height - 1;
  for (let py = 0; py < side; py++) {
    const v = (py + 0.5 - half) / focal;
    for (let px = 0; px < side; px++) {
      const u = (px + 0.5 - half) / focal;
      const den = n0 * u + n1 * v + n2;
      let value = SURROUNDING_GRAY;
      if (den > 0) {
        const x = ((xa * u + xb * v + xk) / den - xm) * perMm + offX;
        const y = ((ya * u + yb * v + yk) / den - ym) * perMm + offY;
        if (x >= 0 && y >= 0 && x < maxX && y < maxY) {
          const x0 = x | 0;
          const y0 = y | 0;
          const fx = x - x0;
          const fy = y - y0;
          const i = y0 * width + x0;
          const top = luma[i]! + (luma[i + 1]! - luma[i]!) * fx;
          const bottom = luma[i + width]! + (luma[i + width + 1]! - luma[i + width]!) * fx;
          value = top + (bottom - top) * fy;
        }
      }
      out[py * side + px] = value;
    }
  }
  return out;
}

/** The picture with a one-pixel border of the surroundings, so a bilinear read never leaves it. */
function padded(picture: PrintedPicture): PrintedPicture {
  const width = picture.width + 2;
  const height = picture.height + 2;
  const luma = new Uint8Array(width * height).fill(SURROUNDING_GRAY);
  for (let y = 0; y < picture.height; y++) luma.set(picture.luma.subarray(y * picture.width, (y + 1) * picture.width), (y + 1) * width + 1);
  return { luma, width, height, widthMm: picture.widthMm };
}

const sources = new WeakMap<PrintedPicture, Map<number, PrintedPicture>>();

/** The picture reduced by `factor` and padded, as captures read it (remembered: the captures share it). */
function sourceFor(picture: PrintedPicture, factor: number): PrintedPicture {
  let byFactor = sources.get(picture);
  if (!byFactor) sources.set(picture, (byFactor = new Map()));
  let source = byFactor.get(factor);
  if (!source) byFactor.set(factor, (source = padded(reduced(picture, factor))));
  return source;
}

/**
 * The picture averaged over `factor`×`factor` blocks. Its pixel i covers the source's pixels i·factor to (i + 1)·factor − 1.
 */
function reduced(picture: PrintedPicture, factor: number): PrintedPicture {
  if (factor <= 1) return picture;
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
  return { luma, width, height, widthMm: picture.widthMm };
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
  // One row, then one column, at a time: copied into a line with `radius` repeated pixels at each
  // end, so the kernel never looks outside it.
  const taps = kernel.length;
  const line = new Float32Array(Math.max(width, height) + radius * 2);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) line[x + radius] = img[row + x]!;
    edges(line, width, radius);
    for (let x = 0; x < width; x++) {
      let acc = 0;
      for (let k = 0; k < taps; k++) acc += kernel[k]! * line[x + k]!;
      img[row + x] = acc;
    }
  }
  for (let x = 0; x < width; x++) {
    for (let y = 0; y < height; y++) line[y + radius] = img[y * width + x]!;
    edges(line, height, radius);
    for (let y = 0; y < height; y++) {
      let acc = 0;
      for (let k = 0; k < taps; k++) acc += kernel[k]! * line[y + k]!;
      img[y * width + x] = acc;
    }
  }
}

/** Repeats a line's first and last pixels `radius` times beyond its ends. */
function edges(line: Float32Array, length: number, radius: number): void {
  for (let i = 0; i < radius; i++) {
    line[i] = line[radius]!;
    line[length + radius + i] = line[length + radius - 1]!;
  }
}

/** The sensor's answer to the light: ink and paper levels, glare, noise; as RGBA. */
function light(gray: Float32Array, side: number, c: CaptureConditions, seed: number): Uint8ClampedArray {
  const out = new Uint8ClampedArray(side * side * 4);
  const noise = NOISE();
  // Each capture reads the noise table from its own seeded start, with a stride coprime to its size.
  let at = (seed >>> 0) % noise.length;
  const span = (c.white - c.black) / 255;
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const i = y * side + x;
      // Glare: strongest at the top-right corner, fading across the diagonal.
      const glare = c.glare ? c.glare * Math.max(0, (x - y) / side) : 0;
      at = (at + 7919) & (noise.length - 1);
      const value = c.black + gray[i]! * span + glare + c.noise * noise[at]!;
      const o = i * 4;
      out[o] = out[o + 1] = out[o + 2] = value;
      out[o + 3] = 255;
    }
  }
  return out;
}

/** 65,536 standard normal numbers, made once from a fixed seed: captures index into them. */
const NOISE = (() => {
  let table: Float32Array | undefined;
  return () => {
    if (!table) {
      const random = gaussianRandom(0x2545f491);
      table = new Float32Array(1 << 16);
      for (let i = 0; i < table.length; i++) table[i] = random();
    }
    return table;
  };
})();

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
