/**
 * SVG sanitizing. An uploaded SVG is served later from our own host, where a script in it would
 * run with that origin, so only a rebuilt, cleaned copy is ever stored.
 *
 * How: the document is parsed as strict XML (saxes: what a browser does with image/svg+xml, so
 * there is no parser differential to exploit), and a new document is written from an allowlist:
 * known SVG elements in the SVG namespace, known attributes, escaped text. Nothing is copied
 * through verbatim, so whatever we did not recognize is simply not in the output.
 *
 * Policy:
 * - Elements: SVG shapes, text, structure, paint servers, clipping/masking, filters, <image>,
 *   <style>, and the animations that can't rewrite links (<animateTransform>, <animateMotion>).
 *   Everything else goes with its whole subtree: <script>, <foreignObject>, <animate>/<set> (they
 *   can set href to javascript:), <iframe>/HTML of any kind, editor metadata (Inkscape, Illustrator,
 *   RDF), elements of any other namespace.
 * - Attributes: presentation, geometry, filter, gradient, text and timing attributes, id/class/
 *   style, aria-*. Event handlers (on*) are never on the list, nor xml:base.
 * - href / xlink:href: `#id` on any element (so <use> works, but only inside the document); on <a>
 *   also http(s):, mailto:, tel: (navigation, not a load); on <image>/<feImage> also
 *   data:image/{png,jpeg,gif,webp}. Anything else — http(s) images, other documents, javascript:,
 *   data:image/svg+xml, data:text/html, relative paths — loses the attribute: a stored SVG never
 *   makes a request of its own (no tracking pixels, and it renders the same through <img>).
 * - CSS, in <style> and in every attribute value (style="", fill="url(...)"): url() may name
 *   only `#id` or a raster data: image; @import, image-set(), image(), cross-fade(), element(),
 *   src(), expression(), -moz-binding, behavior and javascript: are refused, judged after resolving
 *   CSS escapes and with and without comments. An offending <style> goes whole, an attribute alone.
 * - Comments, processing instructions (xml-stylesheet included), the XML declaration and the
 *   doctype are dropped. Entities declared in the doctype's internal subset with plain-text values
 *   are expanded (Illustrator declares its namespaces that way), up to 1 MB of expansion in total;
 *   external entities are never fetched, and a reference to one fails the document.
 * - A root without a namespace is taken as SVG (hand-written files), and the output always declares
 *   the SVG namespace (and xlink's when used), so it renders as a standalone file.
 * - Refused (with a reason): not well-formed XML, a root other than <svg>, nesting deeper than 256, or no
 *   element left inside the root (it would show nothing).
 *
 * The parse is fed in slices with a yield to the event loop between them, so a large file does
 * not stall other requests.
 */
import { SaxesParser, type SaxesTagPlain } from 'saxes';

export const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';

export const MAX_SVG_DEPTH = 256;
const MAX_ENTITY_EXPANSION = 1024 * 1024;
const SLICE = 256 * 1024;

const ELEMENTS = new Set([
  'svg',
  'g',
  'defs',
  'desc',
  'title',
  'metadata',
  'symbol',
  'use',
  'switch',
  'a',
  'view',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'textPath',
  'linearGradient',
  'radialGradient',
  'stop',
  'pattern',
  'clipPath',
  'mask',
  'marker',
  'image',
  'style',
  'animateTransform',
  'animateMotion',
  'mpath',
  'filter',
  'feBlend',
  'feColorMatrix',
  'feComponentTransfer',
  'feComposite',
  'feConvolveMatrix',
  'feDiffuseLighting',
  'feDisplacementMap',
  'feDistantLight',
  'feDropShadow',
  'feFlood',
  'feFuncA',
  'feFuncB',
  'feFuncG',
  'feFuncR',
  'feGaussianBlur',
  'feImage',
  'feMerge',
  'feMergeNode',
  'feMorphology',
  'feOffset',
  'fePointLight',
  'feSpecularLighting',
  'feSpotLight',
  'feTile',
  'feTurbulence',
]);

