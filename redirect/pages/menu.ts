/**
 * menu links: the live menu of a cafe, as a guest sees it after scanning the code on the table.
 *
 * The cafe's name, logo and cover, whether it is open now (in the cafe's time zone), its visible
 * groups → categories → items with prices in their currencies, badges, spice level, ingredients,
 * allergens and tags, a dietary summary when the cafe turns it on, its hours, contact, address and
 * social links, in the look of its theme. A small inline script (allowed by its hash; the page is
 * complete without it) filters by dietary tag and allergen and searches by name, without a round
 * trip, keeping the filter in the URL's query (`?q=…&diet=vegan&avoid=gluten`), so a shared link
 * opens the same view. Item images load lazily. A schema.org Menu block describes the menu to
 * search engines.
 *
 * The page depends on the menu and on the cafe's clock (open or closed, today's row of the hours):
 * `menuClockKey` says when a rendered copy is still right (redirect/page-cache.ts caches by it).
 */
import { dietOf, DIETS, filterKey, SPICE_LABELS } from '../../shared/cafes/diets.js';
import { cafeClock, describeOpenState, type CafeClock, type DayHours } from '../../shared/cafes/opening-hours.js';
import type { PublishedCategory, PublishedItem, PublishedMenu, SpiceLevel } from '../../shared/cafes/published-menu.js';
import { WEEKDAYS } from '../../shared/cafes/schemas.js';
import { MENU_THEMES, type MenuTheme } from '../../shared/cafes/themes.js';
import type { LinkDataByType } from '../../shared/links/data/index.js';
import { checkedUrl, html, SafeHtml, type HtmlValue } from './html.js';
import { icon, socialPlatform } from './icons.js';
import { imageSources, pictureTag, thumbnailTag } from './images.js';
import { contentSecurityPolicy, htmlPage, PageScript, type PageContent } from './layout.js';
import type { Page } from './types.js';
import type { PageLocale } from './locale.js';

/** Where the page's images are served (the redirect's /files/:id). */
export interface MenuPageUrls {
  file(id: string): string;
}

/** Items described in the schema.org block at most: enough for search engines, without doubling a huge page. */
export const JSON_LD_ITEMS_MAX = 500;

// ---------------------------------------------------------------------------------------------
// Words guests filter by

