/**
 * wifi links: the network details to join by hand (a web page cannot join a network). The
 * password sits behind a "Show password" disclosure and selects as a whole on one tap, ready for
 * the system's Copy; a small script (allowed by its hash) adds a "Copy password" button that puts
 * it on the clipboard. Without the script the button stays hidden and the page works as before.
 */
import type { LinkDataByType } from '#domain/links/data/index.js';
import { html } from '../common/html.js';
import { PageScript, type PageContent } from '../common/layout.js';
import type { Page, PageUrls } from '../common/types.js';
import type { PageLocale } from '../common/locale.js';
import { wifiText } from './wifi-messages.js';
import { beaconOf } from '../common/taps.js';

/** The security a network names: the protocols, or the catalogue's words for an open one. */
const securityLabel = (encryption: LinkDataByType['wifi']['encryption'], locale: PageLocale) =>
  encryption === 'WPA' ? 'WPA/WPA2/WPA3' : encryption === 'WEP' ? 'WEP' : wifiText(locale, 'openNetwork');

const STYLES =
  'summary{cursor:pointer;color:var(--accent);font-weight:600;min-height:2.75rem;display:flex;align-items:center}' +
  '.secret{display:block;user-select:all;-webkit-user-select:all;font:1.25rem/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;word-break:break-all;padding:.5rem .75rem;background:var(--bg);border:1px dashed var(--line);border-radius:.5rem}';

const COPY_STYLES = '.copy{margin:.5rem 0 0}';

// Copies the password (the clipboard API needs a secure context; elsewhere it selects the text for
// the system's Copy) and says so for screen readers through the status line, in the words the
// page put on the button (one script, hence one hash, for every language).
const COPY_SCRIPT = new PageScript(
  "(()=>{const b=document.getElementById('copy'),s=document.querySelector('.secret'),o=document.getElementById('copied');if(!b||!s)return;b.hidden=false;" +
    "b.addEventListener('click',async()=>{if(b.dataset.tap)try{navigator.sendBeacon(b.dataset.tap)}catch{}try{await navigator.clipboard.writeText(s.textContent);o.textContent=b.dataset.copied}catch{const r=document.createRange();" +
    'r.selectNodeContents(s);const w=getSelection();w.removeAllRanges();w.addRange(r);o.textContent=b.dataset.selected}})})();',
);

export function renderWifiPage(data: LinkDataByType['wifi'], urls: Pick<PageUrls, 'tap'>, locale: PageLocale): PageContent {
  const t = (key: Parameters<typeof wifiText>[1], params?: Record<string, string>) => wifiText(locale, key, params);
  const password = data.encryption !== 'nopass' && data.password ? data.password : undefined;
  const security = securityLabel(data.encryption, locale);
  return {
    title: t('title', { ssid: data.ssid }),
    styles: STYLES + COPY_STYLES,
    ...(password ? { script: COPY_SCRIPT } : {}),
    content: html`<h1>${t('heading')}</h1>
<dl class="facts card">
<dt>${t('network')}</dt><dd>${data.ssid}</dd>
<dt>${t('security')}</dt><dd>${security}</dd>
${password && html`<dt>${t('password')}</dt><dd><details><summary>${t('showPassword')}</summary><code class="secret">${password}</code></details><button type="button" id="copy" class="button copy"${beaconOf(urls, 'join_wifi')} data-copied="${t('copied')}" data-selected="${t('selected')}" hidden>${t('copyPassword')}</button><p id="copied" class="muted" role="status"></p></dd>`}
${data.hidden && html`<dt>${t('hidden')}</dt><dd>${t('hiddenValue')}</dd>`}
</dl>
<h2>${t('howTo')}</h2>
<ol>
<li>${t('openSettings')}</li>
<li>${data.hidden ? t('chooseHidden', { ssid: data.ssid, security }) : t('choose', { ssid: data.ssid })}</li>
${password && html`<li>${t('enterPassword')}</li>`}
</ol>`,
  };
}
