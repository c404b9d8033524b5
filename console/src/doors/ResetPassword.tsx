/** The page a reset mail links to: a new password, then signed in (every other session has ended). */
import { useState } from 'preact/hooks';
import type { Me } from '../api/client.js';
import { completePasswordReset } from '../api/people.js';
import { DoorCard, DoorField, FormError, SubmitButton } from './Door.js';
import { formProblem } from './messages.js';
import { NEW_PASSWORD_HINT, newPasswordProblem } from './passwords.js';

export function ResetPassword({ token, onSignedIn }: { token: string; onSignedIn(me: Me): void }) {
  const [password, setPassword] = useState('');
  // With two-factor on, the code is asked for as at sign-in (the link alone is not enough).
  const [code, setCode] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  if (!token) return <BrokenLink />;

  const submit = async (event: Event) => {
    event.preventDefault();
    const problem = newPasswordProblem(password);
    if (problem) return setErrors({ password: problem });
    if (code !== null && !code.trim())
      return setErrors({ code: 'Enter the 6-digit code from your authenticator app, or a recovery code.' });
    setErrors({});
    setBusy(true);
    const answer = await completePasswordReset(token, password, code?.replace(/\s+/g, ''));
    setBusy(false);
    if (answer.ok) return onSignedIn(answer.me);
    if (answer.code === 'totp_required') return setCode('');
    setErrors(formProblem(answer, ['password', 'code']));
  };

  return (
    <DoorCard title="Choose a new password" lead={<p class="hint">Saving it signs you in here and out everywhere else.</p>}>
      {/* The API calls here answer a refusal rather than reject: `submit` never rejects. */}
      <form onSubmit={(e) => void submit(e)} noValidate class="door-form">
        <DoorField
          id="new-password"
          label="New password"
          type="password"
          autocomplete="new-password"
          autoFocus
          value={password}
          onInput={setPassword}
          error={errors.password}
          hint={NEW_PASSWORD_HINT}
        />
        {code !== null && (
          <DoorField
            id="totp"
            label="Authentication code"
            inputMode="numeric"
            autocomplete="one-time-code"
            maxLength={20}
            autoFocus
            value={code}
            onInput={setCode}
            error={errors.code}
            hint="Two-factor authentication is on: the 6-digit code from your authenticator app, or one of your recovery codes."
          />
        )}
        <FormError message={errors.form} />
        <SubmitButton busy={busy} label="Save and sign in" busyLabel="Saving…" />
      </form>
      {errors.form && (
        <p class="door-links">
          <a href="#/forgot-password">Ask for a new link</a>
        </p>
      )}
    </DoorCard>
  );
}

function BrokenLink() {
  return (
    <DoorCard title="This link is incomplete">
      <p>The address has no reset token. Open the link from the mail again, whole, or ask for a new one.</p>
      <p class="door-links">
        <a href="#/forgot-password">Ask for a new link</a>
        <a href="#/">Back to sign in</a>
      </p>
    </DoorCard>
  );
}
