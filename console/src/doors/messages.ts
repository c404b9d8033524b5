/** What a refused sign-in, setup, join or reset means, in words, and which field it belongs to. */
import type { Refusal } from '../api/people.js';

export const UNREACHABLE_SERVER = 'The server cannot be reached. Check your connection and try again.';

/** "in 40 seconds", "in about 3 minutes", "in about 2 hours". */
export function waitInWords(seconds: number): string {
  if (seconds < 60) return `in ${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `in about ${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.ceil(minutes / 60);
  return `in about ${hours} hour${hours === 1 ? '' : 's'}`;
}

/** Words for the refusals every door shares; null for one the screen words itself. */
function common(r: Refusal): string | null {
  if (r.status === 0) return r.message ?? UNREACHABLE_SERVER;
  switch (r.code) {
    case 'csrf_rejected':
      return 'This request came from another site and was refused to protect you. Open the console at its own address and try again.';
    case 'sign_in_attempts_exceeded':
      return `Too many failed sign-ins for this address. To keep the account safe, try again ${waitInWords(r.retryAfterSeconds ?? 60)}, or reset your password.`;
    case 'rate_limited':
    case 'too_many_requests':
      return `Too many tries from here. Try again ${waitInWords(r.retryAfterSeconds ?? 60)}.`;
  }
  if (r.status === 429) return `Too many tries. Try again ${waitInWords(r.retryAfterSeconds ?? 60)}.`;
  return null;
}

function fallback(r: Refusal): string {
  return r.message ? `${r.message.replace(/\.$/, '')}.` : `The server answered ${r.status}; try again.`;
}

export type SignInStep = 'password' | 'code';

/** A refused POST /sessions: the words, and the field they belong beside. */
export function signInProblem(r: Refusal, step: SignInStep): { field: 'email' | 'password' | 'code'; message: string } {
  const shared = common(r);
  const at = step === 'code' ? 'code' : 'password';
  if (shared) return { field: at, message: shared };
  switch (r.code) {
    case 'invalid_credentials':
      return { field: 'password', message: 'That email address and password do not match. Check both, or reset your password.' };
    case 'totp_invalid':
      return {
        field: 'code',
        message: 'That code is not right, or it has been used. Enter the current code from your app, or an unused recovery code.',
      };
    case 'totp_required':
      return { field: 'code', message: 'Enter the code from your authenticator app.' };
  }
  if (r.fields.email) return { field: 'email', message: `Check the email address: ${r.fields.email}.` };
  if (r.fields.password) return { field: 'password', message: `Check the password: ${r.fields.password}.` };
  return { field: at, message: fallback(r) };
}

/** A refused form of the other doors (setup, join, reset): words by field, `form` for the whole form. */
export function formProblem(r: Refusal, fieldNames: readonly string[]): Record<string, string> {
  const shared = common(r);
  if (shared) return { form: shared };
  const byCode: Record<string, [field: string, message: string]> = {
    invalid_credentials: ['password', 'That is not the password of this address. Use the one you sign in with, or reset it first.'],
    setup_done: ['form', 'This qrlinks is already set up. Sign in instead.'],
    setup_link_invalid: ['form', 'This setup link has been used or was mistyped. Print a fresh one with npm run cli -- setup-link.'],
    totp_invalid: [
      'code',
      'That code is not right, or it has been used. Enter the current code from your app, or an unused recovery code.',
    ],
    invitation_not_found: ['form', 'This invitation is not valid any more: it was used, withdrawn, or mistyped. Ask for a new one.'],
    invitation_expired: ['form', 'This invitation has expired. Ask whoever invited you to send it again.'],
    reset_link_invalid: [
      'form',
      'This reset link is not valid any more: it was used, has expired (links last 30 minutes), or was mistyped. Ask for a new one.',
    ],
    email_taken: ['email', 'A person with this email address already exists.'],
    registration_closed: ['form', 'New people cannot join this qrlinks; ask its operator.'],
  };
  const known = r.code ? byCode[r.code] : undefined;
  if (known) return { [fieldNames.includes(known[0]) ? known[0] : 'form']: known[1] };
  const fields: Record<string, string> = {};
  for (const name of fieldNames) if (r.fields[name]) fields[name] = `${r.fields[name]}.`.replace(/\.\.$/, '.');
  return Object.keys(fields).length ? fields : { form: fallback(r) };
}