/** Matched case-insensitively, written in their canonical spelling (so `viewbox` becomes a working `viewBox`). */
const ATTRIBUTES = new Map(
  [
    // core, styling, accessibility
    'id',
    'class',
    'style',
    'lang',
    'tabindex',
    'role',
    'focusable',
    'type',
    'media',
    'target',
    // geometry and layout
    'x',
    'y',
    'x1',
    'y1',
    'x2',
    'y2',
    'cx',
    'cy',
    'r',
    'rx',
    'ry',
    'fx',
    'fy',
    'fr',
    'width',
    'height',
    'd',
    'points',
    'pathLength',
    'transform',
    'transform-origin',
    'viewBox',
    'preserveAspectRatio',
    'version',
    'baseProfile',
    'overflow',
    'zoomAndPan',
    // presentation
    'alignment-baseline',
    'baseline-shift',
    'clip',
    'clip-path',
    'clip-rule',
    'color',
    'color-interpolation',
    'color-interpolation-filters',
    'color-rendering',
    'cursor',
    'direction',
    'display',
    'dominant-baseline',
    'enable-background',
    'fill',
    'fill-opacity',
    'fill-rule',
    'filter',
    'flood-color',
    'flood-opacity',
    'font',
    'font-family',
    'font-size',
    'font-size-adjust',
    'font-stretch',
    'font-style',
    'font-variant',
    'font-weight',
    'glyph-orientation-horizontal',
    'glyph-orientation-vertical',
    'image-rendering',
    'isolation',
    'kerning',
    'letter-spacing',
    'lighting-color',
    'marker',
    'marker-end',
    'marker-mid',
    'marker-start',
    'mask',
    'mask-type',
    'mix-blend-mode',
    'opacity',
    'paint-order',
    'pointer-events',
    'shape-rendering',
    'stop-color',
    'stop-opacity',
    'stroke',
    'stroke-dasharray',
    'stroke-dashoffset',
    'stroke-linecap',
    'stroke-linejoin',
    'stroke-miterlimit',
    'stroke-opacity',
    'stroke-width',
    'text-anchor',
    'text-decoration',
    'text-rendering',
    'unicode-bidi',
    'vector-effect',
    'visibility',
    'word-spacing',
    'writing-mode',
    // paint servers, clipping, masking, markers
    'gradientUnits',
    'gradientTransform',
    'spreadMethod',
    'offset',
    'patternUnits',
    'patternContentUnits',
    'patternTransform',
    'clipPathUnits',
    'maskUnits',
    'maskContentUnits',
    'markerUnits',
    'markerWidth',
    'markerHeight',
    'refX',
    'refY',
    'orient',
    // text
    'dx',
    'dy',
    'rotate',
    'textLength',
    'lengthAdjust',
    'startOffset',
    'method',
    'spacing',
    'side',
    // filters
    'filterUnits',
    'primitiveUnits',
    'filterRes',
    'in',
    'in2',
    'result',
    'stdDeviation',
    'edgeMode',
    'mode',
    'operator',
    'k1',
    'k2',
    'k3',
    'k4',
    'values',
    'tableValues',
    'slope',
    'intercept',
    'amplitude',
    'exponent',
    'order',
    'kernelMatrix',
    'divisor',
    'bias',
    'targetX',
    'targetY',
    'preserveAlpha',
    'kernelUnitLength',
    'surfaceScale',
    'diffuseConstant',
    'specularConstant',
    'specularExponent',
    'scale',
    'xChannelSelector',
    'yChannelSelector',
    'radius',
    'baseFrequency',
    'numOctaves',
    'seed',
    'stitchTiles',
    'azimuth',
    'elevation',
    'z',
    'pointsAtX',
    'pointsAtY',
    'pointsAtZ',
    'limitingConeAngle',
    // animation timing (animateTransform, animateMotion)
    'attributeName',
    'attributeType',
    'from',
    'to',
    'by',
    'keyTimes',
    'keySplines',
    'keyPoints',
    'calcMode',
    'begin',
    'dur',
    'end',
    'min',
    'max',
    'restart',
    'repeatCount',
    'repeatDur',
    'additive',
    'accumulate',
    'path',
  ].map((a) => [a.toLowerCase(), a]),
);

