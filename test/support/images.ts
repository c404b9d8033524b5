/** Reading what the service produced: PNG pixels, QR decoding (jsQR) and ZIP entries. */
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import yauzl from 'yauzl';

// jsqr is CommonJS with a `default` export; under NodeNext the default import is its module object.
const jsQR = ((jsQRModule as unknown as { default?: typeof jsQRModule }).default ?? jsQRModule) as unknown as typeof import('jsqr').default;

export function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** Decodes the QR code in a PNG, or null when none is found. */
export function decodeQrPng(png: Buffer): string | null {
  const image = PNG.sync.read(png);
  const result = jsQR(new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length), image.width, image.height);
  return result ? result.data : null;
}

export async function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  const zipfile = await yauzl.fromBufferPromise(zip);
  const out = new Map<string, Buffer>();
  for await (const entry of zipfile.eachEntry()) {
    const stream = await zipfile.openReadStreamPromise(entry);
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(c as Buffer);
    out.set(entry.fileName, Buffer.concat(chunks));
  }
  zipfile.close();
  return out;
}
