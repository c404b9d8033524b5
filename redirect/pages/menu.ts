/**
 * menu links: the live menu of a cafe, as a guest sees it after scanning the code on the table.
 *
 * The cafe's name, logo and cover, whether it is open now (in the cafe's time zone), its visible
 * groups → categories → items (with their images) and prices in their currencies, badges, spice
 * level, ingredients, allergens and tags, its hours, contact, address and social links, in the
 * look of its theme and in the page's language (menu-messages.ts; the cafe's language, else the
 * guest's, see redirect/page-cache.ts). A phone's first screen shows dishes: the header is compact,
 * and calling or finding the cafe are small links beside its open state. A small inline script
 * (allowed by its hash; the page is complete without it) filters by dietary tag and allergen and
 * searches names, descriptions and ingredients without a round trip, keeping the filter in the
 * URL's query (`?q=…&diet=vegan&avoid=gluten`), so a shared link opens the same view. A dish's
 * photo opens large in a sheet (a `:target` fragment, so no script is needed; the script closes it
 * on Escape). Images load lazily, each copy chosen by the size it is shown at. A schema.org Menu
 * block describes the menu to search engines.
 *
 * The page depends on the menu and on the cafe's clock (open or closed, today's row of the hours):
 * `menuClockKey` says when a rendered copy is still right (redirect/page-cache.ts caches by it).
 */
import { dietOf, DIETS, filterKey } from '../../domain/cafes/diets.js';
import { cafeClock, type CafeClock, type DayHours, type OpenState } from '../../domain/cafes/opening-hours.js';
import type { PublishedCategory, PublishedItem, PublishedMenu, SpiceLevel } from '../../domain/cafes/published-menu.js';
import { WEEKDAYS } from '../../domain/cafes/schemas.js';
import { MENU_THEMES, type MenuTheme } from '../../domain/cafes/themes.js';
import type { LinkDataByType } from '../../domain/links/data/index.js';
import { weekdayName } from './catalogue.js';
import { checkedUrl, html, SafeHtml, type HtmlValue } from './html.js';
import { icon, socialPlatform } from './icons.js';
import { imageSources, pictureTag, thumbnailTag, type ImageSources } from './images.js';
import { contentSecurityPolicy, htmlPage, PageScript, type PageContent } from './layout.js';
import { dateTimeFormat, ENGLISH, formatPrice, pageLocale, type PageLocale } from './locale.js';
import { ALLERGEN_TEXT, DIET_TEXT, menuText, type MenuTextKey } from './menu-messages.js';
import type { Page } from './types.js';
import { AA_CONTRAST, contrastRatio, isHexColor, relativeLuminance, textColorOn } from '../../platform/format/colour.js';

/** Where the page's images are served (the redirect's /files/:id). */
export interface MenuPageUrls {
  file(id: string): string;
}

/** Items described in the schema.org block at most: enough for search engines, without doubling a huge page. */
export const JSON_LD_ITEMS_MAX = 500;

// ---------------------------------------------------------------------------------------------
// The page's words

/**
 * A menu page's locale: the cafe's language when it has one (every guest reads the cafe's
 * language); else the guest's best catalogue language, by that language alone (`pt`, not `pt-BR`:
 * one page per catalogue language serves every guest of it, so a page cache keeps at most five).
 */
export function menuLocale(cafeLanguage: string | null, acceptLanguage: string | undefined): PageLocale {
  if (cafeLanguage) return pageLocale(cafeLanguage, undefined);
  const { language } = pageLocale(null, acceptLanguage);
  return { tag: language, language, negotiated: true };
}

const SPICE: Record<SpiceLevel, { key: MenuTextKey; peppers: number }> = {
  none: { key: 'spiceNone', peppers: 0 },
  mild: { key: 'spiceMild', peppers: 1 },
  medium: { key: 'spiceMedium', peppers: 2 },
  hot: { key: 'spiceHot', peppers: 3 },
  extra_hot: { key: 'spiceExtraHot', peppers: 4 },
};

/** `one`'s text for 1 (it says "1" itself), else `other`'s with the count: every catalogue language says "1 dish", "0 dishes", "2 dishes". */
function counted(locale: PageLocale, count: number, one: MenuTextKey, other: MenuTextKey): string {
  return menuText(locale, count === 1 ? one : other, { count });
}

