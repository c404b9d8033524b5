/**
 * A QR style that cannot be drawn for this data. `path` names the option to change, in the same
 * dotted form the API uses for validation errors (`qrOptions.typeNumber`), so a caller can turn
 * it into a 400 at that field.
 */
export class QrRenderError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'QrRenderError';
  }
}