/** The search form of a name: case and accents ignored, as the page script compares. */
function searchKey(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

const SPICE: Record<SpiceLevel, { label: string; peppers: number }> = {
  none: { label: SPICE_LABELS.none, peppers: 0 },
  mild: { label: SPICE_LABELS.mild, peppers: 1 },
  medium: { label: SPICE_LABELS.medium, peppers: 2 },
  hot: { label: SPICE_LABELS.hot, peppers: 3 },
  extra_hot: { label: SPICE_LABELS.extra_hot, peppers: 4 },
};

// ---------------------------------------------------------------------------------------------
// Prices

const priceFormats = new Map<string, Intl.NumberFormat>();

/** "€12.50", "¥1,200", "12,500 ₫": the currency's own symbol and minor units. */
export function formatPrice(price: string, currency: string): string {
  let format = priceFormats.get(currency);
  if (!format) {
    try {
      format = new Intl.NumberFormat('en', { style: 'currency', currency });
    } catch {
      // Stored currencies are ISO 4217 codes; one Intl does not know is still shown, by its code.
      format = new Intl.NumberFormat('en', { style: 'currency', currency: 'XXX' });
    }
    if (priceFormats.size < 400) priceFormats.set(currency, format);
  }
  return format.format(Number(price));
}

// ---------------------------------------------------------------------------------------------
// Colors: an owner's primary/secondary color may be any hex; text on or in it must stay readable.

function luminance(hex: string): number {
  const full = hex.length === 4 ? hex.replace(/[0-9a-f]/gi, (c) => c + c) : hex.slice(0, 7);
  const channel = (i: number) => {
    const c = parseInt(full.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const isHexColor = (value: string | null): value is string => value !== null && /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(value);

/** The theme's palette with the cafe's colors, each text color checked against WCAG AA (4.5:1). */
function paletteOf(theme: MenuTheme, menu: PublishedMenu) {
  const p = theme.palette;
  const primary = isHexColor(menu.primaryColor) ? menu.primaryColor : p.primary;
  const secondary = isHexColor(menu.secondaryColor) ? menu.secondaryColor : p.secondary;
  const readable = (color: string, on: string, fallback: string) => (contrast(color, on) >= 4.5 ? color : fallback);
  const onColor = (color: string) => (contrast('#ffffff', color) >= contrast('#000000', color) ? '#ffffff' : '#000000');
  return {
    ...p,
    primary,
    secondary,
    // Prices and headings in the primary color, unless it is too pale (or dark) on the background.
    primaryText: readable(primary, p.surface, p.text),
    onPrimary: onColor(primary),
    onSecondary: onColor(secondary),
    dark: luminance(p.background) < 0.2,
  };
}

function themeStyles(theme: MenuTheme, menu: PublishedMenu): string {
  const c = paletteOf(theme, menu);
  const vars =
    `:root{color-scheme:${c.dark ? 'dark' : 'light'};--bg:${c.background};--fg:${c.text};--muted:${c.mutedText};--card:${c.surface};` +
    `--line:${c.dark ? '#3a3a3a' : '#e2ddd5'};--accent:${c.primaryText};--on-accent:${c.onPrimary};--primary:${c.primary};` +
    `--secondary:${c.secondary};--on-secondary:${c.onSecondary};--head-font:${theme.typography.headings};--body-font:${theme.typography.body}}`;
  return vars + MENU_STYLES + (LAYOUT_STYLES[theme.layout] ?? '');
}

const MENU_STYLES = `
body{font-family:var(--body-font)}
main{padding:0 0 3rem;max-width:46rem}
h1,h2,h3,h4{font-family:var(--head-font)}
.hero{position:relative;margin:0 0 1rem}
.cover{display:block;width:100%;height:8.5rem;object-fit:cover}
.hero:not(:has(.cover)){border-top:.5rem solid var(--primary)}
.intro{padding:0 1.25rem}
.brand{display:flex;align-items:flex-start;gap:.9rem;padding-top:1rem}
.cover+.intro .brand{padding-top:.6rem}
.cover+.intro .logo{margin-top:-2.6rem}
.logo{flex:none;display:block;width:4.5rem;height:4.5rem;border-radius:50%;object-fit:cover;border:3px solid var(--bg);background:var(--card);position:relative}
.intro h1{margin:0;font-size:1.6rem}
.subtitle{margin:.1rem 0 0;color:var(--muted);font-size:.95rem}
.intro>p{margin:.5rem 0 0}
.status{display:inline-flex;align-items:center;gap:.4rem;font-weight:600;margin:.6rem 1rem 0 0}
.status::before{content:"";width:.6rem;height:.6rem;border-radius:50%;background:#b3261e}
.status.open::before{background:#1e8e3e}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;margin:.75rem 0 0;padding:0;list-style:none}
.actions a{display:inline-flex;align-items:center;min-height:2.75rem;padding:.4rem 1rem;border-radius:999px;background:var(--primary);color:var(--on-accent);text-decoration:none;font-weight:600}
.actions li+li a{background:var(--card);border:1px solid var(--line);color:var(--fg)}
.tabs{position:sticky;top:0;z-index:2;display:flex;gap:.4rem;overflow-x:auto;padding:.5rem 1.25rem;margin-top:1rem;background:var(--bg);border-bottom:1px solid var(--line);scrollbar-width:none}
.tabs a{flex:none;display:inline-flex;align-items:center;min-height:2.75rem;padding:.4rem 1rem;border-radius:999px;border:1px solid var(--secondary);color:var(--fg);text-decoration:none;white-space:nowrap;font-weight:600}
.tabs a:hover,.tabs a:focus-visible{background:var(--primary);color:var(--on-accent)}
.filters{padding:.75rem 1.25rem 0}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.filters input[type=search]{width:100%;min-height:2.75rem;padding:.5rem .9rem;border:1px solid var(--line);border-radius:.75rem;background:var(--card);color:var(--fg);font:inherit}
.filters details{margin:.5rem 0 0}
.filters summary{display:inline-flex;align-items:center;min-height:2.75rem;margin:0 0 .5rem;padding:.4rem 1rem;border:1px solid var(--line);border-radius:999px;background:var(--card);cursor:pointer;font-weight:600}
.filters details[open] summary{background:var(--primary);color:var(--on-accent);border-color:var(--primary)}
.filters fieldset{border:0;padding:0;margin:0 0 .5rem}
.filters legend{font-size:.9rem;color:var(--muted);padding:0;margin:0 0 .25rem}
.chips{display:flex;flex-wrap:wrap;gap:.4rem;margin:0;padding:0;list-style:none}
.chip{position:relative}
.chip input{position:absolute;opacity:0;width:100%;height:100%;margin:0;cursor:pointer}
.chip span{display:inline-flex;align-items:center;min-height:2.75rem;padding:.4rem .9rem;border-radius:999px;border:1px solid var(--line);background:var(--card)}
.chip input:checked+span{background:var(--primary);color:var(--on-accent);border-color:var(--primary)}
.chip input:focus-visible+span{outline:3px solid var(--accent);outline-offset:2px}
.found{margin:.5rem 0 0;color:var(--muted);font-size:.95rem}
.diet{margin:.75rem 1.25rem 0;padding:.6rem 1rem;border-radius:.75rem;background:var(--card);border:1px solid var(--line);font-size:.95rem}
.diet h2{display:inline;margin:0 .5rem 0 0;font-size:1rem}
.diet ul{display:inline;margin:0;padding:0;list-style:none}
.diet li{display:inline}
.diet li+li::before{content:" · "}
.grp{padding:0 1.25rem;scroll-margin-top:4rem}
.grp>h2{font-size:1.5rem;margin:1.5rem 0 .25rem;color:var(--accent)}
.cat>h3{font-size:1.15rem;margin:1rem 0 .25rem;padding-bottom:.25rem;border-bottom:2px solid var(--secondary)}
.cat>p{margin:0 0 .5rem;color:var(--muted)}
.items{list-style:none;margin:0;padding:0}
.item{display:flex;gap:.9rem;padding:.9rem 0;border-bottom:1px solid var(--line)}
.item img{flex:none;width:5.5rem;height:5.5rem;border-radius:.75rem;object-fit:cover;background:var(--card)}
.item .body{flex:1;min-width:0}
.item h4{margin:0;font-size:1.05rem;line-height:1.3}
.item .top{display:flex;justify-content:space-between;gap:.75rem;align-items:baseline}
.price{flex:none;font-weight:700;color:var(--accent);white-space:nowrap}
.item p{margin:.25rem 0 0}
.desc{color:var(--muted);font-size:.95rem}
.meta{font-size:.875rem;color:var(--muted)}
.meta b{font-weight:600;color:var(--fg)}
.badges{display:flex;flex-wrap:wrap;gap:.3rem;margin:.35rem 0 0}
.badge{display:inline-block;padding:.1rem .55rem;border-radius:999px;font-size:.8rem;font-weight:600;background:var(--secondary);color:var(--on-secondary)}
.badge.diet-tag{background:transparent;color:var(--fg);border:1px solid currentColor}
.tag{display:inline-block;padding:.05rem .5rem;border-radius:999px;font-size:.8rem;border:1px solid var(--line);color:var(--muted)}
.spice{font-size:.85rem}
.none{padding:1rem 1.25rem;color:var(--muted)}
.visit{margin:2rem 1.25rem 0;padding:1rem 1.25rem;border-radius:1rem;background:var(--card);border:1px solid var(--line)}
.visit h2{margin:0 0 .75rem}
.visit h3{font-size:1rem;margin:1rem 0 .25rem}
.hours{display:grid;grid-template-columns:max-content 1fr;gap:0 1.5rem;margin:0}
.hours>div{display:contents}
.hours dt,.hours dd{margin:0;padding:.3rem 0}
.hours .today>*{font-weight:700}
.visit a{display:inline-flex;align-items:center;gap:.4rem;min-height:2.75rem}
.social{display:flex;flex-wrap:wrap;gap:.5rem 1rem;list-style:none;margin:0;padding:0}
[hidden]{display:none!important}
`.replace(/\n/g, '');

const LAYOUT_STYLES: Record<MenuTheme['layout'], string> = {
  list: '',
  cards:
    '.item{flex-direction:column;gap:0;padding:0;margin:0 0 1rem;border:1px solid var(--line);border-radius:1rem;background:var(--card);overflow:hidden}' +
    '.item img{width:100%;height:11rem;border-radius:0}.item .body{padding:.9rem 1rem}',
  grid:
    '.items{display:grid;grid-template-columns:repeat(auto-fill,minmax(10rem,1fr));gap:.75rem}' +
    '.item{flex-direction:column;gap:0;padding:0;border:1px solid var(--line);border-radius:1rem;background:var(--card);overflow:hidden}' +
    '.item img{width:100%;height:8rem;border-radius:0}.item .body{padding:.7rem .8rem}.item .top{flex-direction:column;gap:.15rem}',
};

// ---------------------------------------------------------------------------------------------
// The filter script: hides what does not match and keeps the filter in the URL. Every rule it
// applies is in data attributes the server wrote: data-n (the name's search form), data-a
// (allergen keys) and data-d (dietary keys), keys separated by "|".

const FILTER_SCRIPT = new PageScript(`(()=>{const f=document.getElementById('mf');if(!f)return;f.hidden=false;
const items=[...document.querySelectorAll('.item')],cats=[...document.querySelectorAll('.cat')],grps=[...document.querySelectorAll('.grp')],tabs=[...document.querySelectorAll('.tabs a')];
const found=document.getElementById('mf-found'),none=document.getElementById('mf-none');
const key=s=>s.normalize('NFD').replace(/\\p{M}/gu,'').toLowerCase().trim();
const checked=n=>[...f.querySelectorAll('input[name='+n+']:checked')].map(c=>c.value);
function read(){const p=new URLSearchParams(location.search);f.q.value=p.get('q')||'';for(const c of f.querySelectorAll('input[type=checkbox]'))c.checked=p.getAll(c.name).includes(c.value)}
function apply(write){const q=key(f.q.value),avoid=checked('avoid'),diet=checked('diet');let shown=0;
for(const el of items){const a=el.dataset.a?el.dataset.a.split('|'):[],d=el.dataset.d?el.dataset.d.split('|'):[];
const ok=(!q||el.dataset.n.includes(q))&&!avoid.some(x=>a.includes(x))&&diet.every(x=>d.includes(x));el.hidden=!ok;if(ok)shown++}
for(const c of cats)c.hidden=!c.querySelector('.item:not([hidden])');
for(const g of grps)g.hidden=!g.querySelector('.cat:not([hidden])');
for(const t of tabs){const g=document.getElementById(t.hash.slice(1));t.hidden=!!g&&g.hidden}
const active=q||avoid.length||diet.length;found.hidden=!active;found.textContent=shown===1?'1 dish matches':shown+' dishes match';none.hidden=shown>0;
if(write){const p=new URLSearchParams();if(f.q.value.trim())p.set('q',f.q.value.trim());for(const v of diet)p.append('diet',v);for(const v of avoid)p.append('avoid',v);
const s=p.toString();history.replaceState(null,'',s?'?'+s:location.pathname+location.hash)}}
f.addEventListener('input',()=>apply(true));f.addEventListener('submit',e=>{e.preventDefault();apply(true)});
read();apply(false)})();`);

/** The menu page's policy when `frameAncestor` (the console's origin) shows it as a preview in a frame. */
export const framedMenuPolicy = (frameAncestor: string) => contentSecurityPolicy({ scriptHashes: [FILTER_SCRIPT.hash], frameAncestor });

// ---------------------------------------------------------------------------------------------
// Rendering

/** The cafe's clock at `now`, and the key of every page rendered at a moment with the same clock. */
export function menuClock(menu: Pick<PublishedMenu, 'operatingHours' | 'timezone'>, now: Date): CafeClock & { key: string } {
  const clock = cafeClock(menu.operatingHours, menu.timezone, now);
  return { ...clock, key: `${clock.today}|${clock.state ? describeOpenState(clock.state) : ''}` };
}

interface FilterWords {
  /** key → label (the first spelling seen) and how many visible items carry it. */
  allergens: Map<string, { label: string; count: number }>;
  diets: Map<string, { label: string; count: number }>;
}

function collectFilterWords(menu: PublishedMenu): FilterWords {
  const words: FilterWords = { allergens: new Map(), diets: new Map() };
  const count = (map: FilterWords['allergens'], key: string, label: string) => {
    const entry = map.get(key);
    if (entry) entry.count++;
    else map.set(key, { label, count: 1 });
  };
  for (const item of allItems(menu)) {
    for (const allergen of new Set(item.allergens.map(filterKey))) {
      if (allergen) count(words.allergens, allergen, item.allergens.find((a) => filterKey(a) === allergen)!.trim());
    }
    for (const diet of new Set(item.tags.map(dietOf))) if (diet) count(words.diets, diet, DIETS[diet]!.label);
  }
  const sorted = (map: FilterWords['allergens']) => new Map([...map].sort((a, b) => a[1].label.localeCompare(b[1].label)));
  return { allergens: sorted(words.allergens), diets: sorted(words.diets) };
}

function* allItems(menu: PublishedMenu): Generator<PublishedItem> {
  for (const group of menu.groups) for (const category of group.categories) yield* category.items;
}

function renderItem(item: PublishedItem, urls: MenuPageUrls, variants: PublishedMenu['imageVariants'], showDiets: boolean): SafeHtml {
  const allergenKeys = [...new Set(item.allergens.map(filterKey).filter(Boolean))];
  const diets = [...new Set(item.tags.map(dietOf).filter((d): d is string => d !== null))];
  // Dietary tags are badges when the cafe shows its dietary section; every other tag is a plain tag.
  const plainTags = showDiets ? item.tags.filter((t) => dietOf(t) === null) : item.tags;
  const spice = SPICE[item.spiceLevel] ?? SPICE.none;
  const badges: HtmlValue[] = [
    item.isFeatured && html`<span class="badge">Featured</span>`,
    item.isNew && html`<span class="badge">New</span>`,
    item.isRecommended && html`<span class="badge">Recommended</span>`,
    showDiets && diets.map((d) => html`<span class="badge diet-tag">${DIETS[d]!.label}</span>`),
    spice.peppers > 0 && html`<span class="spice" role="img" aria-label="Spice level: ${spice.label}" title="${spice.label}">${'🌶️'.repeat(spice.peppers)}</span>`,
  ];
  const hasBadges = badges.some((b) => b && (!Array.isArray(b) || b.length > 0));
  return html`<li class="item" data-n="${searchKey(item.name)}" data-a="${allergenKeys.join('|')}" data-d="${diets.join('|')}">${
    item.image && thumbnailTag(imageSources({ id: item.image, variants: variants[item.image] }, urls.file), { alt: item.name, lazy: true, width: 88, height: 88 })
  }<div class="body"><div class="top"><h4>${item.name}</h4><span class="price">${formatPrice(item.price, item.currency)}</span></div>${
    hasBadges && html`<p class="badges">${badges}</p>`
  }${item.description && html`<p class="desc text">${item.description}</p>`}${
    item.ingredients.length > 0 && html`<p class="meta"><b>Ingredients:</b> ${item.ingredients.join(', ')}</p>`
  }${item.allergens.length > 0 && html`<p class="meta"><b>Allergens:</b> ${item.allergens.join(', ')}</p>`}${
    plainTags.length > 0 && html`<p class="badges">${plainTags.map((t) => html`<span class="tag">${t}</span>`)}</p>`
  }</div></li>`;
}

function renderCategory(category: PublishedCategory, urls: MenuPageUrls, variants: PublishedMenu['imageVariants'], showDiets: boolean): SafeHtml {
  return html`<section class="cat"><h3>${category.name}</h3>${category.description && html`<p class="text">${category.description}</p>`}<ul class="items">${category.items.map((item) =>
    renderItem(item, urls, variants, showDiets),
  )}</ul></section>`;
}

function renderFilters(words: FilterWords): SafeHtml {
  const chips = (name: 'diet' | 'avoid', map: FilterWords['allergens']) =>
    html`<ul class="chips">${[...map].map(([key, { label }]) => html`<li class="chip"><input type="checkbox" name="${name}" value="${key}" id="${name}-${key}"><span>${label}</span></li>`)}</ul>`;
  const hasChoices = words.diets.size > 0 || words.allergens.size > 0;
  // Hidden until the script runs: without it, the form could not filter anything.
  return html`<form id="mf" class="filters" role="search" hidden>
<label for="mf-q" class="sr">Search the menu by dish name</label>
<input type="search" id="mf-q" name="q" placeholder="Search dishes" autocomplete="off" enterkeyhint="search">
${hasChoices && html`<details><summary>Filters</summary>
${words.diets.size > 0 && html`<fieldset><legend>Only show</legend>${chips('diet', words.diets)}</fieldset>`}
${words.allergens.size > 0 && html`<fieldset><legend>Hide dishes with</legend>${chips('avoid', words.allergens)}</fieldset>`}
</details>`}
<p id="mf-found" class="found" role="status" hidden></p>
</form>`;
}

function renderDietSection(words: FilterWords): HtmlValue {
  if (words.diets.size === 0) return null;
  return html`<section class="diet" aria-labelledby="diet-h"><h2 id="diet-h">Dietary options</h2><ul>${[...words.diets.values()].map(
    ({ label, count }) => html`<li>${label} <span class="muted">(${count === 1 ? '1 dish' : `${count} dishes`})</span></li>`,
  )}</ul></section>`;
}

const dayLabel = (day: string) => day[0]!.toUpperCase() + day.slice(1);

function renderHours(hours: readonly DayHours[], today: string): HtmlValue {
  if (!hours.some((h) => h.enabled && h.ranges.length > 0)) return null;
  const rows = WEEKDAYS.map((day) => {
    const entry = hours.find((h) => h.day === day);
    const open = entry?.enabled && entry.ranges.length > 0 ? entry.ranges.map((r) => `${r.from}–${r.to}`).join(', ') : 'Closed';
    // The colon is for screen readers and copied text; the grid's gap separates the columns on screen.
    return html`<div${day === today ? html` class="today" aria-current="date"` : ''}><dt>${dayLabel(day)}<span class="sr">:</span> </dt><dd>${open}</dd></div>`;
  });
  return html`<h3>Opening hours</h3><dl class="hours">${rows}</dl>`;
}

function mapsUrl(address: string): string {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(address)}`;
}

function telUrl(phone: string): string | undefined {
  const digits = phone.replace(/[^\d+]/g, '');
  return /^\+?\d{3,}$/.test(digits) ? `tel:${digits}` : undefined;
}

function renderVisit(menu: PublishedMenu, clock: CafeClock): SafeHtml {
  const website = checkedUrl(menu.website, ['http', 'https']);
  const tel = menu.phone ? telUrl(menu.phone) : undefined;
  const email = menu.email && /^[^\s@<>]+@[^\s@<>]+$/.test(menu.email) ? menu.email : undefined;
  const socials = menu.socialLinks.map((s) => ({ platform: s.platform, url: checkedUrl(s.url, ['http', 'https']) })).filter((s) => s.url);
  return html`<section class="visit" aria-labelledby="visit-h"><h2 id="visit-h">Visit us</h2>
${renderHours(menu.operatingHours, clock.today)}
${menu.address && html`<h3>Address</h3><p class="text">${menu.address}</p><p><a href="${mapsUrl(menu.address)}">Open in maps</a></p>`}
${(menu.phone || menu.email || website) && html`<h3>Contact</h3><p>${[
    menu.phone && (tel ? html`<a href="${tel}">${menu.phone}</a><br>` : html`${menu.phone}<br>`),
    menu.email && (email ? html`<a href="mailto:${email}">${menu.email}</a><br>` : html`${menu.email}<br>`),
    website && html`<a href="${website}">${new URL(website).host}</a>`,
  ]}</p>`}
${socials.length > 0 && html`<h3>Follow us</h3><ul class="social">${socials.map((s) => html`<li><a href="${s.url!}">${icon(socialPlatform(s.platform, s.url)?.icon ?? 'link')}${s.platform}</a></li>`)}</ul>`}
${menu.facilities.length > 0 && html`<h3>Facilities</h3><p>${menu.facilities.join(' · ')}</p>`}
</section>`;
}

/** The schema.org Menu block; `<` is escaped so no text can close the script element. */
function renderJsonLd(menu: PublishedMenu, urls: MenuPageUrls, baseUrl: string | undefined): SafeHtml {
  let budget = JSON_LD_ITEMS_MAX;
  const section = (name: string | null, categories: PublishedCategory[]) => ({
    '@type': 'MenuSection',
    ...(name ? { name } : {}),
    hasMenuSection: categories.map((category) => ({
      '@type': 'MenuSection',
      name: category.name,
      ...(category.description ? { description: category.description } : {}),
      hasMenuItem: category.items.slice(0, Math.max(0, budget)).map((item) => {
        budget--;
        const diets = [...new Set(item.tags.map(dietOf))].flatMap((d) => (d && DIETS[d]!.schema ? [`https://schema.org/${DIETS[d]!.schema}`] : []));
        return {
          '@type': 'MenuItem',
          name: item.name,
          ...(item.description ? { description: item.description } : {}),
          ...(item.image && baseUrl ? { image: new URL(urls.file(item.image), baseUrl).href } : {}),
          offers: { '@type': 'Offer', price: String(Number(item.price)), priceCurrency: item.currency },
          ...(diets.length > 0 ? { suitableForDiet: diets } : {}),
        };
      }),
    })),
  });
  const data = {
    '@context': 'https://schema.org',
    '@type': 'Menu',
    name: menu.title?.trim() || menu.name,
    ...(menu.description ? { description: menu.description } : {}),
    hasMenuSection: menu.groups.map((g) => section(g.name, g.categories)),
  };
  const json = JSON.stringify(data).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return new SafeHtml(`<script type="application/ld+json">${json}</script>`);
}

