/**
 * Email addresses as people type them, and the key that tells two apart. `Ana@Example.COM` and
 * `ana@example.com` are one person; so are addresses that differ only by compatibility forms
 * (full-width letters, ligatures: NFKC) or by an IDN domain written in Unicode or in punycode.
 * A local part outside printable ASCII is refused rather than guessed at: mail servers differ on
 * it, and it is where look-alike letters (a Cyrillic "а" for a Latin "a") hide.
 */
import { domainToASCII } from 'node:url';
import { ValidationError } from '../errors.js';

const MAX_EMAIL = 254;

export function emailKey(email: string): string {
  const trimmed = email.normalize('NFKC').trim();
  const at = trimmed.lastIndexOf('@');
  const local = at > 0 ? trimmed.slice(0, at) : '';
  const domain = at > 0 ? domainToASCII(trimmed.slice(at + 1).toLowerCase()) : '';
  if (
    trimmed.length > MAX_EMAIL ||
    !local ||
    !domain ||
    !/^[\x21-\x7e]+$/.test(local) ||
    local.includes('@') ||
    !/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain)
  ) {
    throw new ValidationError([
      { path: 'email', message: 'Enter an email address such as ana@example.com (letters of the Latin alphabet before the @)' },
    ]);
  }
  return `${local.toLowerCase()}@${domain}`;
}

/** The address as typed, trimmed; checked by emailKey. */
export function cleanEmail(email: string): string {
  emailKey(email);
  return email.normalize('NFKC').trim();
}
