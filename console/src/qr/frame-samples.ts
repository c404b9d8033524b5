/**
 * The Frame section's samples: each frame style's outline, drawn small in `currentColor` (so it
 * follows the theme), a short bar standing for its text. Drawn here by hand, not by the server:
 * the real frame needs the server's font, and a sample only has to say which shape is which.
 */
import type { FrameStyle } from '#domain/qr/options.js';

const svg = (body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 48" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true">${body}</svg>`;
/** The code inside each frame: a square with its three finder corners. */
const code = (x: number, y: number, s: number) => {
  const f = s / 3.2;
  const corner = (cx: number, cy: number) => `<rect x="${cx}" y="${cy}" width="${f}" height="${f}" fill="currentColor" stroke="none"/>`;
  return (
    `<rect x="${x}" y="${y}" width="${s}" height="${s}" stroke-width="1" stroke-dasharray="2 2"/>` +
    corner(x, y) +
    corner(x + s - f, y) +
    corner(x, y + s - f)
  );
};
const bar = (x: number, y: number, w: number, light = false) =>
  `<rect x="${x}" y="${y}" width="${w}" height="2.5" rx="1" fill="${light ? 'var(--surface, #fff)' : 'currentColor'}" stroke="none"/>`;

export const FRAME_SAMPLES: Record<FrameStyle | 'none', string> = {
  none: svg(code(9, 13, 22)),
  'bottom-banner': svg(
    `<rect x="3" y="3" width="34" height="42" rx="3"/><rect x="3" y="35" width="34" height="10" rx="3" fill="currentColor"/>${code(9, 7, 24)}${bar(11, 39, 18, true)}`,
  ),
  'top-banner': svg(
    `<rect x="3" y="3" width="34" height="42" rx="3"/><rect x="3" y="3" width="34" height="10" rx="3" fill="currentColor"/>${code(9, 17, 24)}${bar(11, 6.5, 18, true)}`,
  ),
  'rounded-badge': svg(
    `<rect x="3" y="3" width="34" height="36" rx="9"/><rect x="8" y="35" width="24" height="10" rx="5" fill="currentColor"/>${code(9, 7, 22)}${bar(12, 38.8, 16, true)}`,
  ),
  'speech-bubble': svg(
    `<path d="M6 3h28a3 3 0 0 1 3 3v28a3 3 0 0 1-3 3H16l-6 7v-7H6a3 3 0 0 1-3-3V6a3 3 0 0 1 3-3z"/>${code(9, 7, 22)}${bar(20, 40, 15)}`,
  ),
  ticket: svg(
    `<path d="M3 3h34v16a4 4 0 0 0 0 8v18H3V27a4 4 0 0 0 0-8z"/><path d="M8 34h24" stroke-dasharray="2 2" stroke-width="1"/>${code(10, 7, 20)}${bar(11, 38.5, 18)}`,
  ),
  phone: svg(`<rect x="6" y="2" width="28" height="44" rx="5"/><path d="M17 5h6"/>${code(10, 11, 20)}${bar(12, 36, 16)}`),
  'table-tent': svg(`<path d="M4 45 L10 3 H30 L36 45"/><path d="M10 3 H30" stroke-width="3"/>${code(11, 9, 18)}${bar(11, 33, 18)}`),
  caption: svg(`${code(8, 4, 24)}${bar(9, 36, 22)}`),
};

export const FRAME_NAMES: Record<FrameStyle | 'none', string> = {
  none: 'No frame',
  'bottom-banner': 'Bottom banner',
  'top-banner': 'Top banner',
  'rounded-badge': 'Rounded badge',
  'speech-bubble': 'Speech bubble',
  ticket: 'Ticket',
  phone: 'Phone',
  'table-tent': 'Table tent',
  caption: 'Caption',
};
