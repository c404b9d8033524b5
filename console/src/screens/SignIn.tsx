/**
 * The way in: a person signs in with their email address and password (and, with two-factor on,
 * a code); single sign-on when the server offers it; below, for machines and operators, an API
 * key as before. docs/decisions/0413-the-consoles-way-in.md says what each one leaves behind.
 */
import { useRef, useState } from 'preact/hooks';
import { fetchMe, type Me } from '../api/client.js';
import { signInWithPassword } from '../api/people.js';
import { DoorCard, DoorField, SubmitButton } from '../doors/Door.js';
import { signInProblem, type SignInStep } from '../doors/messages.js';
import { SsoButton } from '../SsoButton.js';

interface Props {
  /** A note shown above the form: signed out, a session that ended, or a saved key no longer accepted. */
  notice: string | null;
  /** The key form starts open (a saved key was just refused). */
  keyFirst?: boolean;
  onSignedIn(me: Me): void;
  onSignedInWithKey(key: string, me: Me, remember: boolean): void;
}

type Errors = Partial<Record<'email' | 'password' | 'code', string>>;

export function SignIn({ notice, keyFirst = false, onSignedIn, onSignedInWithKey }: Props) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [step, setStep] = useState<SignInStep>('password');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const codeField = useRef<HTMLDivElement>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    const missing: Errors = {};
    if (step === 'password') {
      if (!email.trim()) missing.email = 'Enter the email address you sign in with.';
      else if (!/^[^\s@]+@[^\s@]+$/.test(email.trim())) missing.email = 'Enter a whole email address, like ana@example.com.';
      if (!password) missing.password = 'Enter your password.';
    } else if (!code.trim()) missing.code = 'Enter the 6-digit code from your authenticator app, or a recovery code.';
    setErrors(missing);
    if (Object.keys(missing).length) return;
    setBusy(true);
    const answer = await signInWithPassword(email.trim(), password, step === 'code' ? code.replace(/\s+/g, '') : undefined);
    setBusy(false);
    if (answer.ok) return onSignedIn(answer.me);
    if (answer.code === 'totp_required' && step === 'password') {
      setStep('code');
      setErrors({});
      // The code's field replaces the password's; focus follows it.
      requestAnimationFrame(() => codeField.current?.querySelector('input')?.focus());
      return;
    }
    const problem = signInProblem(answer, step);
    setErrors({ [problem.field]: problem.message });
  };

  const back = () => {
    setStep('password');
    setCode('');
    setErrors({});
  };

  return (
    <DoorCard
      title={step === 'code' ? 'Two-factor check' : 'Sign in to qrlinks'}
      lead={
        notice && (
          <p class="notice" role="status">
            {notice}
          </p>
        )
      }
    >
      {/* The API calls here answer a refusal rather than reject: `submit` never rejects. */}
      <form onSubmit={(e) => void submit(e)} noValidate class="door-form">
        {step === 'password' ? (
          <>
            <DoorField
              id="email"
              label="Email address"
              type="email"
              inputMode="email"
              autocomplete="username"
              autoFocus={!keyFirst}
              value={email}
              onInput={setEmail}
              error={errors.email}
            />
            <DoorField
              id="password"
              label="Password"
              type="password"
              autocomplete="current-password"
              value={password}
              onInput={setPassword}
              error={errors.password}
            />
            <p class="door-aside">
              <a href="#/forgot-password">Forgot password?</a>
            </p>
            <SubmitButton busy={busy} label="Sign in" busyLabel="Signing in…" />
          </>
        ) : (
          <>
            <p class="hint">
              Two-factor authentication is on for <strong>{email.trim()}</strong>.
            </p>
            <div ref={codeField}>
              <DoorField
                id="totp"
                label="Authentication code"
                inputMode="numeric"
                autocomplete="one-time-code"
                maxLength={20}
                value={code}
                onInput={setCode}
                error={errors.code}
                hint="The 6-digit code from your authenticator app. Lost your phone? Enter one of your recovery codes instead."
              />
            </div>
            <SubmitButton busy={busy} label="Verify and sign in" busyLabel="Checking…" />
            <button type="button" class="ghost wide door-back" onClick={back}>
              Use another account
            </button>
          </>
        )}
      </form>
      {step === 'password' && <SsoButton />}
      <KeySignIn open={keyFirst} onSignedIn={onSignedInWithKey} />
    </DoorCard>
  );
}

/** Signing in with an API key, as the console did first: for scripts' owners and operators. */
function KeySignIn({ open, onSignedIn }: { open: boolean; onSignedIn(key: string, me: Me, remember: boolean): void }) {
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
    <details class="key-sign-in" open={open}>
      <summary>For machines and operators: sign in with an API key</summary>
      {/* The API calls here answer a refusal rather than reject: `submit` never rejects. */}
      <form onSubmit={(e) => void submit(e)} noValidate>
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
        <button type="submit" class="wide" disabled={checking} aria-busy={checking}>
          {checking ? 'Checking…' : 'Sign in with key'}
        </button>
      </form>
    </details>
  );
}
