/**
 * wifi links: the network details to join by hand (a web page cannot join a network). The
 * password sits behind a "Show password" disclosure and selects as a whole on one tap, ready for
 * the system's Copy; a small script (allowed by its hash) adds a "Copy password" button that puts
 * it on the clipboard. Without the script the button stays hidden and the page works as before.
 */
import type { LinkDataByType } from '../../shared/links/data/index.js';
import { html } from './html.js';
import { PageScript, type PageContent } from './layout.js';
import type { Page } from './types.js';
import type { PageLocale } from './locale.js';

const SECURITY_LABELS: Record<LinkDataByType['wifi']['encryption'], string> = {
  WPA: 'WPA/WPA2/WPA3',
  WEP: 'WEP',
  nopass: 'None (open network)',
};

const STYLES =
  'summary{cursor:pointer;color:var(--accent);font-weight:600;min-height:2.75rem;display:flex;align-items:center}' +
  '.secret{display:block;user-select:all;-webkit-user-select:all;font:1.25rem/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;word-break:break-all;padding:.5rem .75rem;background:var(--bg);border:1px dashed var(--line);border-radius:.5rem}';

const COPY_STYLES = '.copy{margin:.5rem 0 0}';

// Copies the password (the clipboard API needs a secure context; elsewhere it selects the text for
// the system's Copy) and says so for screen readers through the status line.
const COPY_SCRIPT = new PageScript(
  "(()=>{const b=document.getElementById('copy'),s=document.querySelector('.secret'),o=document.getElementById('copied');if(!b||!s)return;b.hidden=false;" +
    "b.addEventListener('click',async()=>{try{await navigator.clipboard.writeText(s.textContent);o.textContent='Password copied'}catch{const r=document.createRange();" +
    "r.selectNodeContents(s);const w=getSelection();w.removeAllRanges();w.addRange(r);o.textContent='Password selected: use Copy'}})})();",
);

export function renderWifiPage(data: LinkDataByType['wifi'], _locale: PageLocale): PageContent {
  const password = data.encryption !== 'nopass' && data.password ? data.password : undefined;
  return {
    title: `Wi-Fi: ${data.ssid}`,
    styles: STYLES + COPY_STYLES,
    ...(password ? { script: COPY_SCRIPT } : {}),
    content: html`<h1>Join the Wi-Fi</h1>
<dl class="facts card">
<dt>Network</dt><dd>${data.ssid}</dd>
<dt>Security</dt><dd>${SECURITY_LABELS[data.encryption]}</dd>
${password && html`<dt>Password</dt><dd><details><summary>Show password</summary><code class="secret">${password}</code></details><button type="button" id="copy" class="button copy" hidden>Copy password</button><p id="copied" class="muted" role="status"></p></dd>`}
${data.hidden && html`<dt>Hidden</dt><dd>Yes: it does not appear in the list of networks</dd>`}
</dl>
<h2>How to connect</h2>
<ol>
<li>Open your device's Wi-Fi settings.</li>
${data.hidden
  ? html`<li>Choose "Other network" (or "Add network"), then enter the name <strong>${data.ssid}</strong> and the security ${SECURITY_LABELS[data.encryption]}.</li>`
  : html`<li>Choose <strong>${data.ssid}</strong>.</li>`}
${password && html`<li>Enter the password. Tap it above to select it, then copy.</li>`}
</ol>`,
  };
}
