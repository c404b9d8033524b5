/**
 * The single sign-on button, with the operator's words ("Sign in with SSO"): shown only when the server says single sign-on is set up
 * (GET /sessions/oidc/config); hidden while it is asked, when it is off, and on a server that
 * has no such route. The link leaves for the provider and comes back signed in.
 */
import { useEffect, useState } from 'preact/hooks';
import { ssoConfig } from './api/people.js';
import { useRoute } from './router.js';
import { Icon } from './ui/Icon.js';
import { ssoFailureMessage } from '#domain/people/sso-failures.js';

export function SsoButton() {
  const [label, setLabel] = useState<string | null>(null);
  // A single sign-on the server refused comes back as `#/signin?error=<code>`.
  const route = useRoute();
  const failure = route.startsWith('/signin?') ? ssoFailureMessage(new URLSearchParams(route.split('?')[1]).get('error')) : null;
  useEffect(() => {
    let shown = true;
    void ssoConfig().then((config) => shown && setLabel(config.enabled ? config.label : null));
    return () => {
      shown = false;
    };
  }, []);
  if (!label && !failure) return null;
  return (
    <div class="sso">
      <p class="divider" aria-hidden="true">
        <span>or</span>
      </p>
      {failure && (
        <p class="field-error" role="alert">
          {failure}
        </p>
      )}
      {label && (
        <a class="button wide" href="/api/v1/sessions/oidc">
          <Icon name="shield-lock" />
          {label}
        </a>
      )}
    </div>
  );
}
