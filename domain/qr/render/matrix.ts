/**
 * The module matrix for a set of options: our encoder (encoder.ts), which makes the same matrix
 * as the qrcode-generator 1.x that qr-code-styling 1.9.2 bundles, called with the library's
 * arguments (`typeNumber`, `errorCorrectionLevel`, `mode`), so version, mask choice and data
 * encoding are the library's. Encoding failures become errors at the option to change.
 */
import type { ResolvedQrOptions } from '../options.js';
import { encodeQr, QrEncodeError, type QrMatrix } from './encoder.js';
import { QrRenderError } from './errors.js';

export function makeMatrix(opts: ResolvedQrOptions): QrMatrix {
  const { typeNumber, errorCorrectionLevel, mode } = opts.qrOptions;
  if (!opts.data) throw new QrRenderError('data', 'Data is empty');
  try {
    return encodeQr(opts.data, typeNumber, errorCorrectionLevel, mode);
  } catch (err) {
    if (!(err instanceof QrEncodeError)) throw err;
    if (err.reason === 'unencodable') {
      throw new QrRenderError(
        'qrOptions.mode',
        mode === 'Kanji' ? 'Kanji mode is not supported (no Shift_JIS table)' : `${mode} mode cannot encode this data`,
      );
    }
    throw typeNumber > 0
      ? new QrRenderError(
          'qrOptions.typeNumber',
          `Data does not fit a version ${typeNumber} QR code at error correction level ${errorCorrectionLevel}`,
        )
      : new QrRenderError('data', `Data is too long for any QR code at error correction level ${errorCorrectionLevel}`);
  }
}
