/**
 * Hosted pages audited as a phone opens them: for each link type (one link each, with real-sized
 * photos and a page style brand: logo, cover, accent colours), a cafe menu of 40 items with
 * photos in several themes, and the status pages (password form, paused, expired, branded):
 * Lighthouse's four category scores with its mobile defaults (Moto G Power screen, simulated slow
 * 4G and 4× CPU slowdown), and axe-core's violations of WCAG 2.2 A/AA and its best practices at
 * 390×844, the menu with its filter panel opened.
 *
 * The pages are being redesigned as this runs against them, so nothing here depends on their
 * markup beyond a control named like "Filters": a page that fails to set up or audit gets its
 * error in its row, and the others are still measured. One page at a time (Lighthouse's timings
 * would not survive sharing two cores with a second page).
 */
import { createRequire } from 'node:module';
import lighthouse, { type Flags, type Result } from 'lighthouse';
import { chromium, type Browser } from 'playwright-core';
import sharp from 'sharp';
import { MENU_THEME_KEYS } from '#domain/cafes/themes.js';
import { exampleData } from '../test/support/link-examples.js';
import { pdfBytes } from '../test/support/fixtures.js';
import { photo } from './pages.js';
import { freePort, printTable, startBenchStack } from './support.js';

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true } as const;
const TYPES = [
  'image',
  'gallery',
  'product',
  'event',
  'pdf',
  'multi-pdf',
  'vcard',
  'wifi',
  'location',
  'email',
  'sms',
  'landing',
  'multi-links',
] as const;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
/** Lighthouse's audits that lose a category's points, per category, in the printed reading. */
const TOP_AUDITS = 3;
const AXE_SCRIPT = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** A page to audit: how to make it (on the stack), or the error that stopped that. */
interface Target {
  label: string;
  url?: string;
  /** Made anew before the audit (a menu's theme is set just before its audit). */
  prepare?: () => Promise<void>;
  setupError?: string;
}

interface FailingAudit {
  category: string;
  id: string;
  /** The audit's weight in its category's score (0: shown by Lighthouse, costs no points). */
  weight: number;
  score: number;
  /** What Lighthouse says in brief: the displayed value, or the first elements it names. */
  where: string;
}

interface AuditRow {
  label: string;
  scores?: Record<(typeof CATEGORIES)[number], number | null>;
  failing?: FailingAudit[];
  /** Lighthouse's measure of this machine's speed at the time (a 2-core box shared with other work). */
  benchmarkIndex?: number;
  status?: number;
  axe?: Array<{ id: string; impact: string | null; nodes: number; target: string }>;
  note: string[];
}

/**
 * Where an audit finds its fault, in brief: its value or explanation and the first elements (a
 * selector, snippet, URL or robots.txt line) its details name; for the main-thread metrics, the
 * longest tasks and the script each ran.
 */
function whereOf(lhr: Result, audit: Result['audits'][string]): string {
  const source = ['total-blocking-time', 'max-potential-fid', 'interactive'].includes(audit.id) ? lhr.audits['long-tasks'] : audit;
  const details = source?.details as { items?: Array<Record<string, unknown>> } | undefined;
  const names: string[] = [];
  for (const item of details?.items ?? []) {
    const node = (item.node ?? (item.subItems as { items?: Array<Record<string, unknown>> } | undefined)?.items?.[0]?.node) as
      { selector?: string; snippet?: string } | undefined;
    const url = typeof item.url === 'string' ? item.url.replace(/^https?:\/\/[^/]+/, '') || '/' : '';
    let name = node?.selector || node?.snippet || url || (typeof item.message === 'string' ? `${item.line ?? ''} ${item.message}` : '');
    if (source !== audit && typeof item.duration === 'number') name = `task ${Math.round(item.duration)} ms in ${url || 'the page'}`;
    if (name && !names.includes(name)) names.push(name.length > 90 ? `${name.slice(0, 87)}…` : name);
    if (names.length === 2) break;
  }
  return [audit.displayValue, audit.explanation?.slice(0, 160), ...names].filter(Boolean).join('; ');
}

/**
 * The audits that cost each category points, worst first: in a category, the weighted audits
 * below a full score by the points they lose; for performance also the diagnostics Lighthouse
 * flags (score below 0.9, unweighted), after the metrics.
 */
