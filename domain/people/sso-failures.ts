/**
 * Why a single sign-on did not sign the person in: the code the callback sends the browser back
 * to the console with (`/#/signin?error=<code>`), and the words the console shows for it. Plain
 * data, so the console bundles the same list the api uses (docs/decisions/0406).
 */
export const SSO_FAILURES = {
  sso_state_invalid: 'This sign-in expired, was already used or was not started here. Start again with the button below.',
  sso_denied: 'The sign-in was cancelled at your identity provider.',
  sso_provider_error: 'Your identity provider’s answer could not be verified. Try again; if it keeps happening, tell your administrator.',
  sso_provider_unreachable: 'Your identity provider did not answer. Try again in a little while.',
  sso_email_unverified: 'Your identity provider has not verified your email address, so it cannot sign you in here.',
  sso_email_unusable: 'The email address your identity provider gave cannot be used here (letters of the Latin alphabet before the @).',
  sso_domain_not_allowed: 'People of your email’s domain may not sign in here. Ask an administrator for an invitation.',
  sso_no_account: 'You have no account here yet. Ask an administrator to invite you, then sign in with SSO again.',
  sso_identity_mismatch: 'This email address is linked to another identity at your provider. Ask an administrator to help.',
} as const;

export type SsoFailure = keyof typeof SSO_FAILURES;

/** The words for a code read from the address bar (anything else: none). */
export function ssoFailureMessage(code: string | null): string | null {
  return code !== null && Object.hasOwn(SSO_FAILURES, code) ? SSO_FAILURES[code as SsoFailure] : null;
}
