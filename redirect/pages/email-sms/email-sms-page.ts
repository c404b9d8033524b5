/** email and sms links: a page whose button opens the scanner's mail or messages app, message ready. */
import type { LinkDataByType } from '#domain/links/data/index.js';
import { html } from '../common/html.js';
import type { PageContent } from '../common/layout.js';
import type { Page } from '../common/types.js';
import type { PageLocale } from '../common/locale.js';
import { emailSmsText } from './email-sms-messages.js';

/** The digits (and a leading +) of a phone number, as `tel:` and `sms:` URIs want it. */
export function dialableNumber(phone: string): string {
  const digits = phone.replace(/[^0-9]/g, '');
  return phone.trim().startsWith('+') ? `+${digits}` : digits;
}

/** RFC 6068: the address, then the fields percent-encoded, line breaks as CRLF. */
export function mailtoHref(address: string, fields: { subject?: string; body?: string } = {}): string {
  const query = Object.entries(fields)
    .filter(([, value]) => value)
    .map(([name, value]) => `${name}=${encodeURIComponent(value.replace(/\r\n|\r|\n/g, '\r\n'))}`);
  return `mailto:${encodeURIComponent(address).replace(/%40/g, '@')}${query.length ? `?${query.join('&')}` : ''}`;
}

export function renderEmailPage(data: LinkDataByType['email'], locale: PageLocale): PageContent {
  const t = (key: Parameters<typeof emailSmsText>[1], params?: Record<string, string>) => emailSmsText(locale, key, params);
  return {
    title: t('emailTitle', { email: data.email }),
    content: html`<h1>${t('emailHeading')}</h1>
<dl class="facts"><dt>${t('to')}</dt><dd>${data.email}</dd>${data.subject && html`<dt>${t('subject')}</dt><dd>${data.subject}</dd>`}</dl>
${data.body && html`<p class="card text">${data.body}</p>`}
<a class="button" href="${mailtoHref(data.email, { subject: data.subject, body: data.body })}">${t('writeEmail')}</a>
<p class="muted">${t('emailHint')}</p>`,
  };
}

/**
 * An `sms:` link with its text ready. RFC 5724's `?body=` is what Android reads, but iOS before 8
 * wanted `;body=` and later ones `&body=`; `sms:<number>?&body=<text>` is read by both platforms
 * (the empty first parameter is ignored), so one link works on every phone.
 */
export function smsHref(phone: string, message?: string): string {
  return `sms:${dialableNumber(phone)}${message ? `?&body=${encodeURIComponent(message)}` : ''}`;
}

export function renderSmsPage(data: LinkDataByType['sms'], locale: PageLocale): PageContent {
  const sms = smsHref(data.phone, data.message);
  return {
    title: emailSmsText(locale, 'smsTitle', { phone: data.phone }),
    content: html`<h1>${emailSmsText(locale, 'smsHeading')}</h1>
<dl class="facts"><dt>${emailSmsText(locale, 'to')}</dt><dd>${data.phone}</dd></dl>
${data.message && html`<p class="card text">${data.message}</p>`}
<a class="button" href="${sms}">${emailSmsText(locale, 'writeMessage')}</a>
<p class="muted">${emailSmsText(locale, 'smsHint')}</p>`,
  };
}