function failingAudits(lhr: Result): FailingAudit[] {
  const failing: FailingAudit[] = [];
  for (const category of CATEGORIES) {
    const refs = lhr.categories[category]?.auditRefs ?? [];
    const lost = refs
      .map((ref) => ({ ref, audit: lhr.audits[ref.id]! }))
      .filter(({ audit }) => audit.score !== null && audit.score < (audit.scoreDisplayMode === 'binary' ? 1 : 0.9))
      .filter(
        ({ audit }) =>
          audit.scoreDisplayMode !== 'informative' && audit.scoreDisplayMode !== 'notApplicable' && audit.scoreDisplayMode !== 'manual',
      )
      .sort((a, b) => b.ref.weight * (1 - b.audit.score!) - a.ref.weight * (1 - a.audit.score!) || a.audit.score! - b.audit.score!);
    for (const { ref, audit } of lost.slice(0, TOP_AUDITS))
      failing.push({ category, id: audit.id, weight: ref.weight, score: audit.score!, where: whereOf(lhr, audit) });
  }
  return failing;
}

async function runLighthouse(url: string, port: number): Promise<Result> {
  // Mobile defaults (formFactor, screen, simulated throttling); status pages answer 410 or 401 on
  // purpose, which Lighthouse would otherwise refuse to audit.
  const flags: Flags = { port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES], ignoreStatusCode: true };
  const result = await lighthouse(url, flags);
  if (!result) throw new Error('Lighthouse answered nothing');
  if (result.lhr.runtimeError) throw new Error(`Lighthouse: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`);
  return result.lhr;
}

/**
 * axe-core's violations at 390×844, after opening a menu's filter panel when the page has one (a
 * <summary> or button named like "Filters" or "Dietary options"). bypassCSP: the pages' policy
 * forbids any script but their own, and axe is injected.
 */
async function runAxe(browser: Browser, url: string, note: string[]): Promise<NonNullable<AuditRow['axe']>> {
  const context = await browser.newContext({ ...PHONE, bypassCSP: true });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'networkidle' });
    const control = page
      .locator('summary, button, [role="button"]')
      .filter({ hasText: /filters?\b|dietary options/i })
      .first();
    if ((await control.count()) > 0 && (await control.isVisible())) {
      await control.click();
      await page.waitForTimeout(200);
      note.push(`axe with "${((await control.textContent()) ?? '').trim().slice(0, 30)}" opened`);
    }
    await page.addScriptTag({ path: AXE_SCRIPT });
    return await page.evaluate(async (tags) => {
      const axe = (
        window as typeof window & {
          axe: {
            run(
              context: Document,
              options: unknown,
            ): Promise<{ violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown[] }> }> }>;
          };
        }
      ).axe;
      const result = await axe.run(document, { runOnly: { type: 'tag', values: tags } });
      return result.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        nodes: v.nodes.length,
        target: String(v.nodes[0]?.target.join(' ') ?? ''),
      }));
    }, AXE_TAGS);
  } finally {
    await context.close();
  }
}

/** A logo like an owner's: a round badge, as a 512×512 PNG. */
function logo(): Promise<Buffer> {
  return sharp(
    Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512"><circle cx="256" cy="256" r="250" fill="#8a4b2a"/><circle cx="256" cy="256" r="200" fill="none" stroke="#f0b27a" stroke-width="16"/><path d="M170 300h150a60 60 0 0 0 0-120H170z" fill="#fbf7f0"/><rect x="190" y="320" width="110" height="20" rx="10" fill="#fbf7f0"/></svg>',
    ),
  )
    .png()
    .toBuffer();
}

