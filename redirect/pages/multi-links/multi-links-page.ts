/**
 * multi-links links: a link-in-bio page in the link's design.
 *
 * - Colours are applied as inline styles after being checked again with the API's own CSS colour
 *   parser (a value it refuses falls back to the default look) and escaped like any attribute.
 * - The design has one text colour for the page (on backgroundColor) and the link buttons (on
 *   linkBackgroundColor). Where it does not reach WCAG AA contrast (4.5:1) on one of them (white
 *   text on a white page), that part uses black or white instead, whichever reads better.
 * - `isRound` rounds the link buttons into pills and the logo into a circle.
 * - `logo` may be any JSON. It is shown only when it is a base64 `data:image/(png|jpeg|gif|webp)`
 *   URL: an http(s) logo would be a request to a third party on every scan (and the page's CSP
 *   refuses it), and any other value has no agreed meaning.
 * - An `icon` is shown when it is such a data URL; otherwise the platform it names ("instagram",
 *   "tiktok") or the link's host leads to shows its built-in icon (icons.ts), and any other link a
 *   link icon. A link without a title is named after that platform ("TikTok"), its icon name, or
 *   the host it leads to.
 * - Social links are a row of round icon buttons (their name as the accessible label) under the
 *   description; custom links full-width buttons.
 */
import { parseCssColor } from '#domain/qr/css-color.js';
import { AA_CONTRAST, contrastRatio, over, textColorOn, type Rgba } from '#domain/colour-contrast.js';
import type { LinkDataByType } from '#domain/links/data/index.js';
import { isDataImageUrl } from '#domain/links/data/landing-images.js';
import { checkedUrl, html, type SafeHtml } from '../common/html.js';
import { icon, socialPlatform } from '../common/icons.js';
import type { PageContent } from '../common/layout.js';
import type { Page, PageUrls } from '../common/types.js';
import type { PageLocale } from '../common/locale.js';
import { pingOf } from '../common/taps.js';

type MultiLinksData = LinkDataByType['multi-links'];
type MultiLink = NonNullable<MultiLinksData['links']>[number];

const STYLES =
  'main{text-align:center}.logo{display:block;width:6rem;height:6rem;object-fit:cover;margin:0 auto 1rem;border-radius:1rem}' +
  '.links{list-style:none;padding:0;margin:1.5rem 0 0}.links li{margin:0 0 .75rem}' +
  '.bio-link{display:flex;align-items:center;gap:.75rem;min-height:3.25rem;padding:.5rem 1rem;border-radius:.75rem;font-weight:600;text-decoration:none;text-align:left;box-shadow:0 1px 3px rgba(0,0,0,.2)}' +
  '.bio-link span:last-child{flex:1;overflow-wrap:anywhere}' +
  'span.icon{flex:none;display:flex;align-items:center;justify-content:center;width:2rem;height:2rem;overflow:hidden}' +
  'span.icon img{width:100%;height:100%;object-fit:cover;border-radius:50%}' +
  '.socials{list-style:none;padding:0;margin:1rem 0 0;display:flex;flex-wrap:wrap;justify-content:center;gap:.75rem}' +
  '.social{display:flex;align-items:center;justify-content:center;width:3rem;height:3rem;border-radius:50%;box-shadow:0 1px 3px rgba(0,0,0,.2)}' +
  '.round .logo{border-radius:50%}.round .bio-link{border-radius:999px}';

const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 1 };

/** The design's text colour where it reads on `background`, else black or white. */
function readableText(text: string, background: Rgba): string {
  const parsed = parseCssColor(text);
  if (parsed && contrastRatio(over(parsed, background), background) >= AA_CONTRAST) return text;
  return textColorOn(background);
}

function style(declarations: Record<string, string | undefined>): string {
  return Object.entries(declarations)
    .filter(([, value]) => value !== undefined)
    .map(([property, value]) => `${property}:${value}`)
    .join(';');
}

function linkTitle(link: MultiLink): string {
  if (link.title?.trim()) return link.title;
  const platform = socialPlatform(link.icon, link.value);
  if (platform) return platform.label;
  if (link.icon && !/^[a-z][a-z0-9+.-]*:/i.test(link.icon)) return link.icon.charAt(0).toUpperCase() + link.icon.slice(1);
  return new URL(link.value).hostname;
}

/** The link's own image icon when it is a data URL, else the platform's icon, else a link icon. */
function linkIcon(link: MultiLink): SafeHtml {
  if (isDataImageUrl(link.icon)) return html`<span class="icon" aria-hidden="true"><img src="${link.icon}" alt=""></span>`;
  return html`<span class="icon" aria-hidden="true">${icon(socialPlatform(link.icon, link.value)?.icon ?? 'link')}</span>`;
}

export function renderMultiLinksPage(data: MultiLinksData, urls: Pick<PageUrls, 'tap'>, _locale: PageLocale): PageContent {
  const { backgroundColor, linkBackgroundColor, textColor } = data.design;
  const pageBackground = parseCssColor(backgroundColor);
  const linkBackground = parseCssColor(linkBackgroundColor);
  const shownPage = over(pageBackground ?? WHITE, WHITE);
  const shownLink = linkBackground ? over(linkBackground, shownPage) : shownPage;
  const bodyStyle = style({ 'background-color': pageBackground ? backgroundColor : '#fff', color: readableText(textColor, shownPage) });
  const linkStyle = style({
    'background-color': linkBackground ? linkBackgroundColor : undefined,
    color: readableText(textColor, shownLink),
  });
  // Social profiles are a row of round icons under the description; other links full-width buttons.
  const socials: SafeHtml[] = [];
  const links: SafeHtml[] = [];
  for (const link of data.links ?? []) {
    const href = checkedUrl(link.value, ['http', 'https']);
    if (!href) continue;
    const title = linkTitle(link);
    if (link.type === 'social')
      socials.push(
        html`<li><a class="social" href="${href}"${pingOf(urls, 'website')} style="${linkStyle}" aria-label="${title}" title="${title}">${linkIcon(link)}</a></li>`,
      );
    else
      links.push(
        html`<li><a class="bio-link" href="${href}"${pingOf(urls, 'website')} style="${linkStyle}">${linkIcon(link)}<span>${title}</span></a></li>`,
      );
  }
  return {
    title: data.title,
    styles: STYLES,
    bodyStyle,
    content: html`<div${data.isRound ? html` class="round"` : ''}>
${isDataImageUrl(data.logo) && html`<img class="logo" src="${data.logo}" alt="">`}
<h1>${data.title}</h1>
${data.description && html`<p class="text">${data.description}</p>`}
${socials.length > 0 && html`<ul class="socials">${socials}</ul>`}
${links.length > 0 && html`<ul class="links">${links}</ul>`}
</div>`,
  };
}
