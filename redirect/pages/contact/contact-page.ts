/**
 * vcard links: the contact page and its `.vcf` (vCard 3.0, the version vcard-creator writes and
 * every address book imports).
 *
 * `contact` is the contact's mobile number: the API contract lists it beside phone and fax, and the
 * dynamic-QR vCard forms this API follows ask for "mobile", "phone" and "fax". It is free text
 * (no phone format is enforced), so the page links it with `tel:` only when it reads as a number.
 *
 * The photo is shown on the page only: the contact file is written without the link's files (a
 * PHOTO by URL would be fetched by address books from our redirect host, if at all).
 */
import VCard from 'vcard-creator';
import { isPhoneNumber, type LinkDataByType } from '#domain/links/data/index.js';
import type { ResolvedLink } from '#domain/links/resolve/resolved-link.js';
import { contactText } from './contact-messages.js';
import { checkedUrl, html, type SafeHtml } from '../common/html.js';
import { icon, socialPlatform } from '../common/icons.js';
import { imageSources, pictureTag } from '../common/images.js';
import type { PageContent } from '../common/layout.js';
import { downloadName } from '../common/download-name.js';
import { linkFiles } from '../files/files-page.js';
import { mapAppFor, mapHref } from '../common/maps.js';
import { dialableNumber, mailtoHref, smsHref } from '../email-sms/email-sms-page.js';
import type { PageUrls, Scanner } from '../common/types.js';
import { pingOf } from '../common/taps.js';
import type { PageLocale } from '../common/locale.js';

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
 * vcard-creator writes TEL, EMAIL and URL values as given: a line break there would start a line
 * of our choosing in the contact file (a `URL:` with any scheme, say). A number is one line. The
 * Unicode line and paragraph separators and NEL go too: some readers end a line on them.
 */
function oneLine(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f\u0085\u2028\u2029]+/g, ' ');
}

/**
 * Text that may span lines (N, FN, ORG, TITLE, ADR): vcard-creator escapes LF as `\n`, but not a
 * lone CR, which line-based readers (Android's) take as the end of a line, so a name could add a
 * `URL:javascript:` line or a second contact. Every break becomes LF; other control characters a space.
 */
function cardText(value: string | undefined): string | undefined {
  return value?.replace(/\r\n?|[\u0085\u2028\u2029]/g, '\n').replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, ' ');
}

/**
 * A .vcf is opened by address books, which make its URL tappable: only an http(s) address is
 * written (as the page links it, `example.com` read as https), never `javascript:`, `file:` or
 * the like, which are left out of the file (the page still shows them as text).
 */
