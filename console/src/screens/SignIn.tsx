import { useState } from 'preact/hooks';
import { fetchMe, type Me } from '../api/client.js';

interface Props {
  /** A note shown above the form: signed out, or a saved key no longer accepted. */
  notice: string | null;
  onSignedIn(key: string, me: Me, remember: boolean): void;
}

export function SignIn({ notice, onSignedIn }: Props) {
  const [key, setKey] = useState('');
  const [remember, setRemember] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const trimmed = key.trim();
    if (!trimmed) return setError('Paste an API key first. The CLI prints one: npm run cli -- key create.');
    setChecking(true);
    setError(null);
    const result = await fetchMe(trimmed);
    setChecking(false);
    if (result.ok) onSignedIn(trimmed, result.me, remember);
    else setError(result.message);
  };

  return (
    <main class="sign-in">
      <h1>qrlinks console</h1>
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <form onSubmit={submit} noValidate>
        <label for="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autocomplete="off"
          spellcheck={false}
          value={key}
          onInput={(e) => setKey(e.currentTarget.value)}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={error ? 'api-key-error' : 'api-key-help'}
        />
        {error ? (
          <p id="api-key-error" class="field-error" role="alert">
            {error}
          </p>
        ) : (
          <p id="api-key-help" class="hint">
            A key looks like <code>key-</code> followed by 32 letters and digits.
          </p>
        )}
        <div class="check">
          <input
            id="remember"
            type="checkbox"
            checked={remember}
            onChange={(e) => setRemember(e.currentTarget.checked)}
            aria-describedby="remember-help"
          />
          <label for="remember">Remember on this device</label>
        </div>
        <p id="remember-help" class="hint">
          Unchecked, the key is kept only in this tab and forgotten when it closes. Checked, it is saved in this browser's local storage
          until you sign out; leave it unchecked on a shared computer.
        </p>
        <button type="submit" disabled={checking}>
          {checking ? 'Checking…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
