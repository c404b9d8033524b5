/**
 * Real, tiny files made from bytes (no fixtures on disk), and a multipart/form-data body builder
 * for uploads through app.inject.
 */
import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A valid RGB PNG of the given size filled with one color. */
export function pngBytes(width = 2, height = 2, rgb: [number, number, number] = [200, 30, 30]): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(2, 9); // truecolor
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A one-page PDF that readers open. */
export function pdfBytes(text = 'qrlinks test'): Buffer {
  return pdfPage({ text });
}

export interface PdfPage {
  text?: string;
  /** The page's size in points (the MediaBox): 300 × 200 unless told. */
  width?: number;
  height?: number;
  /** `count` (default 1) gray images of this many pixels (all black, so they compress about 1000 to 1), each covering the page. */
  image?: { width: number; height: number; count?: number };
}

/** A one-page PDF of any page size, optionally with images over the page: hostile ones are small. */
export function pdfPage({ text = 'qrlinks test', width = 300, height = 200, image }: PdfPage): Buffer {
  const names = Array.from({ length: image ? (image.count ?? 1) : 0 }, (_, i) => `Im${i + 1}`);
  const drawImage = names.map((name) => `q ${width} 0 0 ${height} 0 0 cm /${name} Do Q `).join('');
  const stream = `${drawImage}BT /F1 18 Tf 20 20 Td (${text}) Tj ET`;
  const xObject = image ? ` /XObject << ${names.map((name, i) => `/${name} ${6 + i} 0 R`).join(' ')} >>` : '';
  const objects: Buffer[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >>${xObject} >> >>`,
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ].map((o) => Buffer.from(o, 'latin1'));
  if (image) {
    const pixels = deflateSync(Buffer.alloc(image.width * image.height), { level: 9 });
    const head = `<< /Type /XObject /Subtype /Image /Width ${image.width} /Height ${image.height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length ${pixels.length} >>\nstream\n`;
    for (const _ of names) objects.push(Buffer.concat([Buffer.from(head, 'latin1'), pixels, Buffer.from('\nendstream', 'latin1')]));
  }
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n', 'latin1')];
  let size = parts[0]!.length;
  const add = (b: Buffer) => {
    parts.push(b);
    size += b.length;
  };
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(size);
    add(Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`, 'latin1'), body, Buffer.from('\nendobj\n', 'latin1')]));
  });
  const xref = size;
  let tail = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) tail += `${String(o).padStart(10, '0')} 00000 n \n`;
  tail += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  add(Buffer.from(tail, 'latin1'));
  return Buffer.concat(parts);
}

export interface Part {
  name: string;
  data: Buffer | string;
  filename?: string;
  contentType?: string;
}

/** Builds a multipart/form-data body by hand, so tests control every byte of it. */
export function multipart(parts: Part[]): { body: Buffer; contentType: string } {
  const boundary = `----qrlinks${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
    if (p.filename !== undefined) head += `; filename="${p.filename}"`;
    head += '\r\n';
    if (p.contentType) head += `Content-Type: ${p.contentType}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`), Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A form's text field. */
export const textPart = (name: string, data: string): Part => ({ name, data });

/** A form's PNG file; different sizes give different bytes (so no two share a stored blob). */
export const pngPart = (name: string, width = 3, height = 3): Part => ({
  name,
  data: pngBytes(width, height, [(width * 20) % 256, (height * 20) % 256, 50]),
  filename: `${name}.png`,
  contentType: 'image/png',
});

/** Sends a multipart/form-data request built from `parts` with the given key. */
export function sendForm(
  app: FastifyInstance,
  key: string,
  method: 'POST' | 'PUT',
  url: string,
  parts: Part[],
): Promise<LightMyRequestResponse> {
  const { body, contentType } = multipart(parts);
  return app.inject({ method, url, headers: { authorization: `Basic ${key}`, 'content-type': contentType }, payload: body });
}

/** Uploads through POST /api/v1/files and returns its answer. */
export async function uploadFile(
  app: FastifyInstance,
  key: string,
  bytes: Buffer,
  filename = 'file.bin',
  contentType = 'application/octet-stream',
): Promise<{ fileId: string; url: string; contentType: string; size: number }> {
  const res = await sendForm(app, key, 'POST', '/api/v1/files', [{ name: 'file', data: bytes, filename, contentType }]);
  if (res.statusCode !== 200) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
  return res.json();
}