/** A stored "HH:MM" as the locale writes a time: "09:00" in de, fr, pt and en-GB, "9:00 AM" in en. */
function timeText(locale: PageLocale, hhmm: string): string {
  const [hours, minutes] = hhmm.split(':').map(Number) as [number, number];
  const numeric = dateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });
  // A 24-hour clock reads with two digits ("09:00"), as timetables print it; a 12-hour one without ("9:00 AM").
  const h24 = numeric.resolvedOptions().hourCycle === 'h23' || numeric.resolvedOptions().hourCycle === 'h24';
  const format = h24 ? dateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' }) : numeric;
  return format.format(Date.UTC(2023, 0, 1, hours, minutes));
}

const WEEKDAY_NUMBER: Record<(typeof WEEKDAYS)[number], number> = { sunday: 0, monday: 1, tuesday: 2, wednesday: 3, thursday: 4, friday: 5, saturday: 6 };

/** "Open now · closes at 11:00 PM", "Geschlossen · öffnet morgen um 08:00": the state in the page's language. */
export function openStateText(locale: PageLocale, state: OpenState): string {
  if (state.open) return state.closesAt ? menuText(locale, 'openUntil', { time: timeText(locale, state.closesAt) }) : menuText(locale, 'openNow');
  const next = state.opensAt;
  if (!next) return menuText(locale, 'closed');
  const time = timeText(locale, next.time);
  if (next.inDays === 0) return menuText(locale, 'closedOpensToday', { time });
  if (next.inDays === 1) return menuText(locale, 'closedOpensTomorrow', { time });
  return menuText(locale, 'closedOpensOn', { day: weekdayName(locale, WEEKDAY_NUMBER[next.day]), time });
}

/** An allergen's filter key: an EU allergen by one key whatever its spelling ("egg", "Eggs"), any other by its own. */
function allergenKey(allergen: string): string {
  const known = ALLERGEN_TEXT[filterKey(allergen)];
  return known ? filterKey(menuText.english[known]) : filterKey(allergen);
}

/** An allergen as guests read it: an EU allergen's name in the page's language, any other as written, with a capital. */
function allergenLabel(locale: PageLocale, allergen: string): string {
  const known = ALLERGEN_TEXT[filterKey(allergen)];
  if (known) return menuText(locale, known);
  const text = allergen.trim();
  return text.charAt(0).toLocaleUpperCase(locale.tag) + text.slice(1);
}

const dietLabel = (locale: PageLocale, diet: string) => menuText(locale, DIET_TEXT[diet]!);

// ---------------------------------------------------------------------------------------------
// Colors: an owner's primary/secondary color may be any hex; text on or in it must stay readable.

