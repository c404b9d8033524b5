/**
 * A link's page style (pageStyle on POST/PUT /links): validated and stored, its logo and cover
 * attached like data files (checked, released when dropped, copied on duplicate), and shown by
 * the redirect: the page's lang, accent colours, brand header, and status pages in the brand.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files } from '#domain/schema.js';
import { pngBytes, uploadFile } from '../../support/fixtures.js';
import { call } from '../../support/harness.js';
import { startScanStack, type ScanStack } from '../../support/redirect.js';

let stack: ScanStack;
beforeAll(async () => {
  stack = await startScanStack();
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

const api = () => stack.api.app;
const key = () => stack.me.key;
const upload = async (width: number) => (await uploadFile(api(), key(), pngBytes(width, 40, [30, 90, 160]), `logo-${width}.png`)).fileId;
const linkOfFile = async (fileId: string) =>
  (await stack.api.ctx.db.select({ linkId: files.linkId }).from(files).where(eq(files.id, fileId)))[0]?.linkId;
const wifi = { ssid: 'Cafe Guest', encryption: 'WPA', password: 'espresso42' };

describe('pageStyle', () => {
  it('is stored canonical, answered as page_style, and shown by the page: lang, accent, logo and cover', async () => {
    const logo = await upload(41);
    const cover = await upload(42);
    const brand = {
      title: 'Café Aroma',
      description: 'Coffee by the river.',
      accentColorDark: '#f0b27a',
      logo: { fileId: logo },
      cover: { fileId: cover },
    };
    const res = await call(api(), key(), 'POST', '/api/v1/links', {
      name: 'Cafe Aroma Wi-Fi',
      type: 'wifi',
      data: wifi,
      pageStyle: { ...brand, language: 'pt-br', website: 'https://cafe-aroma.example', accentColor: '#8A4B2A' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const slug = res.json().id as string;
    const got = (await call(api(), key(), 'GET', `/api/v1/links/${slug}`)).json().data;
    // Stored canonical: the tag's case, the URL's serialisation, the colour in lower case.
    expect(got.page_style).toEqual({ ...brand, language: 'pt-BR', website: 'https://cafe-aroma.example/', accentColor: '#8a4b2a' });
    expect(await linkOfFile(logo)).toBe(got.id);
    const page = await (await stack.redirect.get(`/${slug}`)).text();
    expect(page).toContain('<html lang="pt-BR">');
    expect(page).toContain(':root{--accent:#8a4b2a;--on-accent:#fff}');
    expect(page).toContain('@media (prefers-color-scheme:dark){:root{--accent:#f0b27a;--on-accent:#000}}');
    expect(page).toContain(`<img class="brand-cover" src="/files/${cover}" alt="" fetchpriority="high">`);
    // The owner's title, never the link's own name; the logo is decoration beside it.
    expect(page).toContain(`<img class="brand-logo" src="/files/${logo}" alt=""`);
    expect(page).toContain('<p class="brand-title">Café Aroma</p>');
    expect(page).not.toContain('Cafe Aroma Wi-Fi');
    expect(page).toContain('<meta name="description" content="Coffee by the river.">');
    expect(page).toContain('<meta property="og:site_name" content="Café Aroma">');
    expect(page).toContain(`<meta property="og:url" content="${stack.api.ctx.config.SHORT_URL_BASE}/${slug}">`);
    expect(page).toContain(`<meta property="og:image" content="${stack.api.ctx.config.SHORT_URL_BASE}/files/${cover}">`);
    expect(page).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(page).toContain(`<link rel="icon" href="/files/${logo}">`);
    expect(page).toContain('<footer class="site-footer"><a href="https://cafe-aroma.example/">Visitar Café Aroma</a></footer>');
    expect((await stack.redirect.get(`/files/${logo}`)).status).toBe(200);
    // Paused, the status page wears the same brand.
    expect((await call(api(), key(), 'POST', `/api/v1/links/${slug}/pause`)).statusCode).toBe(200);
    const paused = await stack.redirect.get(`/${slug}`);
    expect(paused.status).toBe(410);
    const pausedPage = await paused.text();
    expect(pausedPage).toContain('<html lang="pt-BR">');
    expect(pausedPage).toContain(`src="/files/${logo}"`);
    expect(pausedPage).toContain('Este link está em pausa');
    expect(pausedPage).toContain('<a class="button secondary" href="https://cafe-aroma.example/">Visitar Café Aroma</a>');
  });

  it('XSS attempts in its members are refused, and the title it shows (heading, logo alt) is text', async () => {
    const XSS = `"><script>alert(1)</script><img src=x onerror=alert(2)>`;
    const refused = await call(api(), key(), 'POST', '/api/v1/links', {
      name: 'x',
      type: 'wifi',
      data: wifi,
      pageStyle: { language: `en${XSS}`, accentColor: `#fff;}</style>${XSS}`, accentColorDark: `#000${XSS}` },
    });
    expect(refused.statusCode).toBe(400);
    expect((refused.json().errors as Array<{ path: string }>).map((e) => e.path).sort()).toEqual([
      'pageStyle.accentColor',
      'pageStyle.accentColorDark',
      'pageStyle.language',
    ]);
    const logo = await upload(43);
    const photo = await upload(44);
    const made = await call(api(), key(), 'POST', '/api/v1/links', {
      name: 'Terrace',
      type: 'image',
      data: { files: [{ fileId: photo }] },
      pageStyle: { title: `Terrace ${XSS}`, description: XSS, logo: { fileId: logo } },
    });
    expect(made.statusCode, made.body).toBe(200);
    const page = await (await stack.redirect.get(`/${made.json().id as string}`)).text();
    expect(page).not.toContain('<script>alert');
    expect(page).not.toContain('<img src=x');
    expect(page).toContain('<h1>Terrace &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;</h1>');
    expect(page).toContain(
      '<meta name="description" content="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;">',
    );
  });

  it('refuses what it cannot use, naming each member', async () => {
    const pdf = (await uploadFile(api(), key(), Buffer.from('%PDF-1.4\n%%EOF\n'), 'x.pdf')).fileId;
    const res = await call(api(), key(), 'POST', '/api/v1/links', {
      name: 'Bad',
      type: 'wifi',
      data: wifi,
      pageStyle: {
        language: 'not a tag!',
        accentColor: 'red',
        accentColorDark: '#12345',
        logo: { fileId: pdf },
        cover: { fileId: '00000000-0000-4000-8000-000000000000' },
        font: 'Comic Sans',
      },
    });
    expect(res.statusCode).toBe(400);
    const paths = (res.json().errors as Array<{ path: string }>).map((e) => e.path).sort();
    expect(paths).toEqual(['pageStyle.accentColor', 'pageStyle.accentColorDark', 'pageStyle.font', 'pageStyle.language'].sort());
    const badFiles = await call(api(), key(), 'POST', '/api/v1/links', {
      name: 'Bad files',
      type: 'wifi',
      data: wifi,
      pageStyle: { logo: { fileId: pdf }, cover: { fileId: '00000000-0000-4000-8000-000000000000' } },
    });
    expect(badFiles.statusCode).toBe(400);
    expect(badFiles.json().errors).toEqual([
      { path: 'pageStyle.logo.fileId', message: 'Must be an image file' },
      { path: 'pageStyle.cover.fileId', message: 'File not found' },
    ]);
  });

  it('a PUT without it keeps it; null clears it and releases its files; a duplicate gets its own copies', async () => {
    const logo = await upload(43);
    const created = await call(api(), key(), 'POST', '/api/v1/links', {
      name: 'Kept',
      type: 'wifi',
      data: wifi,
      pageStyle: { logo: { fileId: logo }, language: 'fr' },
    });
    const slug = created.json().id as string;
    const kept = await call(api(), key(), 'PUT', `/api/v1/links/${slug}`, { name: 'Kept', type: 'wifi', data: { ...wifi, ssid: 'Other' } });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().data.page_style).toEqual({ logo: { fileId: logo }, language: 'fr' });
    expect(await linkOfFile(logo)).toBe(kept.json().data.id);
    const copy = await call(api(), key(), 'POST', `/api/v1/links/${slug}/duplicate`, { name: 'Kept copy' });
    expect(copy.statusCode, copy.body).toBe(200);
    const [{ slug: copySlug }] = (
      await stack.api.ctx.database.pool.query<{ slug: string }>("select slug from links where name = 'Kept copy'")
    ).rows as [{ slug: string }];
    const copyView = (await call(api(), key(), 'GET', `/api/v1/links/${copySlug}`)).json().data;
    expect(copyView.page_style.language).toBe('fr');
    expect(copyView.page_style.logo.fileId).not.toBe(logo);
    expect(await linkOfFile(copyView.page_style.logo.fileId)).toBe(copyView.id);
    const cleared = await call(api(), key(), 'PUT', `/api/v1/links/${slug}`, { name: 'Kept', type: 'wifi', data: wifi, pageStyle: null });
    expect(cleared.json().data.page_style).toBeNull();
    expect(await linkOfFile(logo)).toBeNull();
    const page = await (await stack.redirect.get(`/${slug}`)).text();
    expect(page).toContain('<html lang="en">');
    expect(page).not.toContain('brand-logo');
  });

  it('keeps text readable: an accent too pale for the page is not used', async () => {
    const res = await call(api(), key(), 'POST', '/api/v1/links', {
      name: 'Pale',
      type: 'wifi',
      data: wifi,
      pageStyle: { accentColor: '#ffee00' },
    });
    const page = await (await stack.redirect.get(`/${res.json().id}`)).text();
    expect(page.replace(/@media \(prefers-color-scheme:dark\)\{[^}]*\}\}/g, '')).not.toContain('--accent:#ffee00');
    // In dark mode the same yellow reads well, so it is used there.
    expect(page).toContain('@media (prefers-color-scheme:dark){:root{--accent:#ffee00;--on-accent:#000}}');
  });

  it('a protected link’s password page wears the brand without its images', async () => {
    const logo = await upload(44);
    const res = await call(api(), key(), 'POST', '/api/v1/links', {
      name: 'Locked',
      type: 'wifi',
      data: wifi,
      pageStyle: { language: 'de', logo: { fileId: logo } },
      linkConfigurations: { passwordProtectedActive: true, password: 'secret12' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = await (await stack.redirect.get(`/${res.json().id}`)).text();
    expect(page).toContain('<html lang="de">');
    expect(page).toContain('Dieser Link ist geschützt');
    expect(page).not.toContain(logo);
  });
});
