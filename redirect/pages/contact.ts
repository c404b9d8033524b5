/**
 * vcard links: the contact page and its `.vcf` (vCard 3.0, the version vcard-creator writes and
 * every address book imports).
 *
 * `contact` is the contact's mobile number: the API contract lists it beside phone and fax, and the
 * dynamic-QR vCard forms this API follows ask for "mobile", "phone" and "fax". It is free text
 * (no phone format is enforced), so the page links it with `tel:` only when it reads as a number.
 */
import VCard from 'vcard-creator';
import { isPhoneNumber, type LinkDataByType } from '../../shared/links/data/index.js';
import { checkedUrl, html, type SafeHtml } from './html.js';
import type { PageContent } from './layout.js';
import { downloadName } from './download-name.js';
import { mapLink } from './maps.js';
import { dialableNumber, mailtoHref, smsHref } from './messages.js';
import type { Scanner } from './types.js';
import type { PageLocale } from './locale.js';

type VcardData = LinkDataByType['vcard'];

/** Forms send "" for a field left blank: such a field is absent. */
function filled(value: string | undefined): string | undefined {
  return value?.trim() ? value : undefined;
}

function addressLines(data: VcardData): string[] {
  const cityLine = [filled(data.zip), filled(data.city)].filter(Boolean).join(' ');
  return [filled(data.street), cityLine, filled(data.state), filled(data.country)].filter((line): line is string => !!line);
}

/**
 * vcard-creator escapes the text of N, FN, ORG and ADR but writes TEL (and URL) values as given:
 * a line break there would start a line of our choosing in the contact file (a `URL:` with any
 * scheme, say). A number is one line.
 */
function oneLine(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f]+/g, ' ');
}

/**
 * A .vcf is opened by address books, which make its URL tappable: only an http(s) address is
 * written (as the page links it, `example.com` read as https), never `javascript:`, `file:` or
 * the like, which are left out of the file (the page still shows them as text).
 */
export function renderVcard(data: VcardData): string {
  const card = new VCard();
  card.addName({ givenName: data.firstName, familyName: data.lastName });
  card.addEmail({ address: data.email, type: ['internet'] });
  const mobile = filled(data.contact);
  const phone = filled(data.phone);
  const fax = filled(data.fax);
  const website = filled(data.website);
  const websiteUrl = website && websiteHref(website);
  const company = filled(data.company);
  const department = filled(data.department);
  if (mobile) card.addPhoneNumber({ number: oneLine(mobile), type: ['cell'] });
  if (phone) card.addPhoneNumber({ number: oneLine(phone), type: ['work', 'voice'] });
  if (fax) card.addPhoneNumber({ number: oneLine(fax), type: ['work', 'fax'] });
  if (websiteUrl) card.addUrl({ url: websiteUrl });
  if (company || department) card.addCompany({ name: company ?? '', department });
  if (addressLines(data).length > 0) {
    card.addAddress({
      street: filled(data.street),
      locality: filled(data.city),
      region: filled(data.state),
      postalCode: filled(data.zip),
      country: filled(data.country),
      type: ['work'],
    });
  }
  return card.toString();
}

/** A number as a `tel:` link when it reads as one, else as text. */
function phoneValue(value: string): SafeHtml {
  return isPhoneNumber(value) ? html`<a href="tel:${dialableNumber(value)}">${value}</a>` : html`${value}`;
}

/** `example.com` is a website too: without a scheme, https is assumed. */
function websiteHref(value: string): string | undefined {
  return checkedUrl(/^[a-z][a-z0-9+.-]*:/i.test(value) ? value : `https://${value}`, ['http', 'https']);
}

// Actions share a row as wide as their words (never split inside one: "Directions" is wider than a
// quarter of a phone); facts align each label with the first line of its value (baseline), as the
// values' links are 48 px tall tap targets.
const ACTION_STYLES =
  '.actions{display:flex;flex-wrap:wrap;gap:.5rem;margin:0 0 1rem;padding:0;list-style:none}.actions li{flex:1 1 auto}' +
  '.actions a{display:flex;align-items:center;justify-content:center;min-height:3rem;padding:.5rem .75rem;border-radius:.75rem;background:var(--card);border:1px solid var(--line);color:var(--fg);font-weight:600;text-decoration:none;white-space:nowrap}' +
  '.facts{align-items:baseline}.facts a{display:inline-flex;align-items:center;min-height:3rem}';

/** The file name a contact is saved under: the person's name, safe on every file system. */
export function vcardFileName(data: VcardData): string {
  return downloadName(`${data.firstName} ${data.lastName}`, 'contact', 'vcf');
}

export function renderVcardPage(data: VcardData, vcardUrl: string, scanner: Scanner, _locale: PageLocale): PageContent {
  const name = `${data.firstName} ${data.lastName}`;
  const mobile = filled(data.contact);
  const phone = filled(data.phone);
  const fax = filled(data.fax);
  const website = filled(data.website);
  const href = website && websiteHref(website);
  // The data has a company and a department (the vCard's ORG), no job title: each is named as what it is.
  const company = filled(data.company);
  const department = filled(data.department);
  const address = addressLines(data);
  // One tap for what people do with a contact: call, text, email, get there (48 px targets).
  const callable = [mobile, phone].find((n): n is string => !!n && isPhoneNumber(n));
  const textable = mobile && isPhoneNumber(mobile) ? mobile : undefined;
  const actions = [
    callable && html`<li><a href="tel:${dialableNumber(callable)}">Call</a></li>`,
    textable && html`<li><a href="${smsHref(textable)}">Text</a></li>`,
    html`<li><a href="${mailtoHref(data.email)}">Email</a></li>`,
    address.length > 0 && html`<li><a href="${mapLink({ address: address.join(', ') }, scanner.platform).href}">Directions</a></li>`,
  ];
  return {
    title: name,
    styles: ACTION_STYLES,
    content: html`<h1>${name}</h1>
${company && html`<p class="muted">${company}</p>`}
<a class="button" href="${vcardUrl}">Save contact</a>
<ul class="actions">${actions}</ul>
<dl class="facts card">
<dt>Email</dt><dd><a href="${mailtoHref(data.email)}">${data.email}</a></dd>
${mobile && html`<dt>Mobile</dt><dd>${phoneValue(mobile)}</dd>`}
${phone && html`<dt>Phone</dt><dd>${phoneValue(phone)}</dd>`}
${fax && html`<dt>Fax</dt><dd>${fax}</dd>`}
${company && html`<dt>Company</dt><dd>${company}</dd>`}
${department && html`<dt>Department</dt><dd>${department}</dd>`}
${website && html`<dt>Website</dt><dd>${href ? html`<a href="${href}">${website}</a>` : website}</dd>`}
${address.length > 0 && html`<dt>Address</dt><dd class="text">${address.join('\n')}</dd>`}
</dl>`,
  };
}
