/**
 * The mails people get: an invitation, a password reset, the notice that a password changed, and
 * the notice that a brand domain of their account changed state.
 * Each is plain text and HTML with the same words. Names (accounts, people) are whatever their
 * owners typed: in HTML they are escaped, and everywhere a line break or other control character
 * in them becomes a space, so a name cannot add lines (or headers) to a mail.
 */

export interface Mail {
  subject: string;
  text: string;
  html: string;
}

/** The roles an invitation can offer (domain/people/roles.ts's ROLES). */
type InvitedRole = 'owner' | 'admin' | 'editor' | 'viewer' | 'client';

const ROLE_WITH_ARTICLE: Record<InvitedRole, string> = {
  owner: 'an owner',
  admin: 'an admin',
  editor: 'an editor',
  viewer: 'a viewer',
  client: 'a client',
};

/** Longest a name is shown in a subject; the body shows it whole. */
const SUBJECT_NAME_CHARS = 60;

export function invitationMail({
  accountName,
  inviterName,
  role,
  link,
  expiresAt,
}: {
  accountName: string;
  /** Null when nobody in particular invited (an operator's CLI). */
  inviterName: string | null;
  role: InvitedRole;
  link: string;
  expiresAt: Date;
}): Mail {
  const account = oneLine(accountName);
  const inviter = inviterName === null ? null : oneLine(inviterName);
  const who = inviter ? `${cut(inviter)} invited you` : 'You are invited';
  const subject = `${who} to ${cut(account)} on qrlinks`;
  const opening = `${inviter ? `${inviter} invited you` : 'You are invited'} to join ${account} on qrlinks as ${ROLE_WITH_ARTICLE[role]}.`;
  const expiry = `The invitation expires ${when(expiresAt)}. If you did not expect it, ignore this mail.`;
  return {
    subject,
    text: [opening, '', 'Accept the invitation:', link, '', expiry].join('\n'),
    html: page([paragraph(opening), button(link, 'Accept the invitation'), linkAsText(link), paragraph(expiry)]),
  };
}

export function passwordResetMail({ link, expiresAt }: { link: string; expiresAt: Date }): Mail {
  const opening = 'Someone (we hope you) asked to reset the password of your qrlinks sign-in.';
  const expiry = `The link works once and expires ${when(expiresAt)}. If you did not ask, ignore this mail: your password stays as it is.`;
  return {
    subject: 'Reset your qrlinks password',
    text: [opening, '', 'Choose a new password:', link, '', expiry].join('\n'),
    html: page([paragraph(opening), button(link, 'Choose a new password'), linkAsText(link), paragraph(expiry)]),
  };
}

export function passwordChangedMail(): Mail {
  const lines = [
    'The password of your qrlinks sign-in was just changed, and your other sessions were signed out.',
    'If that was not you, reset your password now from the sign-in page, and tell the owner of your account.',
  ];
  return {
    subject: 'Your qrlinks password was changed',
    text: lines.join('\n\n'),
    html: page(lines.map(paragraph)),
  };
}

/** "on 6 Dec 2026 at 14:00 UTC": the reader's time zone is not known, so UTC, said so. */
/**
 * To an account's owners when a re-check moves a brand domain: it stopped pointing at the service
 * (its links keep answering once it does again; the records to set are listed beside what was
 * found), or it points here again.
 */
export function domainStateMail({
  accountName,
  hostname,
  state,
  records,
  link,
}: {
  accountName: string;
  hostname: string;
  state: 'verified' | 'misconfigured';
  /** One line each: the record to set and what was found there. */
  records: string[];
  /** The console. */
  link: string;
}): Mail {
  const account = oneLine(accountName);
  const broken = state === 'misconfigured';
  const subject = broken
    ? `${hostname} no longer points at qrlinks (${cut(account)})`
    : `${hostname} points at qrlinks again (${cut(account)})`;
  const opening = broken
    ? `The domain ${hostname} of ${account} no longer resolves to qrlinks only, so some or all of its visitors may not reach its links. Nothing was removed: it works again as soon as its DNS records do.`
    : `The domain ${hostname} of ${account} resolves to qrlinks again, and its links answer there.`;
  const lines = records.map(oneLine);
  return {
    subject,
    text: [opening, '', ...(broken ? ['The records to set, beside what was found:', ...lines, ''] : []), 'The console:', link].join('\n'),
    html: page([
      paragraph(opening),
      ...(broken ? [paragraph('The records to set, beside what was found:'), ...lines.map(paragraph)] : []),
      button(link, 'Open the console'),
      linkAsText(link),
    ]),
  };
}

/** An endpoint the service stopped delivering to: why, and where to turn it on again. */
export function webhookDisabledMail({
  accountName,
  url,
  reason,
  failures,
  link,
}: {
  accountName: string;
  url: string;
  reason: 'gone' | 'failing';
  failures: number;
  link: string;
}): Mail {
  const account = oneLine(accountName);
  const target = oneLine(url);
  const why =
    reason === 'gone'
      ? `it answered 410 Gone, which says it no longer wants deliveries`
      : `its last ${failures} delivery attempts in a row failed`;
  const opening = `qrlinks stopped sending webhooks of ${account} to ${target}: ${why}. Events from now on are not sent to it; turn it on again in the console once it answers, and replay what it missed from its delivery log.`;
  return {
    subject: `A webhook of ${cut(account)} was turned off`,
    text: [opening, '', 'The console:', link].join('\n'),
    html: page([paragraph(opening), button(link, 'Open the console'), linkAsText(link)]),
  };
}

function when(at: Date): string {
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const time = `${String(at.getUTCHours()).padStart(2, '0')}:${String(at.getUTCMinutes()).padStart(2, '0')}`;
  return `on ${at.getUTCDate()} ${months[at.getUTCMonth()]} ${at.getUTCFullYear()} at ${time} UTC`;
}

function oneLine(name: string): string {
  return name.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').trim() || '(no name)';
}

function cut(name: string): string {
  const chars = [...name];
  return chars.length > SUBJECT_NAME_CHARS ? `${chars.slice(0, SUBJECT_NAME_CHARS - 1).join('')}…` : name;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

function paragraph(text: string): string {
  return `<p style="margin:0 0 16px">${escapeHtml(text)}</p>`;
}

function button(link: string, label: string): string {
  return (
    `<p style="margin:0 0 16px"><a href="${escapeHtml(link)}" ` +
    `style="display:inline-block;padding:10px 18px;border-radius:6px;background:#1d4ed8;color:#ffffff;text-decoration:none;font-weight:600">` +
    `${escapeHtml(label)}</a></p>`
  );
}

/** The link written out too, for mail readers that show no buttons. */
function linkAsText(link: string): string {
  return `<p style="margin:0 0 16px;font-size:13px;color:#555555;word-break:break-all">${escapeHtml(link)}</p>`;
}

function page(body: string[]): string {
  return (
    '<!doctype html><html><body style="margin:0;padding:24px;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;font-size:15px;line-height:1.5;color:#111111">' +
    `<div style="max-width:560px">${body.join('')}</div></body></html>`
  );
}