const DISHES: Array<{ group: string; category: string; names: string[]; price: number }> = [
  {
    group: 'Drinks',
    category: 'Coffee',
    names: ['Espresso', 'Double espresso', 'Cortado', 'Flat white', 'Cappuccino', 'Latte', 'Mocha', 'Cold brew'],
    price: 2.2,
  },
  {
    group: 'Drinks',
    category: 'Tea and more',
    names: ['Green tea', 'Earl grey', 'Chai latte', 'Hot chocolate', 'Fresh orange juice', 'Lemonade'],
    price: 2.8,
  },
  {
    group: 'Breakfast',
    category: 'Morning plates',
    names: ['Avocado toast', 'Eggs Benedict', 'Shakshuka', 'Granola bowl', 'Pancakes', 'Full breakfast', 'Porridge'],
    price: 7.5,
  },
  {
    group: 'Breakfast',
    category: 'Pastries',
    names: ['Croissant', 'Pain au chocolat', 'Pastel de nata', 'Cinnamon bun', 'Banana bread'],
    price: 2.4,
  },
  {
    group: 'Lunch',
    category: 'Sandwiches',
    names: ['Grilled cheese', 'Club sandwich', 'Falafel wrap', 'Tuna melt', 'Caprese panini'],
    price: 8.9,
  },
  {
    group: 'Lunch',
    category: 'Salads and soups',
    names: ['Caesar salad', 'Greek salad', 'Soup of the day', 'Quinoa bowl', 'Niçoise salad'],
    price: 9.5,
  },
  { group: 'Lunch', category: 'Cakes', names: ['Carrot cake', 'Cheesecake', 'Chocolate brownie', 'Lemon tart'], price: 4.2 },
];
const DIET_TAGS = [['vegan', 'gluten-free'], ['vegetarian'], [], ['vegetarian', 'nut-free'], ['dairy-free'], []];
const ALLERGENS = [['Milk'], ['Gluten', 'Eggs'], [], ['Nuts'], ['Soy', 'Gluten'], ['Fish']];

