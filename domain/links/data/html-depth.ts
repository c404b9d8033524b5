/**
 * How deep a piece of HTML nests its elements, as an HTML parser reads it: void elements (br,
 * img...) hold nothing, a tag closes the open ones it implies (`<li>` an open `<li>`, a block an
 * open `<p>`, a row its cells), a close tag closes everything opened after its element, the
 * content of script, style, textarea and title is text, and `/>` closes an element only inside
 * svg or math. Linear in the HTML's length: it stops as soon as the depth passes `max`.
 */
const VOID = new Set([
  'area',
  'base',
  'basefont',
  'br',
  'col',
  'command',
  'embed',
  'frame',
  'hr',
  'img',
  'input',
  'isindex',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
/** Elements whose content is text, with how each one ends. */
const RAW_TEXT = new Map(['script', 'style', 'textarea', 'title'].map((tag) => [tag, new RegExp(`</${tag}`, 'gi')]));
const CLOSES_P = [
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'address',
  'article',
  'aside',
  'blockquote',
  'details',
  'div',
  'dl',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'header',
  'hr',
  'main',
  'nav',
  'ol',
  'pre',
  'section',
  'table',
  'ul',
];
const FORM = ['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea'];
/** Open elements a new tag closes first (the same rules as htmlparser2, which sanitize-html uses). */
const IMPLIES_CLOSE = new Map<string, Set<string>>([
  ...CLOSES_P.map((tag) => [tag, new Set(['p'])] as const),
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map((tag) => [tag, new Set(FORM)] as const),
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['li', new Set(['li'])],
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', new Set(['dd', 'dt'])],
  ['dt', new Set(['dd', 'dt'])],
  ['rt', new Set(['rt', 'rp'])],
  ['rp', new Set(['rt', 'rp'])],
  ['tbody', new Set(['thead', 'tbody'])],
  ['tfoot', new Set(['thead', 'tbody'])],
]);
const TAG_START = /<(\/?)([a-zA-Z][^\s/>]*)/y;

/** Whether `html` nests elements at most `max` deep. */
export function nestsAtMost(html: string, max: number): boolean {
  const open: string[] = [];
  let foreign = 0;
  // Each step moves past what it read, and a tag ends at the first `>` after it: no input is read twice.
  for (let at = html.indexOf('<'); at >= 0; at = html.indexOf('<', at)) {
    if (html.startsWith('<!--', at)) {
      const end = html.indexOf('-->', at + 4);
      if (end < 0) break;
      at = end + 3;
      continue;
    }
    TAG_START.lastIndex = at;
    const match = TAG_START.exec(html);
    if (!match) {
      at++;
      continue;
    }
    const end = html.indexOf('>', TAG_START.lastIndex);
    if (end < 0) break; // an unfinished tag: the rest is not an element
    at = end + 1;
    const name = match[2]!.toLowerCase();
    if (match[1]) {
      const index = open.lastIndexOf(name);
      if (index < 0) continue;
      for (const closed of open.splice(index)) if (closed === 'svg' || closed === 'math') foreign--;
      continue;
    }
    const implied = IMPLIES_CLOSE.get(name);
    while (implied && open.length > 0 && implied.has(open[open.length - 1]!)) open.pop();
    if (VOID.has(name) || (foreign > 0 && html[end - 1] === '/')) continue;
    open.push(name);
    if (open.length > max) return false;
    if (name === 'svg' || name === 'math') foreign++;
    const close = RAW_TEXT.get(name);
    if (close) {
      close.lastIndex = at;
      if (!close.exec(html)) break;
      at = close.lastIndex - name.length - 2;
    }
  }
  return true;
}
