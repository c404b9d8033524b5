/**
 * An auto-escaping `html` tagged template. Every interpolated value is escaped for text and for
 * double-quoted attribute values alike, unless it is `SafeHtml`: the result of another `html`
 * call, or sanitized landing HTML marked with `trustSanitizedHtml`. Templates must quote every
 * attribute value; a value can then never leave its attribute or open a tag.
 *
 * URLs that come from users go into `href` only after `checkedUrl` accepted their scheme.
 */

export class SafeHtml {
  constructor(readonly value: string) {}
}

/** What a template accepts: nothing renders for `null`, `undefined` and `false`; arrays render item by item. */
export type HtmlValue = SafeHtml | string | number | null | undefined | false | readonly HtmlValue[];

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!;
  });
  return new SafeHtml(out);
}

/** Marks the output of the landing sanitizer as markup. Nothing else may be passed here. */
export function trustSanitizedHtml(sanitized: string): SafeHtml {
  return new SafeHtml(sanitized);
}

export type UrlScheme = 'http' | 'https' | 'mailto' | 'tel' | 'sms' | 'geo';

/**
 * The URL as a browser reads it (so `java\tscript:` or a leading space cannot hide the scheme),
 * when its scheme is one of `schemes`; otherwise `undefined`.
 */
export function checkedUrl(value: unknown, schemes: readonly UrlScheme[]): string | undefined {
  if (typeof value !== 'string') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  return schemes.includes(url.protocol.slice(0, -1) as UrlScheme) ? url.href : undefined;
}
