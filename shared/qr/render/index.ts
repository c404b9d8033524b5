/**
 * Native QR renderer: qr_options in qr-code-styling 1.9.2's schema → SVG or PNG that look like
 * that library's output (same matrix, geometry, shapes, gradients, logo placement), without a DOM.
 */
export { QrRenderError } from './errors.js';
export type { QrImage } from './scene.js';
export { renderSvg } from './svg.js';
export { renderPng } from './png.js';
