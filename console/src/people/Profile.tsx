/**
 * The Profile page (#/profile, from the person menu): the signed-in person's name, password,
 * two-factor sign-in and where they are signed in. A key has no person: nav.ts keeps it out.
 */
import { useState } from 'preact/hooks';
import type { Me } from '../api/client.js';
import { showToast } from '../ui/toasts.js';
import { attempt } from './calls.js';
import { Sessions } from './Sessions.js';
import { TwoFactor } from './TwoFactor.js';
import './people.css';

export interface ProfileProps {
  me: Me;
  /** The person changed (name, two-factor): the header and the menu show the new `me`. */
  onMe(me: Me): void;
}

export function Profile({ me, onMe }: ProfileProps) {
  const [sessionsVersion, setSessionsVersion] = useState(0);
  const user = me.user!;
  return (
    <section class="people profile" aria-labelledby="profile-title">
      <div class="people-head">
        <h1 id="profile-title">Profile</h1>
      </div>
      <p class="hint">
        Signed in as <strong>{user.email}</strong>, {me.role} of {me.account.name}.
      </p>
      <div class="profile-grid">
        <NameForm me={me} onMe={onMe} />
        <PasswordForm email={user.email} onChanged={() => setSessionsVersion((v) => v + 1)} />
        <TwoFactor me={me} onMe={onMe} />
        <Sessions version={sessionsVersion} />
      </div>
    </section>
  );
}

function NameForm({ me, onMe }: ProfileProps) {
  const [name, setName] = useState(me.user?.name ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    const answer = await attempt((c) => c.PATCH('/api/v1/me', { body: { name } }));
    setBusy(false);
    if (!answer.ok) return setError(answer.message);
    setError(null);
    onMe(answer.data);
    showToast('Name saved', { tone: 'success', anchor: event.currentTarget as Element });
  };
  return (
    <form class="card" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="name-title">
      <h2 id="name-title">Your name</h2>
      <label class="field-label" for="profile-name">
        Name
      </label>
      <input
        id="profile-name"
        value={name}
        maxLength={200}
        autoComplete="name"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'profile-name-error' : 'profile-name-hint'}
        onInput={(e) => setName(e.currentTarget.value)}
      />
      <p class="hint" id="profile-name-hint">
        Shown to the people of your accounts and in the activity log.
      </p>
      {error && (
        <p class="field-error" id="profile-name-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" disabled={busy || name.trim() === (me.user?.name ?? '').trim()}>
        {busy ? 'Saving…' : 'Save name'}
      </button>
    </form>
  );
}

function PasswordForm({ email, onChanged }: { email: string; onChanged(): void }) {
  const [errors, setErrors] = useState<{ current?: string; next?: string; repeat?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const currentPassword = String(data.get('currentPassword') ?? '');
    const newPassword = String(data.get('newPassword') ?? '');
    const repeat = String(data.get('repeat') ?? '');
    if (!currentPassword) return setErrors({ current: 'Enter your current password.' });
    if (newPassword.length < 10) return setErrors({ next: 'A new password has at least 10 characters.' });
    if (repeat !== newPassword) return setErrors({ repeat: 'The two new passwords differ.' });
    setBusy(true);
    const answer = await attempt((c) => c.POST('/api/v1/me/password', { body: { currentPassword, newPassword } }));
    setBusy(false);
    if (!answer.ok) {
      if (answer.code === 'password_incorrect') return setErrors({ current: answer.message });
      if (answer.field === 'newPassword' || answer.code === 'password_too_weak') return setErrors({ next: answer.message });
      return setErrors({ form: answer.message });
    }
    setErrors({});
    form.reset();
    const ended = answer.data.otherSessionsEnded;
    showToast(ended > 0 ? `Password changed; ${ended} other session${ended === 1 ? ' was' : 's were'} signed out` : 'Password changed', {
      tone: 'success',
      anchor: form,
    });
    onChanged();
  };
  const field = (id: string, name: string, label: string, auto: string, error: string | undefined) => (
    <>
      <label class="field-label" for={id}>
        {label}
      </label>
      <input
        id={id}
        name={name}
        type="password"
        autoComplete={auto}
        maxLength={200}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && (
        <p class="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </>
  );
  return (
    <form class="card" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      {/* For the browser's password manager: whose password this is. */}
      <input type="email" name="username" autoComplete="username" value={email} hidden readOnly />
      {field('current-password', 'currentPassword', 'Current password', 'current-password', errors.current)}
      {field('new-password', 'newPassword', 'New password', 'new-password', errors.next)}
      {field('repeat-password', 'repeat', 'New password again', 'new-password', errors.repeat)}
      <p class="hint">10 characters or more. Your other sessions are signed out when it changes.</p>
      {errors.form && (
        <p class="field-error" role="alert">
          {errors.form}
        </p>
      )}
      <button type="submit" disabled={busy}>
        {busy ? 'Changing…' : 'Change password'}
      </button>
    </form>
  );
}
