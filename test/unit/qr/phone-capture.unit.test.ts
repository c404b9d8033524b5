/**
 * The simulated phone's geometry and light (domain/qr/print/phone-capture.ts), on pictures whose
 * capture can be worked out by hand: a black square on white, printed at a known size.
 */
import { describe, expect, it } from 'vitest';
import {
  CAPTURES,
  capturePicture,
  capturePxPerMm,
  SURROUNDING_GRAY,
  type CaptureConditions,
  type PrintedPicture,
} from '#domain/qr/print/phone-capture.js';

const STILL: CaptureConditions = {
  name: 'still',
  distanceFactor: 1,
  tiltX: 0,
  tiltY: 0,
  rotate: 0,
  blur: 0,
  black: 0,
  white: 255,
  glare: 0,
  noise: 0,
};

/** A white picture `side` px wide with a black square over its middle half, printed `widthMm` wide. */
function squareOnWhite(side: number, widthMm: number): PrintedPicture {
  const luma = new Uint8Array(side * side).fill(255);
  for (let y = side / 4; y < (3 * side) / 4; y++) for (let x = side / 4; x < (3 * side) / 4; x++) luma[y * side + x] = 0;
  return { luma, width: side, height: side, widthMm };
}

/** The dark run's length along the capture's middle row. */
function darkRun(frame: { data: Uint8ClampedArray; width: number; height: number }): number {
  const y = Math.floor(frame.height / 2);
  let run = 0;
  for (let x = 0; x < frame.width; x++) if (frame.data[(y * frame.width + x) * 4]! < 128) run++;
  return run;
}

describe('the simulated phone', () => {
  it('sees a millimetre as 1920 px over the width a 65° lens covers at that distance', () => {
    expect(capturePxPerMm(300)).toBeCloseTo(1920 / (2 * 300 * Math.tan((32.5 * Math.PI) / 180)), 6);
    // Ten times farther, ten times fewer pixels a millimetre.
    expect(capturePxPerMm(3000) * 10).toBeCloseTo(capturePxPerMm(300), 6);
  });

  it('draws a square of the print at its size in camera pixels, on the surroundings', () => {
    const frame = capturePicture(squareOnWhite(400, 30), 300, STILL, 1);
    // The square is 15 mm of a 30 mm print.
    expect(darkRun(frame)).toBeGreaterThanOrEqual(Math.floor(15 * capturePxPerMm(300)) - 1);
    expect(darkRun(frame)).toBeLessThanOrEqual(Math.ceil(15 * capturePxPerMm(300)) + 1);
    // The corner of the frame is beyond the print: the surroundings' gray.
    expect(frame.data[0]).toBe(SURROUNDING_GRAY);
  });

  it('foreshortens a print tilted back, and never widens it', () => {
    const flat = darkRun(capturePicture(squareOnWhite(400, 30), 300, STILL, 1));
    const tiltedAcross = darkRun(capturePicture(squareOnWhite(400, 30), 300, { ...STILL, tiltY: 60 }, 1));
    // cos 60° = 0.5: about half as wide across (perspective makes one side a little larger).
    expect(tiltedAcross / flat).toBeGreaterThan(0.4);
    expect(tiltedAcross / flat).toBeLessThan(0.6);
  });

  it('maps ink and paper to the light it is given, with noise around it', () => {
    const dim = capturePicture(squareOnWhite(400, 30), 300, { ...STILL, black: 30, white: 160 }, 1);
    const centre = (dim.height / 2) * dim.width + dim.width / 2;
    expect(dim.data[centre * 4]).toBe(30);
    const noisy = capturePicture(squareOnWhite(400, 30), 300, { ...STILL, noise: 8 }, 1);
    const values = new Set<number>();
    for (let i = 0; i < 200; i++) values.add(noisy.data[(centre + i) * 4]!);
    expect(values.size).toBeGreaterThan(5);
  });

  it('gives the same capture for the same seed, and another for another', () => {
    const picture = squareOnWhite(200, 30);
    const [a, b, c] = [1, 1, 2].map((seed) => capturePicture(picture, 300, CAPTURES[4]!, seed).data);
    expect(Buffer.from(a!).equals(Buffer.from(b!))).toBe(true);
    expect(Buffer.from(a!).equals(Buffer.from(c!))).toBe(false);
  });
});
