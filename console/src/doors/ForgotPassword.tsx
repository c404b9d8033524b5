/** "Forgot password?": asks for a reset link by mail. The answer never says whether the address has an account. */
import { useState } from 'preact/hooks';
import { requestPasswordReset } from '../api/people.js';
import { DoorCard, DoorField, FormError, SubmitButton } from './Door.js';
import { formProblem } from './messages.js';

export function ForgotPassword() {
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    const address = email.trim();
    if (!/^[^\s@]+@[^\s@]+$/.test(address)) return setErrors({ email: 'Enter the whole email address you sign in with.' });
    setErrors({});
    setBusy(true);
    const answer = await requestPasswordReset(address);
    setBusy(false);
    if (answer.ok) return setSentTo(address);
    setErrors(formProblem(answer, ['email']));
  };

  if (sentTo) {
    return (
      <DoorCard title="Check your inbox">
        <p class="notice" role="status">
          If <strong>{sentTo}</strong> has an account, a link to choose a new password is on its way. It works once, for 30 minutes.
        </p>
        <p class="hint">Nothing after a few minutes? Look in the spam folder, or check the address and ask again.</p>
        <p class="door-links">
          <a href="#/">Back to sign in</a>
          <button type="button" class="ghost" onClick={() => setSentTo(null)}>
            Use another address
          </button>
        </p>
      </DoorCard>
    );
  }
  return (
    <DoorCard
      title="Reset your password"
      lead={<p class="hint">Enter the address you sign in with; we mail it a link to choose a new password.</p>}
    >
      {/* The API calls here answer a refusal rather than reject: `submit` never rejects. */}
      <form onSubmit={(e) => void submit(e)} noValidate class="door-form">
        <DoorField
          id="email"
          label="Email address"
          type="email"
          inputMode="email"
          autocomplete="username"
          autoFocus
          value={email}
          onInput={setEmail}
          error={errors.email}
        />
        <FormError message={errors.form} />
        <SubmitButton busy={busy} label="Send the link" busyLabel="Sending…" />
      </form>
      <p class="door-links">
        <a href="#/">Back to sign in</a>
      </p>
    </DoorCard>
  );
}