/**
 * The most text a page's items may carry (by the length of their fields). A menu of 5000 items
 * with ordinary texts is about 1.5 MB of page; one with every field at its limit would be 80 MB,
 * costing every scan's render and every process's memory. Past this, the items after it are left
 * out and the page says how many; the owner's other pages, and other accounts', are unaffected.
 */
export const MENU_ITEM_BYTES_MAX = 8 * 1024 * 1024;

/** About how much page an item makes: its texts plus the markup around them. */
function itemWeight(item: PublishedItem): number {
  let weight = 600 + item.name.length * 3 + (item.description?.length ?? 0);
  for (const list of [item.ingredients, item.allergens, item.tags]) for (const entry of list) weight += entry.length * 2 + 20;
  return weight;
}

/** Only what a guest can see (empty categories and groups are left out), and no more items than `maxBytes` of them. */
function withinBudget(groups: PublishedMenu['groups'], maxBytes: number) {
  let left = maxBytes;
  let cut = 0;
  const kept = groups
    .map((g) => ({
      ...g,
      categories: g.categories
        .map((c) => ({
          ...c,
          items: c.items.filter((item) => {
            left -= itemWeight(item);
            if (left >= 0) return true;
            cut++;
            return false;
          }),
        }))
        .filter((c) => c.items.length > 0),
    }))
    .filter((g) => g.categories.length > 0);
  return { groups: kept, cut };
}