export function renderVcard(data: VcardData): string {
  const card = new VCard();
  card.addName({ givenName: cardText(data.firstName), familyName: cardText(data.lastName) });
  const email = filled(data.email);
  if (email) card.addEmail({ address: oneLine(email), type: ['internet'] });
  const mobile = filled(data.contact);
  const phone = filled(data.phone);
  const fax = filled(data.fax);
  const website = filled(data.website);
  const websiteUrl = website && websiteHref(website);
  const company = cardText(filled(data.company));
  const department = cardText(filled(data.department));
  const jobTitle = cardText(filled(data.jobTitle));
  if (mobile) card.addPhoneNumber({ number: oneLine(mobile), type: ['cell'] });
  if (phone) card.addPhoneNumber({ number: oneLine(phone), type: ['work', 'voice'] });
  if (fax) card.addPhoneNumber({ number: oneLine(fax), type: ['work', 'fax'] });
  if (websiteUrl) card.addUrl({ url: websiteUrl });
  for (const { url } of data.socialLinks ?? []) card.addUrl({ url: oneLine(url) });
  if (company || department) card.addCompany({ name: company ?? '', department });
  if (jobTitle) card.addJobtitle(jobTitle);
  if (addressLines(data).length > 0) {
    card.addAddress({
      street: cardText(filled(data.street)),
      locality: cardText(filled(data.city)),
      region: cardText(filled(data.state)),
      postalCode: cardText(filled(data.zip)),
      country: cardText(filled(data.country)),
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

/** A website as people read it: without `https://`, `www.` or a bare trailing `/` (the link keeps them). */
function readableUrl(href: string): string {
  return href
    .replace(/^https?:\/\//i, '')
    .replace(/^www\./i, '')
    .replace(/\/$/, '');
}

// Actions share a row as wide as their words (never split inside one: "Directions" is wider than a
// quarter of a phone, so a word too wide for its share moves the button to a row of its own).
// Facts are label and value side by side; the label column is as wide as its longest label up to
// 9rem (a longer label wraps between words), so values keep most of the line. Each label aligns
// with the first line of its value (baseline), as the values' links are 48 px tall tap targets.
const STYLES =
  '.contact-head{display:flex;align-items:center;gap:1rem;margin:0 0 1rem}.contact-head h1{margin:0}.contact-head p{margin:.25rem 0 0}' +
  '.contact-photo{flex:none;display:block;width:5.5rem;height:5.5rem;object-fit:cover;border-radius:50%;background:var(--card)}' +
  '.actions{display:flex;flex-wrap:wrap;gap:.5rem;margin:0 0 1rem;padding:0;list-style:none}.actions li{flex:1 1 auto;overflow-wrap:normal}' +
  '.actions a{display:flex;align-items:center;justify-content:center;min-height:3rem;padding:.5rem .75rem;border-radius:.75rem;background:var(--card);border:1px solid var(--line);color:var(--fg);font-weight:600;text-decoration:none;white-space:nowrap}' +
  '.contact-facts{grid-template-columns:fit-content(9rem) minmax(0,1fr);align-items:baseline}.contact-facts dt{overflow-wrap:normal}' +
  '.contact-facts a{display:inline-flex;align-items:center;min-height:3rem}' +
  '.social{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.5rem}.social li{overflow-wrap:normal}' +
  '.social a{display:inline-flex;align-items:center;gap:.5rem;min-height:3rem;padding:.5rem .75rem;border-radius:.75rem;border:1px solid var(--line);color:var(--fg);text-decoration:none;white-space:nowrap}';

/** The file name a contact is saved under: the person's name, safe on every file system. */
export function vcardFileName(data: VcardData): string {
  return downloadName(`${data.firstName} ${data.lastName}`, 'contact', 'vcf');
}

/** A social profile's link: the platform's icon and name when its host is one we know, else the host. */
function socialLink(url: string): SafeHtml {
  const platform = socialPlatform(undefined, url);
  const label = platform?.label ?? readableUrl(url).split('/')[0]!;
  return html`<li><a href="${url}">${icon(platform?.icon ?? 'world', 20)}${label}</a></li>`;
}

export function renderVcardPage(link: ResolvedLink, data: VcardData, urls: PageUrls, scanner: Scanner, locale: PageLocale): PageContent {
  const t = (key: Parameters<typeof contactText>[1]) => contactText(locale, key);
  const name = `${data.firstName} ${data.lastName}`;
  const mobile = filled(data.contact);
  const phone = filled(data.phone);
  const fax = filled(data.fax);
  const website = filled(data.website);
  const href = website && websiteHref(website);
  const company = cardText(filled(data.company));
  const department = cardText(filled(data.department));
  const jobTitle = cardText(filled(data.jobTitle));
  const [photo] = data.photo ? linkFiles(link, [data.photo.fileId]) : [];
  const social = (data.socialLinks ?? []).map(({ url }) => checkedUrl(url, ['http', 'https'])).filter((url): url is string => !!url);
  const address = addressLines(data);
  // One tap for what people do with a contact: call, text, email, get there (48 px targets).
  const callable = [mobile, phone].find((n): n is string => !!n && isPhoneNumber(n));
  const textable = mobile && isPhoneNumber(mobile) ? mobile : undefined;
  const actions = [
    callable && html`<li><a href="tel:${dialableNumber(callable)}"${pingOf(urls, 'call')}>${t('call')}</a></li>`,
    textable && html`<li><a href="${smsHref(textable)}">${t('text')}</a></li>`,
    html`<li><a href="${mailtoHref(data.email)}">${t('email')}</a></li>`,
    address.length > 0 &&
      html`<li><a href="${mapHref({ address: address.join(', ') }, mapAppFor(scanner.platform))}"${pingOf(urls, 'directions')}>${t('directions')}</a></li>`,
  ];
  const role = [jobTitle, company].filter(Boolean).join(' · ');
  return {
    title: name,
    styles: STYLES,
    content: html`<header class="contact-head">${
      photo &&
      pictureTag(imageSources(photo, urls.file), {
        className: 'contact-photo',
        alt: contactText(locale, 'photo', { name }),
        sizes: '5.5rem',
        priority: true,
      })
    }<div><h1>${name}</h1>${role && html`<p class="muted">${role}</p>`}</div></header>
<a class="button" href="${urls.vcard}"${pingOf(urls, 'save_contact')}>${t('saveContact')}</a>
<ul class="actions">${actions}</ul>
<dl class="facts contact-facts card">
<dt>${t('email')}</dt><dd><a href="${mailtoHref(data.email)}">${data.email}</a></dd>
${mobile && html`<dt>${t('mobile')}</dt><dd>${phoneValue(mobile)}</dd>`}
${phone && html`<dt>${t('phone')}</dt><dd>${phoneValue(phone)}</dd>`}
${fax && html`<dt>${t('fax')}</dt><dd>${fax}</dd>`}
${jobTitle && html`<dt>${t('jobTitle')}</dt><dd>${jobTitle}</dd>`}
${company && html`<dt>${t('company')}</dt><dd>${company}</dd>`}
${department && html`<dt>${t('department')}</dt><dd>${department}</dd>`}
${website && html`<dt>${t('website')}</dt><dd>${href ? html`<a href="${href}"${pingOf(urls, 'website')}>${readableUrl(website)}</a>` : website}</dd>`}
${address.length > 0 && html`<dt>${t('address')}</dt><dd class="text">${address.join('\n')}</dd>`}
</dl>
${social.length > 0 && html`<h2>${t('social')}</h2><ul class="social">${social.map(socialLink)}</ul>`}`,
  };
}