/** The theme's palette with the cafe's colors, each text color checked against WCAG AA (4.5:1). */
function paletteOf(theme: MenuTheme, menu: PublishedMenu) {
  const p = theme.palette;
  const primary = isHexColor(menu.primaryColor) ? menu.primaryColor : p.primary;
  const secondary = isHexColor(menu.secondaryColor) ? menu.secondaryColor : p.secondary;
  const readable = (color: string, on: string, fallback: string) => (contrastRatio(color, on) >= AA_CONTRAST ? color : fallback);
  const onColor = (color: string) => textColorOn(color, { black: '#000000', white: '#ffffff' });
  return {
    ...p,
    primary,
    secondary,
    // Prices and headings in the primary color, unless it is too pale (or dark) on the background.
    primaryText: readable(primary, p.surface, p.text),
    onPrimary: onColor(primary),
    onSecondary: onColor(secondary),
    dark: relativeLuminance(p.background) < 0.2,
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

// The first screen of a 390×844 phone shows dishes in every theme: a short cover, a small logo
// beside the name, the description clamped to two lines (whole under "About us"), the open state
// and the contact links on one line, then the sections' tabs and the search. The dish photo sheet
// is a `:target` overlay, so it opens and closes (by its link, or back) without the script.
const MENU_STYLES = `
body{font-family:var(--body-font)}
main{padding:0 0 3rem;max-width:46rem}
h1,h2,h3,h4{font-family:var(--head-font)}
.hero{position:relative;margin:0}
.cover{display:block;width:100%;height:6rem;object-fit:cover}
.hero:not(:has(.cover)){border-top:.4rem solid var(--primary)}
.intro{padding:0 1.25rem}
.brand{display:flex;align-items:center;gap:.75rem;padding-top:.75rem}
.cover+.intro .brand{padding-top:.5rem}
.cover+.intro .logo{margin-top:-1.75rem}
.logo{flex:none;display:block;width:3.5rem;height:3.5rem;border-radius:50%;object-fit:cover;border:3px solid var(--bg);background:var(--card);position:relative}
.intro h1{margin:0;font-size:1.4rem;line-height:1.2}
.subtitle{margin:.1rem 0 0;color:var(--muted);font-size:.9rem}
.intro>.text{margin:.4rem 0 0;font-size:.95rem;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden}
.facts{display:flex;flex-wrap:wrap;align-items:center;gap:0 1rem;margin:.15rem 0 0;padding:0;list-style:none;font-size:.95rem}
.status{display:inline-flex;align-items:center;gap:.4rem;font-weight:600}
.status::before{content:"";width:.6rem;height:.6rem;border-radius:50%;background:#b3261e}
.status.open::before{background:#1e8e3e}
.facts a{display:inline-flex;align-items:center;min-height:2.75rem;color:var(--accent);font-weight:600}
.tabs{position:sticky;top:0;z-index:2;display:flex;gap:.4rem;overflow-x:auto;padding:.4rem 1.25rem;margin-top:.6rem;background:var(--bg);border-bottom:1px solid var(--line);scrollbar-width:none}
.tabs a{flex:none;display:inline-flex;align-items:center;min-height:2.75rem;padding:.3rem .9rem;border-radius:999px;border:1px solid var(--secondary);color:var(--fg);text-decoration:none;white-space:nowrap;font-weight:600}
.tabs a:hover,.tabs a:focus-visible{background:var(--primary);color:var(--on-accent)}
.filters{display:flex;flex-wrap:wrap;gap:.5rem;align-items:flex-start;padding:.6rem 1.25rem 0}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.filters input[type=search]{flex:1 1 10rem;min-width:0;min-height:2.75rem;padding:.5rem .9rem;border:1px solid var(--line);border-radius:.75rem;background:var(--card);color:var(--fg);font:inherit}
.filters details{flex:none}
.filters details[open]{flex-basis:100%;order:1}
.filters summary{display:inline-flex;align-items:center;min-height:2.75rem;padding:.4rem 1rem;border:1px solid var(--line);border-radius:999px;background:var(--card);cursor:pointer;font-weight:600}
.filters summary.on,.filters details[open] summary{background:var(--primary);color:var(--on-accent);border-color:var(--primary)}
.filters fieldset{border:0;padding:0;margin:.5rem 0}
.filters legend{font-size:.9rem;color:var(--muted);padding:0;margin:0 0 .25rem}
.filters button{min-height:2.75rem;padding:.4rem 1rem;border:1px solid var(--line);border-radius:999px;background:var(--card);color:var(--fg);font:inherit;cursor:pointer}
.chips{display:flex;flex-wrap:wrap;gap:.4rem;margin:0;padding:0;list-style:none}
.chip{position:relative;display:block}
.chip input{position:absolute;opacity:0;width:100%;height:100%;margin:0;cursor:pointer}
.chip span{display:inline-flex;align-items:center;min-height:2.75rem;padding:.4rem .9rem;border-radius:999px;border:1px solid var(--line);background:var(--card)}
.chip input:checked+span{background:var(--primary);color:var(--on-accent);border-color:var(--primary)}
.chip input:focus-visible+span{outline:3px solid var(--accent);outline-offset:2px}
.found{flex-basis:100%;order:2;margin:0;color:var(--muted);font-size:.95rem}
.grp{padding:0 1.25rem;scroll-margin-top:4rem}
.grp>h2{font-size:1.4rem;margin:1rem 0 .25rem;color:var(--accent)}
.section-img{display:block;width:100%;height:5.5rem;object-fit:cover;border-radius:.75rem;margin:.25rem 0 .5rem;background:var(--card)}
.cat .section-img{height:4rem}
.cat>h3{font-size:1.15rem;margin:.75rem 0 .25rem;padding-bottom:.25rem;border-bottom:2px solid var(--secondary)}
.cat>p{margin:0 0 .5rem;color:var(--muted)}
.items{list-style:none;margin:0;padding:0}
.item{display:flex;gap:.9rem;padding:.9rem 0;border-bottom:1px solid var(--line)}
.zoom{flex:none;display:block;border-radius:.75rem}
.item img{display:block;width:5.5rem;height:5.5rem;border-radius:.75rem;object-fit:cover;background:var(--card)}
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
.sheet{display:none}
.sheet:target{display:flex;flex-direction:column;justify-content:center;position:fixed;inset:0;z-index:10;padding:1rem;background:rgba(0,0,0,.88);color:#fff;overflow:auto}
.sheet img{display:block;width:100%;max-height:70vh;object-fit:contain;border-radius:.75rem}
.sheet p{margin:.75rem 0 0;overflow-wrap:anywhere}
.sheet .close{align-self:flex-end;display:inline-flex;align-items:center;min-height:2.75rem;padding:.4rem 1rem;margin:0 0 .5rem;border-radius:999px;background:#fff;color:#000;font-weight:600;text-decoration:none}
.none{padding:1rem 1.25rem;color:var(--muted)}
.visit{margin:2rem 1.25rem 0;padding:1rem 1.25rem;border-radius:1rem;background:var(--card);border:1px solid var(--line)}
.visit h2{margin:0 0 .75rem}
.visit h3{font-size:1rem;margin:1rem 0 .25rem}
.hours{border-collapse:collapse;margin:0}
.hours th,.hours td{padding:.3rem 0;text-align:left;vertical-align:top}
.hours th{font-weight:400;padding-right:1.25rem}.hours .range{white-space:nowrap}
.hours .today>*{font-weight:700}
.visit a{display:inline-flex;align-items:center;gap:.4rem;min-height:2.75rem}
.social{display:flex;flex-wrap:wrap;gap:.5rem 1rem;list-style:none;margin:0;padding:0}
[hidden]{display:none!important}
`.replace(/\n/g, '');

/** How wide a dish photo is shown in each layout, for the browser's choice of copy (main is at most 46rem, groups pad 1.25rem). */
const LAYOUT_IMAGE_SIZES: Record<MenuTheme['layout'], string | null> = {
  // 88 px: the smallest copy (480 px) is more than twice that.
  list: null,
  cards: '(min-width: 46rem) 43.5rem, calc(100vw - 2.5rem)',
  grid: '(min-width: 46rem) 14rem, calc(50vw - 1.625rem)',
};

/** A group's or category's banner, and a photo in the sheet: as wide as the column. */
const COLUMN_SIZES = '(min-width: 46rem) 43.5rem, calc(100vw - 2.5rem)';

const LAYOUT_STYLES: Record<MenuTheme['layout'], string> = {
  list: '',
  cards:
    '.item{flex-direction:column;gap:0;padding:0;margin:0 0 1rem;border:1px solid var(--line);border-radius:1rem;background:var(--card);overflow:hidden}' +
    '.zoom{border-radius:0}.item img{width:100%;height:11rem;border-radius:0}.item .body{padding:.9rem 1rem}',
  grid:
    '.items{display:grid;grid-template-columns:repeat(auto-fill,minmax(10rem,1fr));gap:.75rem}' +
    '.item{flex-direction:column;gap:0;padding:0;border:1px solid var(--line);border-radius:1rem;background:var(--card);overflow:hidden}' +
    '.zoom{border-radius:0}.item img{width:100%;height:8rem;border-radius:0}.item .body{padding:.7rem .8rem}.item .top{flex-direction:column;gap:.15rem}',
};

// ---------------------------------------------------------------------------------------------
// The script: hides what does not match, keeps the filter in the URL, counts the filters on in
// the Filters control, and closes a photo sheet on Escape. Every rule it applies is in the page:
// an item's searchable words are its name, description and ingredients (.s), its allergen and
// dietary keys are in data-a and data-d (separated by "|"), and the texts it writes are the
// form's data attributes in the page's language.

const FILTER_SCRIPT = new PageScript(`(()=>{const f=document.getElementById('mf');if(!f)return;f.hidden=false;
const items=[...document.querySelectorAll('.item')],cats=[...document.querySelectorAll('.cat')],grps=[...document.querySelectorAll('.grp')],tabs=[...document.querySelectorAll('.tabs a')];
const found=document.getElementById('mf-found'),none=document.getElementById('mf-none'),sum=f.querySelector('summary'),d=f.dataset;
const key=s=>s.normalize('NFD').replace(/\\p{M}/gu,'').toLowerCase().trim();
const words=new Map(items.map(el=>[el,key([...el.querySelectorAll('.s')].map(s=>s.textContent).join(' '))]));
const checked=n=>[...f.querySelectorAll('input[name='+n+']:checked')].map(c=>c.value);
const say=(n,one,other)=>(n===1?one:other).replace('{count}',n);
function read(){const p=new URLSearchParams(location.search);f.q.value=p.get('q')||'';for(const c of f.querySelectorAll('input[type=checkbox]'))c.checked=p.getAll(c.name).includes(c.value)}
function apply(write){const q=key(f.q.value),avoid=checked('avoid'),diet=checked('diet');let shown=0;
for(const el of items){const a=el.dataset.a?el.dataset.a.split('|'):[],t=el.dataset.d?el.dataset.d.split('|'):[];
const ok=(!q||words.get(el).includes(q))&&!avoid.some(x=>a.includes(x))&&diet.every(x=>t.includes(x));el.hidden=!ok;if(ok)shown++}
for(const c of cats)c.hidden=!c.querySelector('.item:not([hidden])');
for(const g of grps)g.hidden=!g.querySelector('.cat:not([hidden])');
for(const t of tabs){const g=document.getElementById(t.hash.slice(1));t.hidden=!!g&&g.hidden}
const on=avoid.length+diet.length;if(sum){sum.textContent=on?d.on.replace('{count}',on):d.off;sum.classList.toggle('on',on>0)}
found.hidden=!(q||on);found.textContent=say(shown,d.one,d.other);none.hidden=shown>0;
if(write){const p=new URLSearchParams();if(f.q.value.trim())p.set('q',f.q.value.trim());for(const v of diet)p.append('diet',v);for(const v of avoid)p.append('avoid',v);
const s=p.toString();history.replaceState(null,'',(s?'?'+s:location.pathname)+location.hash)}}
f.addEventListener('input',()=>apply(true));f.addEventListener('submit',e=>{e.preventDefault();apply(true)});f.addEventListener('reset',()=>setTimeout(()=>apply(true)));
addEventListener('keydown',e=>{if(e.key==='Escape'&&/^#d\\d+$/.test(location.hash)){const t=document.querySelector(location.hash+' .close');if(t)location.replace(t.href)}});
read();apply(false)})();`);

/** The menu page's policy when `frameAncestor` (the console's origin) shows it as a preview in a frame. */
export const framedMenuPolicy = (frameAncestor: string) => contentSecurityPolicy({ scriptHashes: [FILTER_SCRIPT.hash], frameAncestor });

// ---------------------------------------------------------------------------------------------
// Rendering

/** The cafe's clock at `now`, and the key of every page rendered at a moment with the same clock. */
export function menuClock(menu: Pick<PublishedMenu, 'operatingHours' | 'timezone'>, now: Date): CafeClock & { key: string } {
  const clock = cafeClock(menu.operatingHours, menu.timezone, now);
  return { ...clock, key: `${clock.today}|${clock.state ? JSON.stringify(clock.state) : ''}` };
}

interface FilterWords {
  /** key → label (in the page's language) and how many visible items carry it. */
  allergens: Map<string, { label: string; count: number }>;
  diets: Map<string, { label: string; count: number }>;
}

function collectFilterWords(groups: PublishedMenu['groups'], locale: PageLocale): FilterWords {
  const words: FilterWords = { allergens: new Map(), diets: new Map() };
  const count = (map: FilterWords['allergens'], key: string, label: () => string) => {
    const entry = map.get(key);
    if (entry) entry.count++;
    else map.set(key, { label: label(), count: 1 });
  };
  for (const group of groups) {
    for (const category of group.categories) {
      for (const item of category.items) {
        for (const allergen of new Set(item.allergens.map(allergenKey))) {
          if (allergen) count(words.allergens, allergen, () => allergenLabel(locale, item.allergens.find((a) => allergenKey(a) === allergen)!));
        }
        for (const diet of new Set(item.tags.map(dietOf))) if (diet) count(words.diets, diet, () => dietLabel(locale, diet));
      }
    }
  }
  const sorted = (map: FilterWords['allergens']) => new Map([...map].sort((a, b) => a[1].label.localeCompare(b[1].label, locale.tag)));
  return { allergens: sorted(words.allergens), diets: sorted(words.diets) };
}

interface ItemContext {
  locale: PageLocale;
  urls: MenuPageUrls;
  variants: PublishedMenu['imageVariants'];
  showDiets: boolean;
  /** How wide the theme shows a dish photo (`sizes`); null: a thumbnail. */
  imageSizes: string | null;
  /** Numbers the items, for their photo sheets' fragments. */
  next: () => number;
}

const sourcesOf = (id: string, ctx: Pick<ItemContext, 'urls' | 'variants'>): ImageSources => imageSources({ id, variants: ctx.variants[id] }, ctx.urls.file);

/** The item, and its photo's sheet (put after its list: a sheet is no list item). */
function renderItem(item: PublishedItem, ctx: ItemContext): { item: SafeHtml; sheet: HtmlValue } {
  const { locale } = ctx;
  const n = ctx.next();
  const allergenKeys = [...new Set(item.allergens.map(allergenKey).filter(Boolean))];
  const diets = [...new Set(item.tags.map(dietOf).filter((d): d is string => d !== null))];
  // Dietary tags are badges when the cafe shows its dietary section; every other tag is a plain tag.
  const plainTags = ctx.showDiets ? item.tags.filter((t) => dietOf(t) === null) : item.tags;
  const spice = SPICE[item.spiceLevel] ?? SPICE.none;
  const spiceLabel = menuText(locale, spice.key);
  const badges: HtmlValue[] = [
    item.isFeatured && html`<span class="badge">${menuText(locale, 'featured')}</span>`,
    item.isNew && html`<span class="badge">${menuText(locale, 'new')}</span>`,
    item.isRecommended && html`<span class="badge">${menuText(locale, 'recommended')}</span>`,
    ctx.showDiets && diets.map((d) => html`<span class="badge diet-tag">${dietLabel(locale, d)}</span>`),
    spice.peppers > 0 &&
      html`<span class="spice" role="img" aria-label="${menuText(locale, 'spiceLevel', { level: spiceLabel })}" title="${spiceLabel}">${'🌶️'.repeat(spice.peppers)}</span>`,
  ];
  const hasBadges = badges.some((b) => b && (!Array.isArray(b) || b.length > 0));
  const price = formatPrice(locale, Number(item.price), item.currency);
  const sources = item.image ? sourcesOf(item.image, ctx) : null;
  const photo =
    sources &&
    html`<a class="zoom" id="i${n}" href="#d${n}" aria-label="${menuText(locale, 'photoOf', { name: item.name })}">${
      ctx.imageSizes ? pictureTag(sources, { alt: item.name, sizes: ctx.imageSizes, lazy: true }) : thumbnailTag(sources, { alt: item.name, lazy: true, width: 88, height: 88 })
    }</a>`;
  const sheet =
    sources &&
    html`<div class="sheet" id="d${n}" role="dialog" aria-label="${item.name}"><a class="close" href="#i${n}">${menuText(locale, 'closePhoto')}</a>${pictureTag(sources, {
      alt: item.name,
      sizes: COLUMN_SIZES,
      lazy: true,
    })}<p><b>${item.name}</b> · ${price}</p>${item.description && html`<p class="text">${item.description}</p>`}</div>`;
  return {
    item: html`<li class="item" data-a="${allergenKeys.join('|')}" data-d="${diets.join('|')}">${photo}<div class="body"><div class="top"><h4 class="s">${item.name}</h4><span class="price">${price}</span></div>${
      hasBadges && html`<p class="badges">${badges}</p>`
    }${item.description && html`<p class="desc text s">${item.description}</p>`}${
      item.ingredients.length > 0 && html`<p class="meta"><b>${menuText(locale, 'ingredients')}</b> <span class="s">${item.ingredients.join(', ')}</span></p>`
    }${item.allergens.length > 0 && html`<p class="meta"><b>${menuText(locale, 'allergens')}</b> ${item.allergens.join(', ')}</p>`}${
      plainTags.length > 0 && html`<p class="badges">${plainTags.map((t) => html`<span class="tag">${t}</span>`)}</p>`
    }</div></li>`,
    sheet,
  };
}

/** A group's or category's image, as wide as the column, loaded when it nears the screen. */
function sectionImage(id: string | null, ctx: ItemContext): HtmlValue {
  return id && pictureTag(sourcesOf(id, ctx), { className: 'section-img', alt: '', sizes: COLUMN_SIZES, lazy: true });
}

function renderCategory(category: PublishedCategory, ctx: ItemContext): SafeHtml {
  const rendered = category.items.map((item) => renderItem(item, ctx));
  return html`<section class="cat"><h3>${category.name}</h3>${sectionImage(category.image, ctx)}${category.description && html`<p class="text">${category.description}</p>`}<ul class="items">${rendered.map(
    (r) => r.item,
  )}</ul>${rendered.map((r) => r.sheet)}</section>`;
}

function renderFilters(words: FilterWords, locale: PageLocale): SafeHtml {
  const chips = (name: 'diet' | 'avoid', map: FilterWords['allergens']) =>
    html`<ul class="chips">${[...map].map(
      ([key, { label, count }]) =>
        html`<li><label class="chip"><input type="checkbox" name="${name}" value="${key}" id="${name}-${key}"><span>${label}${name === 'diet' ? ` (${count})` : ''}</span></label></li>`,
    )}</ul>`;
  const hasChoices = words.diets.size > 0 || words.allergens.size > 0;
  // Hidden until the script runs: without it, the form could not filter anything.
  return html`<form id="mf" class="filters" role="search" hidden data-off="${menuText(locale, 'filters')}" data-on="${menuText(locale, 'filtersOn')}" data-one="${menuText(
    locale,
    'matchesOne',
  )}" data-other="${menuText(locale, 'matchesOther')}">
<label for="mf-q" class="sr">${menuText(locale, 'searchLabel')}</label>
<input type="search" id="mf-q" name="q" placeholder="${menuText(locale, 'searchPlaceholder')}" autocomplete="off" enterkeyhint="search">
${hasChoices && html`<details><summary>${menuText(locale, 'filters')}</summary>
${words.diets.size > 0 && html`<fieldset><legend>${menuText(locale, 'onlyShow')}</legend>${chips('diet', words.diets)}</fieldset>`}
${words.allergens.size > 0 && html`<fieldset><legend>${menuText(locale, 'hideWith')}</legend>${chips('avoid', words.allergens)}</fieldset>`}
<button type="reset">${menuText(locale, 'clearFilters')}</button>
</details>`}
<p id="mf-found" class="found" role="status" hidden></p>
</form>`;
}

function renderHours(hours: readonly DayHours[], today: string, locale: PageLocale): HtmlValue {
  if (!hours.some((h) => h.enabled && h.ranges.length > 0)) return null;
  const rows = WEEKDAYS.map((day) => {
    const entry = hours.find((h) => h.day === day);
    // A range never breaks inside ("7:00" and "PM" on two lines); a day's ranges break between them.
    const open =
      entry?.enabled && entry.ranges.length > 0
        ? entry.ranges.map(
            (r, i) => html`${i > 0 ? ', ' : ''}<span class="range">${r.from === '00:00' && r.to === '24:00' ? menuText(locale, 'allDay') : `${timeText(locale, r.from)} – ${timeText(locale, r.to)}`}</span>`,
          )
        : menuText(locale, 'closedAllDay');
    return html`<tr${day === today ? html` class="today" aria-current="date"` : ''}><th scope="row">${weekdayName(locale, WEEKDAY_NUMBER[day])}</th><td>${open}</td></tr>`;
  });
  return html`<h3 id="hours-h">${menuText(locale, 'openingHours')}</h3><table class="hours" aria-labelledby="hours-h"><tbody>${rows}</tbody></table>`;
}

function mapsUrl(address: string): string {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(address)}`;
}

function telUrl(phone: string): string | undefined {
  const digits = phone.replace(/[^\d+]/g, '');
  return /^\+?\d{3,}$/.test(digits) ? `tel:${digits}` : undefined;
}

function renderVisit(menu: PublishedMenu, clock: CafeClock, locale: PageLocale): SafeHtml {
  const t = (key: MenuTextKey) => menuText(locale, key);
  const website = checkedUrl(menu.website, ['http', 'https']);
  const tel = menu.phone ? telUrl(menu.phone) : undefined;
  const email = menu.email && /^[^\s@<>]+@[^\s@<>]+$/.test(menu.email) ? menu.email : undefined;
  const socials = menu.socialLinks.map((s) => ({ platform: s.platform, url: checkedUrl(s.url, ['http', 'https']) })).filter((s) => s.url);
  return html`<section class="visit" aria-labelledby="visit-h"><h2 id="visit-h">${t('visitUs')}</h2>
${menu.description && html`<h3>${t('about')}</h3><p class="text">${menu.description}</p>`}
${renderHours(menu.operatingHours, clock.today, locale)}
${menu.address && html`<h3>${t('address')}</h3><p class="text">${menu.address}</p><p><a href="${mapsUrl(menu.address)}">${t('openInMaps')}</a></p>`}
${(menu.phone || menu.email || website) && html`<h3>${t('contact')}</h3><p>${[
    menu.phone && (tel ? html`<a href="${tel}">${menu.phone}</a><br>` : html`${menu.phone}<br>`),
    menu.email && (email ? html`<a href="mailto:${email}">${menu.email}</a><br>` : html`${menu.email}<br>`),
    website && html`<a href="${website}">${new URL(website).host}</a>`,
  ]}</p>`}
${socials.length > 0 && html`<h3>${t('followUs')}</h3><ul class="social">${socials.map((s) => html`<li><a href="${s.url!}">${icon(socialPlatform(s.platform, s.url)?.icon ?? 'link')}${s.platform}</a></li>`)}</ul>`}
${menu.facilities.length > 0 && html`<h3>${t('facilities')}</h3><p>${menu.facilities.join(' · ')}</p>`}
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
  /** The page's language and formats (the cafe's language, else the guest's; default English). */
  locale?: PageLocale;
}

/** The live menu page at `now` (whose clock decides "open now" and today's hours). */
export function renderMenuPage(menu: PublishedMenu, { now, urls, baseUrl, maxItemBytes = MENU_ITEM_BYTES_MAX, locale = ENGLISH }: MenuPageOptions): Page {
  const t = (key: MenuTextKey, params?: Record<string, string | number>) => menuText(locale, key, params);
  const theme = MENU_THEMES[menu.theme];
  const clock = menuClock(menu, now);
  const title = menu.title?.trim() || menu.name;
  const { groups, cut } = withinBudget(menu.groups, maxItemBytes);
  const words = collectFilterWords(groups, locale);
  const named = groups.filter((g) => g.name !== null);
  const website = checkedUrl(menu.website, ['http', 'https']);
  const tel = menu.phone ? telUrl(menu.phone) : undefined;
  let items = 0;
  const ctx: ItemContext = { locale, urls, variants: menu.imageVariants, showDiets: menu.showDietarySection, imageSizes: LAYOUT_IMAGE_SIZES[theme.layout], next: () => ++items };
  // The open state and the ways to reach the cafe share one line: the first screen is for dishes.
  const facts = [
    clock.state && html`<li class="status${clock.state.open ? ' open' : ''}">${openStateText(locale, clock.state)}</li>`,
    tel && html`<li><a href="${tel}">${t('call')}</a></li>`,
    menu.address && html`<li><a href="${mapsUrl(menu.address)}">${t('directions')}</a></li>`,
    website && html`<li><a href="${website}">${t('website')}</a></li>`,
  ].filter(Boolean);
  return htmlPage({
    title: t('pageTitle', { name: title }),
    locale,
    styles: themeStyles(theme, menu),
    script: FILTER_SCRIPT,
    content: html`<header class="hero">${
      menu.cover && pictureTag(sourcesOf(menu.cover, ctx), { className: 'cover', alt: '', sizes: '(min-width: 46rem) 46rem, 100vw', priority: true })
    }<div class="intro"><div class="brand">${
      menu.logo && thumbnailTag(sourcesOf(menu.logo, ctx), { className: 'logo', alt: t('logoAlt', { name: menu.name }), width: 56, height: 56 })
    }<div><h1>${title}</h1>${menu.subtitle && html`<p class="subtitle">${menu.subtitle}</p>`}</div></div>${
      menu.description && html`<p class="text">${menu.description}</p>`
    }${facts.length > 0 && html`<ul class="facts">${facts}</ul>`}</div></header>
${named.length > 1 && html`<nav class="tabs" aria-label="${t('sections')}">${named.map((g) => html`<a href="#g${groups.indexOf(g) + 1}">${g.name!}</a>`)}</nav>`}
${renderFilters(words, locale)}
${groups.length === 0 && html`<p class="none">${t('preparing')}</p>`}
${groups.map(
  (g, i) =>
    html`<section class="grp" id="g${i + 1}"${g.name ? html` aria-labelledby="g${i + 1}-h"` : ''}>${g.name && html`<h2 id="g${i + 1}-h">${g.name}</h2>`}${sectionImage(g.image, ctx)}${g.categories.map((c) =>
      renderCategory(c, ctx),
    )}</section>`,
)}
${cut > 0 && html`<p class="none">${counted(locale, cut, 'cutOne', 'cutOther')}</p>`}
<p id="mf-none" class="none" role="status" hidden>${t('noMatches')}</p>
${renderVisit(menu, clock, locale)}
${renderJsonLd(menu, urls, baseUrl)}`,
  });
}

/** A menu link that serves no cafe (made with POST /links rather than POST /cafes): its name and a note. */
export function renderMenuPlaceholderPage(data: LinkDataByType['menu'], locale: PageLocale): PageContent {
  const title = data.name?.trim() ? data.name : 'Menu';
  return {
    title,
    content: html`<h1>${title}</h1><p class="card">${menuText(locale, 'placeholder')}</p>`,
  };
}