export async function benchPagesAudit(): Promise<string> {
  const started = performance.now();
  const { api, redirect, accountWithKey, stop } = await startBenchStack('pagesaudit');
  const port = await freePort();
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      `--remote-debugging-port=${port}`,
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const { auth } = await accountWithKey('bench-pages-audit');
    const json = { ...auth, 'content-type': 'application/json' };
    async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
      const res = await fetch(`${api}/api/v1${path}`, {
        method,
        headers: body instanceof FormData ? auth : json,
        body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
      return JSON.parse(text) as T;
    }
    async function upload(bytes: Buffer, name: string): Promise<string> {
      const form = new FormData();
      form.set('file', new Blob([new Uint8Array(bytes)]), name);
      return (await call<{ fileId: string }>('POST', '/files', form)).fileId;
    }

    // Photos as a phone takes them (a few MB each; the uploads make the web-sized copies).
    const photos = await Promise.all(Array.from({ length: 5 }, (_, i) => photo(i)));
    const logoPng = await logo();
    const images: string[] = [];
    for (const [i, bytes] of photos.entries()) images.push(await upload(bytes, `IMG_${2040 + i}.jpg`));
    const pdfs = [await upload(pdfBytes('Lunch menu'), 'lunch.pdf'), await upload(pdfBytes('Dinner menu'), 'dinner.pdf')];
    const brand = async () => ({
      language: 'en',
      accentColor: '#8a4b2a',
      accentColorDark: '#f0b27a',
      logo: { fileId: await upload(logoPng, 'logo.png') },
      cover: { fileId: images[4]! },
    });

    async function makeLink(type: string, extra: Record<string, unknown> = {}): Promise<string> {
      let data = exampleData(type, { images, pdfs });
      if (type === 'gallery') data = { files: images.map((fileId) => ({ fileId })) };
      if (type === 'product') data = { ...data, images: { files: images.slice(0, 3).map((fileId) => ({ fileId })) } };
      const made = await call<{ id: string }>('POST', '/links', {
        name: `Cafe Aroma ${type}`,
        type,
        data,
        pageStyle: await brand(),
        ...extra,
      });
      return made.id;
    }

    const targets: Target[] = [];
    async function add(label: string, make: () => Promise<string>): Promise<void> {
      try {
        targets.push({ label, url: `${redirect}/${await make()}` });
      } catch (error) {
        targets.push({ label, setupError: (error as Error).message });
      }
    }
    for (const type of TYPES) await add(type, () => makeLink(type));

    // A cafe as an owner fills it in: profile with logo and cover, hours, 40 dishes in 3 groups and
    // 7 categories, most with a photo, dietary tags and allergens (so the page has filters).
    let menu: { cafeId: string; slug: string } | undefined;
    let menuError: string | undefined;
    try {
      const cafe = (await call<{ data: { id: string; link: { dynamic_link_id: string } } }>('POST', '/cafes', { name: 'Cafe Aroma' })).data;
      const profile = new FormData();
      for (const [field, value] of Object.entries({
        title: 'Cafe Aroma',
        subtitle: 'Coffee, breakfast and lunch by the river',
        address: 'Rua das Flores 12, 1200-195 Lisboa',
        phone: '+351 21 000 0000',
        email: 'hello@cafe-aroma.example',
        website: 'https://cafe-aroma.example',
        description: 'Speciality coffee roasted in house, breakfast all day and a short lunch menu.',
      }))
        profile.set(field, value);
      profile.set('logo', new Blob([new Uint8Array(logoPng)]), 'logo.png');
      profile.set('cover', new Blob([new Uint8Array(photos[4]!)]), 'cover.jpg');
      await call('PUT', `/cafes/${cafe.id}/profile`, profile);
      await call('PUT', `/cafes/${cafe.id}`, {
        timezone: 'Europe/Lisbon',
        operating_hours: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => ({
          day,
          enabled: day !== 'sunday',
          ranges: day === 'sunday' ? [] : [{ from: '08:00', to: '17:00' }],
        })),
        facilities: ['wifi', 'terrace', 'wheelchair access'],
        social_links: [{ platform: 'instagram', url: 'https://instagram.com/cafe.aroma' }],
      });
      const entries = DISHES.flatMap(({ group, category, names, price }) =>
        names.map((name, i) => ({
          name,
          price: Number((price + i * 0.4).toFixed(2)),
          currency: 'EUR',
          category,
          group,
          description: `${name}, made fresh every morning with local ingredients`,
          ingredients: ['house recipe', 'seasonal produce'],
        })),
      );
      await call('POST', `/cafes/${cafe.id}/items/bulk-insert`, { items: entries });
      const items = (await call<{ data: Array<{ id: string }> }>('GET', `/cafes/${cafe.id}/items`)).data;
      // Item photos of a phone's size would take minutes to copy; 1600×1200 is what owners export.
      const dishPhotos = await Promise.all(Array.from({ length: 6 }, (_, i) => photo(20 + i, 1600, 1200)));
      for (const [i, item] of items.entries()) {
        const form = new FormData();
        for (const tag of DIET_TAGS[i % DIET_TAGS.length]!) form.append('tags', tag);
        for (const allergen of ALLERGENS[i % ALLERGENS.length]!) form.append('allergens', allergen);
        if (i % 7 === 0) form.set('is_featured', 'true');
        if (i % 5 !== 4) form.set('image', new Blob([new Uint8Array(dishPhotos[i % dishPhotos.length]!)]), `dish-${i}.jpg`);
        await call('PUT', `/cafes/${cafe.id}/items/${item.id}`, form);
      }
      menu = { cafeId: cafe.id, slug: cafe.link.dynamic_link_id };
    } catch (error) {
      menuError = (error as Error).message;
    }
    for (const theme of MENU_THEME_KEYS) {
      if (!menu) {
        targets.push({ label: `menu ${theme}`, setupError: menuError });
        continue;
      }
      const { cafeId, slug } = menu;
      targets.push({
        label: `menu ${theme}`,
        url: `${redirect}/${slug}`,
        prepare: async () => {
          await call('PUT', `/cafes/${cafeId}/theme`, { themeImage: theme, showDietarySection: true });
          await new Promise((r) => setTimeout(r, 300)); // the invalidation reaching the redirect process
        },
      });
    }

    await add('status: password form', () =>
      makeLink('event', { linkConfigurations: { passwordProtectedActive: true, password: 'espresso42' } }),
    );
    await add('status: paused', async () => {
      const slug = await makeLink('gallery');
      await call('POST', `/links/${slug}/pause`);
      return slug;
    });
    await add('status: expired', () =>
      makeLink('product', {
        linkConfigurations: { scheduleActive: true, startDate: '2025-06-01', endDate: '2025-06-30', scheduleTimezone: 'Europe/Lisbon' },
      }),
    );
    const setupSeconds = (performance.now() - started) / 1000;

    const rows: AuditRow[] = [];
    const auditStarted = performance.now();
    for (const target of targets) {
      const row: AuditRow = { label: target.label, note: [] };
      rows.push(row);
      if (!target.url) {
        row.note.push(`setup failed: ${target.setupError}`);
        continue;
      }
      try {
        await target.prepare?.();
        const lhr = await runLighthouse(target.url, port);
        row.scores = Object.fromEntries(CATEGORIES.map((c) => [c, lhr.categories[c]?.score ?? null])) as AuditRow['scores'];
        row.failing = failingAudits(lhr);
        row.benchmarkIndex = lhr.environment.benchmarkIndex;
        const document = lhr.audits['network-requests']?.details as { items?: Array<{ url: string; statusCode: number }> } | undefined;
        row.status = document?.items?.find((item) => item.url.startsWith(target.url!))?.statusCode;
      } catch (error) {
        row.note.push(`Lighthouse failed: ${(error as Error).message.slice(0, 200)}`);
      }
      try {
        row.axe = await runAxe(browser, target.url, row.note);
      } catch (error) {
        row.note.push(`axe failed: ${(error as Error).message.slice(0, 200)}`);
      }
      process.stderr.write(`pages-audit: ${target.label} done at ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
    }
    const auditSeconds = (performance.now() - auditStarted) / 1000;

    const indexes = rows.flatMap((row) => (row.benchmarkIndex === undefined ? [] : [row.benchmarkIndex]));
    const score = (s: number | null | undefined) =>
      s === null || s === undefined ? '—' : Math.round(s * 100) < 95 ? `**${Math.round(s * 100)}**` : String(Math.round(s * 100));
    const scoreTable = printTable(
      `pages audit: Lighthouse ${lighthouseVersion()} mobile defaults (simulated slow 4G, 4× CPU) and axe-core ${axeVersion()} (WCAG 2.2 A/AA + best practices) at 390×844; scores below 95 in bold; setup ${setupSeconds.toFixed(0)} s, audits ${auditSeconds.toFixed(0)} s for ${targets.length} pages; Lighthouse benchmarkIndex ${indexes.length ? `${Math.min(...indexes)}–${Math.max(...indexes)}` : '—'}`,
      ['page', 'HTTP', 'perf', 'a11y', 'best-practices', 'seo', 'axe violations', 'notes'],
      rows.map((row) => [
        row.label,
        row.status ?? '—',
        score(row.scores?.performance),
        score(row.scores?.accessibility),
        score(row.scores?.['best-practices']),
        score(row.scores?.seo),
        row.axe ? (row.axe.length === 0 ? '0' : `${row.axe.length}: ${row.axe.map((v) => `${v.id} (${v.nodes})`).join(', ')}`) : '—',
        row.note.join('; ').replaceAll('|', '\\|'),
      ]),
    );
    const failingTable = printTable(
      `pages audit: what costs points, per page and category (at most ${TOP_AUDITS} Lighthouse audits each, worst first; weight in the category's score, 0: costs no points; score 0–1; the value or first elements it names)`,
      ['page', 'category', 'audit', 'weight', 'score', 'where'],
      rows.flatMap((row) =>
        (row.failing ?? []).map((f) => [
          row.label,
          f.category,
          f.id,
          f.weight,
          f.score.toFixed(2),
          f.where.replaceAll('|', '\\|').replaceAll('\n', ' '),
        ]),
      ),
    );
    const axeTable = printTable(
      'pages audit: axe-core violations, per page (impact, elements, the first element)',
      ['page', 'rule', 'impact', 'elements', 'first element'],
      rows.flatMap((row) =>
        (row.axe ?? []).map((v) => [row.label, v.id, v.impact ?? '—', v.nodes, `\`${v.target.replaceAll('|', '\\|').slice(0, 80)}\``]),
      ),
    );
    return `${scoreTable}\n${failingTable}\n${axeTable}`;
  } finally {
    await browser.close();
    await stop();
  }
}

function lighthouseVersion(): string {
  return (createRequire(import.meta.url)('lighthouse/package.json') as { version: string }).version;
}

function axeVersion(): string {
  return (createRequire(import.meta.url)('axe-core/package.json') as { version: string }).version;
}