export interface MenuPageOptions {
  /** The items' budget (MENU_ITEM_BYTES_MAX by default). */
  maxItemBytes?: number;
  now: Date;
  urls: MenuPageUrls;
  /** The page's own absolute URL base (SHORT_URL_BASE), for absolute image URLs in the schema.org block. */
  baseUrl?: string;
}

/** The live menu page at `now` (whose clock decides "open now" and today's hours). */
export function renderMenuPage(menu: PublishedMenu, { now, urls, baseUrl, maxItemBytes = MENU_ITEM_BYTES_MAX }: MenuPageOptions): Page {
  const theme = MENU_THEMES[menu.theme];
  const clock = menuClock(menu, now);
  const words = collectFilterWords(menu);
  const title = menu.title?.trim() || menu.name;
  const { groups, cut } = withinBudget(menu.groups, maxItemBytes);
  const named = groups.filter((g) => g.name !== null);
  const website = checkedUrl(menu.website, ['http', 'https']);
  const tel = menu.phone ? telUrl(menu.phone) : undefined;
  return htmlPage({
    title: `${title} · Menu`,
    styles: themeStyles(theme, menu),
    script: FILTER_SCRIPT,
    content: html`<header class="hero">${
      menu.cover && pictureTag(imageSources({ id: menu.cover, variants: menu.imageVariants[menu.cover] }, urls.file), { className: 'cover', alt: '', sizes: '100vw', priority: true })
    }<div class="intro"><div class="brand">${
      menu.logo && thumbnailTag(imageSources({ id: menu.logo, variants: menu.imageVariants[menu.logo] }, urls.file), { className: 'logo', alt: `${menu.name} logo`, width: 72, height: 72 })
    }<div><h1>${title}</h1>${menu.subtitle && html`<p class="subtitle">${menu.subtitle}</p>`}</div></div>${
      clock.state && html`<p class="status${clock.state.open ? ' open' : ''}">${describeOpenState(clock.state)}</p>`
    }${menu.description && html`<p class="text">${menu.description}</p>`}${
      (tel || menu.address || website) &&
      html`<ul class="actions">${[
        tel && html`<li><a href="${tel}">Call</a></li>`,
        menu.address && html`<li><a href="${mapsUrl(menu.address)}">Directions</a></li>`,
        website && html`<li><a href="${website}">Website</a></li>`,
      ]}</ul>`
    }</div></header>
${named.length > 1 && html`<nav class="tabs" aria-label="Menu sections">${named.map((g) => html`<a href="#g${groups.indexOf(g) + 1}">${g.name!}</a>`)}</nav>`}
${renderFilters(words)}
${menu.showDietarySection && renderDietSection(words)}
${groups.length === 0 && html`<p class="none">The menu is being prepared. Please check back soon.</p>`}
${groups.map(
  (g, i) =>
    html`<section class="grp" id="g${i + 1}"${g.name ? html` aria-labelledby="g${i + 1}-h"` : ''}>${g.name && html`<h2 id="g${i + 1}-h">${g.name}</h2>`}${g.categories.map((c) =>
      renderCategory(c, urls, menu.imageVariants, menu.showDietarySection),
    )}</section>`,
)}
${cut > 0 && html`<p class="none">${cut === 1 ? '1 more dish is' : `${cut} more dishes are`} not shown: this menu is larger than a page can hold.</p>`}
<p id="mf-none" class="none" role="status" hidden>No dishes match. Try another search or fewer filters.</p>
${renderVisit(menu, clock)}
${renderJsonLd(menu, urls, baseUrl)}`,
  });
}

/** A menu link that serves no cafe (made with POST /links rather than POST /cafes): its name and a note. */
export function renderMenuPlaceholderPage(data: LinkDataByType['menu'], _locale: PageLocale): PageContent {
  const title = data.name?.trim() ? data.name : 'Menu';
  return {
    title,
    content: html`<h1>${title}</h1><p class="card">This menu is being prepared. Please check back soon.</p>`,
  };
}
