/**
 * The module matrix, made by qrcode-generator exactly as qr-code-styling 1.9.2 makes it:
 * `qrcode(typeNumber, errorCorrectionLevel)`, `addData(data, mode)`, `make()`. The library bundles
 * the same qrcode-generator 1.x, so version, mask choice and data encoding are identical.
 *
 * Data encoding in Byte mode is qrcode-generator's default `stringToBytes`, which keeps the low
 * 8 bits of each UTF-16 code unit (Latin-1 for U+0000–U+00FF; other characters are mangled). The
 * library never switches it to UTF-8, so neither do we: the same string gives the same matrix.
 * We never touch the module's global `stringToBytes`.
 */
import qrcode from 'qrcode-generator';
import type { ResolvedQrOptions } from '../options.js';
import { QrRenderError } from './errors.js';

export interface QrMatrix {
  /** Modules per side. */
  count: number;
  /** 1 = dark, row-major, `count * count` entries. */
  dark: Uint8Array;
}

type TypeNumber = Parameters<typeof qrcode>[0];

export function makeMatrix(opts: ResolvedQrOptions): QrMatrix {
  const { typeNumber, errorCorrectionLevel, mode } = opts.qrOptions;
  if (!opts.data) throw new QrRenderError('data', 'Data is empty');
  const qr = qrcode(typeNumber as TypeNumber, errorCorrectionLevel);
  try {
    qr.addData(opts.data, mode);
    qr.make();
  } catch (err) {
    throw translate(err, opts);
  }
  const count = qr.getModuleCount();
  const dark = new Uint8Array(count * count);
  for (let r = 0, i = 0; r < count; r++) for (let c = 0; c < count; c++, i++) if (qr.isDark(r, c)) dark[i] = 1;
  return { count, dark };
}

/** qrcode-generator throws bare strings; turn the ones a user can cause into errors at a field. */
function translate(err: unknown, opts: ResolvedQrOptions): Error {
  const text = typeof err === 'string' ? err : err instanceof Error ? err.message : String(err);
  const { typeNumber, errorCorrectionLevel, mode } = opts.qrOptions;
  if (text.startsWith('code length overflow')) {
    return typeNumber > 0
      ? new QrRenderError('qrOptions.typeNumber', `Data does not fit a version ${typeNumber} QR code at error correction level ${errorCorrectionLevel}`)
      : new QrRenderError('data', `Data is too long for any QR code at error correction level ${errorCorrectionLevel}`);
  }
  if (text.startsWith('illegal char') || text.startsWith('sjis not supported')) {
    const why = mode === 'Kanji' ? 'Kanji mode is not supported (no Shift_JIS table)' : `${mode} mode cannot encode this data`;
    return new QrRenderError('qrOptions.mode', why);
  }
  return new QrRenderError('data', `Cannot encode data: ${text}`);
}