const RASTER_DATA_URL = /^data:image\/(?:png|jpeg|jpg|gif|webp)[;,]/i;
const NAVIGATION_URL = /^(?:https?:|mailto:|tel:)/i;
const CSS_FORBIDDEN =
  /@import|expression\s*\(|-moz-binding|behavior\s*:|javascript:|vbscript:|image-set\s*\(|image\s*\(|cross-fade\s*\(|element\s*\(|(?:^|[^a-z0-9_-])src\s*\(/;
const CSS_URL = /url\s*\(\s*(['"]?)\s*([^'")\s]*)/g;

class SvgRejectedError extends Error {}

interface Frame {
  /** The element's name as written, or null when it (and so its subtree) is dropped. */
  name: string | null;
  /** Index in the output of this element's start tag. */
  start: number;
  /** The start tag is written but not yet closed with '>' (so an empty element can become `<x/>`). */
  open: boolean;
  keptChildren: number;
  /** Namespace declarations made on this element (prefix, previous uri), undone when it closes. */
  declared: Array<[string, string | undefined]>;
}

/**
 * What drawing the document may cost beyond its size, for a caller that rasterizes it (QR logos,
 * image-source.ts; a browser showing an uploaded SVG pays it on the viewer's machine):
 * - `filters`: a `<filter>` or `fe…` element, or a `filter` other than none in an attribute, a
 *   style attribute or a stylesheet. A filter reworks every pixel of its region at the drawn size
 *   (a blur, a morphology of radius 85, turbulence): a few hundred bytes can take minutes.
 * - `masks`: `<mask>` and `<clipPath>` elements. Each one applied is a layer of the drawn size,
 *   and masks can name masks: a chain as long as their number, all its layers held at once.
 * - `depth`: the deepest element nesting; nested groups (with opacity) are layers held at once.
 */
export interface SvgDrawingCost {
  filters: boolean;
  masks: number;
  depth: number;
}

export type SanitizedSvg = { svg: string; drawing: SvgDrawingCost } | { error: string };

/**
 * The sanitized document (UTF-8 text without an XML declaration), or why the file is refused (a
 * sentence for the uploader; see the policy above). `text` is the whole decoded file.
 */
export async function sanitizeSvg(text: string): Promise<SanitizedSvg> {
  try {
    const rebuilt = await rebuild(text);
    return rebuilt === null ? { error: 'SVG has nothing left to show after sanitizing' } : rebuilt;
  } catch (err) {
    if (err instanceof SvgRejectedError) return { error: err.message };
    throw err;
  }
}

async function rebuild(text: string): Promise<{ svg: string; drawing: SvgDrawingCost } | null> {
  const parser = new SaxesParser<{ xmlns: false; position: false }>({ xmlns: false, position: false });
  const out: string[] = [];
  const stack: Frame[] = [];
  const scope = new Map<string, string>([['xml', XML_NS]]);
  let skipDepth = 0; // > 0 while inside a dropped subtree
  let styleText: string[] | null = null; // the text of a <style> element, judged when it closes
  let rootAttrs = '';
  let rootChildren = -1; // set when the root closes
  let usesXlink = false;
  const drawing: SvgDrawingCost = { filters: false, masks: 0, depth: 0 };

  const reject = (reason: string): never => {
    throw new SvgRejectedError(reason);
  };
  /** Before writing content into the innermost element, finish its start tag. */
  const enterContent = () => {
    const top = stack[stack.length - 1];
    if (top?.open) {
      out.push('>');
      top.open = false;
    }
  };

  // Any well-formedness error refuses the file (browsers would not render it either).
  parser.on('error', (err) => reject(`SVG is not well-formed XML: ${err.message.replace(/\.$/, '')}`));
  parser.on('doctype', (doctype) => {
    parser.ENTITIES = withDeclaredEntities(parser.ENTITIES, doctype, text);
  });

  parser.on('opentag', (tag: SaxesTagPlain) => {
    if (stack.length >= MAX_SVG_DEPTH) reject(`SVG nests elements deeper than ${MAX_SVG_DEPTH} levels`);
    const declared: Array<[string, string | undefined]> = [];
    for (const [name, value] of Object.entries(tag.attributes)) {
      const prefix = name === 'xmlns' ? '' : name.startsWith('xmlns:') ? name.slice(6) : null;
      if (prefix === null) continue;
      declared.push([prefix, scope.get(prefix)]);
      scope.set(prefix, value);
    }
    const parent = stack[stack.length - 1];
    const frame: Frame = { name: null, start: -1, open: false, keptChildren: 0, declared };
    stack.push(frame);
    if (skipDepth > 0 || styleText !== null) {
      skipDepth++;
      return;
    }

    const isRoot = parent === undefined;
    const { prefix, local } = splitName(tag.name);
    // A root without any namespace is a hand-written SVG missing its xmlns: its unprefixed elements are taken as SVG.
    if (isRoot && prefix === '' && !scope.has('')) {
      declared.push(['', undefined]);
      scope.set('', SVG_NS);
    }
    const uri = scope.get(prefix);
    const allowed = uri === SVG_NS && ELEMENTS.has(local);
    if (isRoot && (!allowed || local !== 'svg')) reject('SVG root element must be <svg>');
    if (!allowed) {
      skipDepth = 1;
      return;
    }

    if (local === 'filter' || local.startsWith('fe')) drawing.filters = true;
    if (local === 'mask' || local === 'clipPath') drawing.masks++;
    drawing.depth = Math.max(drawing.depth, stack.length);
    let attrs = '';
    const written = new Set<string>();
    for (const [name, value] of Object.entries(tag.attributes)) {
      const outName = keptAttributeName(local, name, value, scope);
      if (!outName || written.has(outName)) continue;
      written.add(outName);
      if (setsFilter(outName, value)) drawing.filters = true;
      if (outName.startsWith('xlink:')) usesXlink = true;
      attrs += ` ${outName}="${escapeAttr(value)}"`;
    }
    if (parent?.open) {
      out.push('>');
      parent.open = false;
    }
    frame.name = local;
    frame.open = true;
    if (isRoot) {
      rootAttrs = attrs;
      frame.start = out.length;
      out.push(''); // the root's start tag, written at the end once the namespaces needed are known
    } else {
      parent.keptChildren++;
      frame.start = out.length;
      out.push(`<${local}${attrs}`);
    }
    if (local === 'style') styleText = [];
  });

  const onText = (t: string) => {
    if (stack.length === 0 || skipDepth > 0) return; // whitespace outside the root, or dropped content
    if (styleText !== null) {
      styleText.push(t);
      return;
    }
    enterContent();
    out.push(escapeText(t));
  };
  parser.on('text', onText);
  parser.on('cdata', onText);

  parser.on('closetag', () => {
    const frame = stack.pop()!;
    for (const [prefix, previous] of frame.declared.reverse()) {
      if (previous === undefined) scope.delete(prefix);
      else scope.set(prefix, previous);
    }
    if (skipDepth > 0) {
      skipDepth--;
      return;
    }
    const parent = stack[stack.length - 1];
    if (frame.name === 'style' && styleText !== null) {
      const css = styleText.join('');
      styleText = null;
      if (!cssIsSafe(css)) {
        out.length = frame.start; // unwrite it
        if (parent) parent.keptChildren--;
        return;
      }
      if (setsFilter('style', css)) drawing.filters = true;
      out.push(css ? `>${escapeText(css)}</style>` : '/>');
      return;
    }
    out.push(frame.open ? '/>' : `</${frame.name}>`);
    if (!parent) rootChildren = frame.keptChildren;
  });

  // Fed in slices with a turn of the event loop between them: a 25 MB file must not stall the process.
  for (let i = 0; i < text.length; i += SLICE) {
    parser.write(text.slice(i, i + SLICE));
    if (i + SLICE < text.length) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  parser.close();

  if (rootChildren <= 0) return null; // nothing left to show
  out[0] = `<svg xmlns="${SVG_NS}"${usesXlink ? ` xmlns:xlink="${XLINK_NS}"` : ''}${rootAttrs}`;
  return { svg: out.join(''), drawing };
}

/** Does a kept attribute (or a stylesheet, as `style`) ask for a filter? */
function setsFilter(attribute: string, value: string): boolean {
  if (attribute === 'filter') return value.trim().toLowerCase() !== 'none';
  if (attribute !== 'style') return false;
  const css = decodeCssEscapes(value.replace(/\/\*[\s\S]*?(?:\*\/|$)/g, '')).toLowerCase();
  return [...css.matchAll(/(?:^|[;{\s])filter\s*:\s*([^;}]*)/g)].some((m) => m[1]!.trim() !== 'none');
}

/** The name to write an attribute under, or null to drop it. */
function keptAttributeName(element: string, name: string, value: string, scope: Map<string, string>): string | null {
  if (name === 'xmlns' || name.startsWith('xmlns:')) return null; // declarations are written by us
  const { prefix, local } = splitName(name);
  if (prefix !== '') {
    const uri = scope.get(prefix);
    if (uri === XLINK_NS && local === 'href') return hrefIsAllowed(element, value) ? 'xlink:href' : null;
    if (uri === XLINK_NS && local === 'title') return 'xlink:title';
    if (uri === XML_NS && (local === 'space' || local === 'lang')) return `xml:${local}`;
    return null;
  }
  if (local === 'href') return hrefIsAllowed(element, value) ? 'href' : null;
  const lower = local.toLowerCase();
  const canonical = ATTRIBUTES.get(lower) ?? (/^aria-[a-z]+$/.test(lower) ? lower : undefined);
  if (!canonical) return null;
  // An animation retargeted at a link or a handler is how <animate>-style XSS works; refuse it.
  if (canonical === 'attributeName' && /href|^\s*on/i.test(value)) return null;
  return cssIsSafe(value) ? canonical : null;
}

/** May this element keep an href (or xlink:href) with this value? */
export function hrefIsAllowed(element: string, value: string): boolean {
  // Browsers ignore leading/trailing spaces and tabs/newlines inside URLs; so do we before judging.
  const url = value.replace(/[\u0000-\u0020]/g, '');
  if (url.startsWith('#') && url.length > 1) return true;
  if (element === 'a') return NAVIGATION_URL.test(url);
  if (element === 'image' || element === 'feImage') return RASTER_DATA_URL.test(url);
  return false;
}

/** True when a CSS text (a stylesheet, a style attribute or a presentation attribute value) loads nothing from outside. */
export function cssIsSafe(css: string): boolean {
  if (!/[(@:\\]/.test(css)) return true; // nothing that could reference anything
  // Judge both readings, with and without comments, so a comment can neither hide nor fake a boundary.
  for (const variant of [css, css.replace(/\/\*[\s\S]*?(?:\*\/|$)/g, '')]) {
    const s = decodeCssEscapes(variant).toLowerCase();
    if (CSS_FORBIDDEN.test(s)) return false;
    for (const m of s.matchAll(CSS_URL)) {
      const target = m[2] ?? '';
      if (!(target.startsWith('#') && target.length > 1) && !RASTER_DATA_URL.test(target)) return false;
    }
  }
  return true;
}

/** Resolves CSS escapes (`\75 rl(` is `url(`), as a CSS parser does before it recognizes a function or an at-rule. */
function decodeCssEscapes(css: string): string {
  if (!css.includes('\\')) return css;
  return css.replace(/\\(?:([0-9a-fA-F]{1,6})[ \t\n\r\f]?|(\r\n|[\n\r\f])|([\s\S]))/g, (_m, hex?: string, _nl?: string, ch?: string) => {
    if (hex !== undefined) {
      const code = parseInt(hex, 16);
      return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? '\uFFFD' : String.fromCodePoint(code);
    }
    return ch ?? '';
  });
}

/**
 * The parser's entities plus those the doctype's internal subset declares with plain-text values
 * (no markup, no references). The total text they would expand to in this document is bounded.
 */
function withDeclaredEntities(base: Record<string, string>, doctype: string, text: string): Record<string, string> {
  const entities = Object.create(base) as Record<string, string>;
  let expansion = 0;
  for (const m of doctype.matchAll(/<!ENTITY\s+([A-Za-z_][\w.-]*)\s+(?:"([^"&<%]*)"|'([^'&<%]*)')\s*>/g)) {
    const name = m[1]!;
    const value = m[2] ?? m[3] ?? '';
    if (Object.prototype.hasOwnProperty.call(entities, name) || name in Object.prototype) continue; // the first declaration wins
    Object.defineProperty(entities, name, { value, enumerable: true });
    if (value.length === 0) continue;
    const ref = `&${name};`;
    for (let at = text.indexOf(ref); at >= 0; at = text.indexOf(ref, at + ref.length)) {
      expansion += value.length;
      if (expansion > MAX_ENTITY_EXPANSION) throw new SvgRejectedError('SVG entities expand to too much text');
    }
  }
  return entities;
}

function splitName(name: string): { prefix: string; local: string } {
  const colon = name.indexOf(':');
  return colon < 0 ? { prefix: '', local: name } : { prefix: name.slice(0, colon), local: name.slice(colon + 1) };
}

function escapeText(s: string): string {
  return s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

function escapeAttr(s: string): string {
  return s.replace(/[&<>"\t\n\r]/g, (c) => ATTR_ESCAPES[c]!);
}
const ATTR_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};
