/**
 * Two independent QR decoders over one picture: jsQR (a JavaScript port of ZXing's QR reader,
 * the one phone web apps use) and zxing-cpp compiled to WebAssembly (zxing-wasm, the reader in
 * many Android apps), so a picture that only one of them reads is seen as the risk it is.
 *
 * zxing-wasm fetches its .wasm from a CDN unless given the bytes: they are read here from the
 * installed package, once per thread, so no request ever leaves the machine. The module loads on
 * the first decode (~40 ms); a thread that never decodes never loads it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as jsqrModule from 'jsqr';
import { prepareZXingModule, readBarcodes, type ReaderOptions } from 'zxing-wasm/reader';

/** An RGBA picture, as the decoders read it (4 bytes a pixel, rows packed). */
export interface RgbaPicture {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

export const DECODER_NAMES = ['jsQR', 'zxing-cpp'] as const;

type JsQr = (
  data: Uint8ClampedArray,
  width: number,
  height: number,
  options?: { inversionAttempts?: 'dontInvert' | 'onlyInvert' | 'attemptBoth' | 'invertFirst' },
) => { data: string } | null;

// jsqr is CommonJS with `exports.default`; depending on the loader the function is one or two
// `default`s deep.
const jsQR = (() => {
  let value: unknown = jsqrModule;
  for (let depth = 0; depth < 3 && typeof value !== 'function'; depth++)
    value = typeof value === 'object' && value !== null ? Reflect.get(value, 'default') : undefined;
  if (typeof value !== 'function') throw new Error('jsqr exports no function');
  return value as JsQr;
})();

let zxingReady: Promise<unknown> | undefined;

function loadZxing(): Promise<unknown> {
  zxingReady ??= (async () => {
    const require = createRequire(import.meta.url);
    const bytes = readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
    const wasmBinary = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    await prepareZXingModule({ overrides: { wasmBinary }, fireImmediately: true });
  })();
  return zxingReady;
}

// A phone app's settings: QR codes only, dark on light (inverted codes are a design fault the
// report names; decoding them here would hide it), and the effort a live camera app spends.
const ZXING_OPTIONS: ReaderOptions = {
  formats: ['QRCode'],
  tryHarder: true,
  tryRotate: false,
  tryInvert: false,
  tryDownscale: false,
  maxNumberOfSymbols: 1,
};

/** What jsQR reads of the picture, or null. Synchronous: ~1–4 ms for a 150 px picture. */
export function decodeWithJsqr(picture: RgbaPicture): string | null {
  return jsQR(picture.data, picture.width, picture.height, { inversionAttempts: 'dontInvert' })?.data ?? null;
}

/** What zxing-cpp reads of the picture, or null. */
export async function decodeWithZxing(picture: RgbaPicture): Promise<string | null> {
  await loadZxing();
  // zxing-wasm reads any {data, width, height} as RGBA pixels; ImageData is only its type's name for that.
  const pixels: ImageData = {
    data: picture.data as Uint8ClampedArray<ArrayBuffer>,
    width: picture.width,
    height: picture.height,
    colorSpace: 'srgb',
  };
  const results = await readBarcodes(pixels, ZXING_OPTIONS);
  const found = results.find((r) => r.isValid);
  return found ? found.text : null;
}
