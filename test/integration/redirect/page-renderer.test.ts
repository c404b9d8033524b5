/**
 * The redirect's render thread (a real worker thread): pages come back as made on the event loop,
 * compressed, and the thread is shared fairly between accounts.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { createPageRenderer } from '#redirect/page-renderer.js';
import { linkPageUrls } from '#redirect/pages/common/file-urls.js';
import { renderLinkPage } from '#redirect/pages/index.js';
import { resolvedLink } from '../../support/link-examples.js';

const renderer = createPageRenderer(1);
afterAll(() => renderer.close());

const landing = (accountId: string, landingHTML: string) => resolvedLink('landing', { landingHTML }, [], accountId);

describe('the page render thread', () => {
  it('makes the page the event loop would, sanitized, with its brotli and gzip copies', async () => {
    const link = landing('a', `<h1>Hello</h1><script>alert(1)</script><p onclick="x()">${'Our menu changes daily. '.repeat(100)}</p>`);
    const made = await renderer.render(link.accountId, { kind: 'landing', link, baseUrl: 'https://qr.example' });
    const expected = renderLinkPage(link, linkPageUrls(link, 'https://qr.example'));
    const body = Buffer.from(made.body).toString('utf8');
    expect(body).toBe(expected.body);
    expect(body).not.toContain('script>');
    expect(body).not.toContain('onclick');
    expect(made.status).toBe(200);
    expect(brotliDecompressSync(made.encoded!.br).toString('utf8')).toBe(body);
    expect(gunzipSync(made.encoded!.gzip).toString('utf8')).toBe(body);
  });

  it("serves accounts in turn: another account's render does not wait for one account's backlog", async () => {
    const heavy = `${'<div>'.repeat(60)}x${'</div>'.repeat(60)}`.repeat(300);
    const finished: string[] = [];
    const render = (accountId: string, name: string, html: string) => {
      const link = landing(accountId, html);
      return renderer.render(accountId, { kind: 'landing', link, baseUrl: 'https://qr.example' }).then(() => finished.push(name));
    };
    const backlog = Array.from({ length: 6 }, (_, i) => render('a', `a${i}`, heavy));
    const other = render('b', 'b', '<p>Small</p>');
    await Promise.all([...backlog, other]);
    // a0 was running when b arrived and a's lane was ahead of b's: b comes after a1 at the latest, not after a5.
    expect(finished.indexOf('b')).toBeLessThanOrEqual(2);
  });
});
