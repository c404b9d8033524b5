/**
 * Native QR renderer: qr_options in qr-code-styling 1.9.2's schema (`ResolvedQrOptions`) → an
 * SVG document or a PNG file that look like that library's output, without a DOM, in about a
 * millisecond or two (`npm run bench -- qr`). Our own code throughout; comments name the library
 * behaviour each part matches. Checked against the library itself in test/integration/qr/qr-render.test.ts.
 *
 * - `renderSvg(opts, image?)`: a standalone SVG string; one <path> per layer (background, data
 *   modules, finder rings, finder eyes), gradients in <defs>, the logo as a data: URI.
 * - `renderPng(opts, image?)`: drawn by our rasterizer (4×4 supersampling, like resvg) and
 *   encoded as gray, RGB or RGBA PNG; the logo itself is drawn by resvg.
 * - `image` is the centre image, already resolved by the caller (bytes, type, natural size);
 *   nothing here does I/O, so `opts.image`, `imageOptions.crossOrigin` and `saveAsBlob` are not
 *   read. No `image`, no logo (and no hidden modules). `opts.type` is not read either: the
 *   caller picks the function. The logo Buffer's base64 is remembered per Buffer object, so do
 *   not change a Buffer's bytes after passing it in.
 * - Throws `QrRenderError` (with `path`) for what the user can fix: data too long for the chosen
 *   `qrOptions.typeNumber`, or for any version at that level (`data`); a `qrOptions.mode` that
 *   cannot encode the data (Kanji never can: like the library, we have no Shift_JIS table); a size
 *   or `margin` that leaves less than one pixel per module (the library would draw an empty
 *   picture); a color that does not parse (`dotsOptions.color`, …).
 *
 * Matching the library:
 * - Matrix: our encoder (encoder.ts) makes module for module the matrix of the qrcode-generator
 *   1.x the library bundles: same version, mask and data encoding (test/unit/qr/qr-encoder.unit.test.ts).
 *   Byte mode keeps the low 8 bits of each UTF-16 unit (Latin-1 survives, other characters are
 *   mangled, exactly as in the library's codes; our short URLs are ASCII).
 * - Geometry: see layout.ts (drawing area, whole-pixel module size with `roundSize`, centring,
 *   logo footprint in modules and the hidden area) and shapes.ts (the six dot types and how
 *   neighbours choose each module's shape; corner types, including dot types at the corners).
 * - Gradients: see paint.ts (the library's end-point formula for linear gradients, rounding
 *   included, and its radial centre/radius; corners add their own 0, +90°, −90° turn).
 * - Colors: every CSS form the API accepts is written as #rrggbb + opacity. The library copies
 *   color strings verbatim, and resvg paints some valid forms (modern `hsl(… / a)`,
 *   `rebeccapurple`, `turn` angles) black; ours paint what was asked everywhere.
 *
 * Known differences (reviewed):
 * - `shape: 'circle'` is reproduced exactly for `roundSize: true`, decoys included (the library
 *   copies the code transposed into the ring around it; so do we). With `roundSize: false` the
 *   library crashes (fractional decoy count); we use whole decoy modules.
 * - The library's round finder ring ("dot") has a 0.1 px gap at its top; ours is closed.
 * - PNG anti-aliasing approximates curves by chords, resvg by Bézier curves: some edge pixels
 *   differ by more than 16/255; lowest agreement in the tests is ~0.986 (dot type `dots`).
 */
export { QrRenderError } from './errors.js';
export type { QrImage } from './scene.js';
export { renderSvg } from './svg-write.js';
export { renderPng, withPixelsPerMetre } from './png.js';
