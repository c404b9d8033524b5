/** Reading what the service produced: PNG sizes and ZIP entries (QR decoding: qr-reference.ts). */
import yauzl from 'yauzl';

export function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** Each entry's compression method (0 stored, 8 deflated). */
export async function zipMethods(zip: Buffer): Promise<Map<string, number>> {
  const zipfile = await yauzl.fromBufferPromise(zip);
  const out = new Map<string, number>();
  for await (const entry of zipfile.eachEntry()) out.set(entry.fileName, entry.compressionMethod);
  zipfile.close();
  return out;
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
