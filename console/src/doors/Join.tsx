/**
 * An invitation's page (`#/join?token=…`): who invited whom to what, then a password (and a name)
 * for someone new, or their own password for someone who already has one; then signed in, in
 * the account they joined.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Me } from '../api/client.js';
import { acceptInvitation, lookUpInvitation, type Invitation } from '../api/people.js';
import { DoorCard, DoorField, FormError, SubmitButton } from './Door.js';
import { invitationSentence } from './invitation.js';
import { formProblem } from './messages.js';
import { NEW_PASSWORD_HINT, newPasswordProblem } from './passwords.js';

type Lookup = { state: 'asking' } | { state: 'found'; invitation: Invitation } | { state: 'refused'; message: string };

export function Join({ token, onSignedIn }: { token: string; onSignedIn(me: Me): void }) {
  const [lookup, setLookup] = useState<Lookup>({ state: 'asking' });
  useEffect(() => {
    if (!token)
      return setLookup({
        state: 'refused',
        message: 'The address has no invitation token. Open the link from the invitation again, whole.',
      });
    void lookUpInvitation(token).then((answer) =>
      setLookup(
        answer.ok ? { state: 'found', invitation: answer.data } : { state: 'refused', message: formProblem(answer, []).form ?? '' },
      ),
    );
  }, [token]);

  if (lookup.state === 'asking')
    return (
      <DoorCard title="Join qrlinks">
        <p role="status">Opening the invitation…</p>
      </DoorCard>
    );
  if (lookup.state === 'refused')
    return (
      <DoorCard title="This invitation cannot be used">
        <FormError message={lookup.message} />
        <p class="door-links">
          <a href="#/">Go to sign in</a>
        </p>
      </DoorCard>
    );
  return <JoinForm token={token} invitation={lookup.invitation} onSignedIn={onSignedIn} />;
}

function JoinForm({ token, invitation, onSignedIn }: { token: string; invitation: Invitation; onSignedIn(me: Me): void }) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  // null until the server asks for the second step (the address signs in with two-factor on).
  const [code, setCode] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const existing = invitation.userExists;

  const submit = async (event: Event) => {
    event.preventDefault();
    const problem = existing ? (password ? null : 'Enter your password.') : newPasswordProblem(password);
    if (problem) return setErrors({ password: problem });
    if (code !== null && !code.trim())
      return setErrors({ code: 'Enter the 6-digit code from your authenticator app, or a recovery code.' });
    setErrors({});
    setBusy(true);
    const answer = await acceptInvitation(token, password, existing ? undefined : name.trim() || undefined, code?.replace(/\s+/g, ''));
    setBusy(false);
    if (answer.ok) return onSignedIn(answer.me);
    if (answer.code === 'totp_required') return setCode('');
    setErrors(formProblem(answer, ['name', 'password', 'code']));
  };

  return (
    <DoorCard
      title={`Join ${invitation.accountName}`}
      lead={
        <p class="invitation">
          {invitationSentence(invitation)}.{' '}
          {existing ? 'Sign in with your password to accept.' : 'Choose a password to create your sign-in.'}
        </p>
      }
    >
      {/* The API calls here answer a refusal rather than reject: `submit` never rejects. */}
      <form onSubmit={(e) => void submit(e)} noValidate class="door-form">
        <DoorField
          id="email"
          label="Email address"
          type="email"
          autocomplete="username"
          readOnly
          value={invitation.email}
          onInput={() => undefined}
        />
        {!existing && (
          <DoorField id="name" label="Your name" autocomplete="name" autoFocus value={name} onInput={setName} error={errors.name} />
        )}
        <DoorField
          id="password"
          label={existing ? 'Your password' : 'Choose a password'}
          type="password"
          autocomplete={existing ? 'current-password' : 'new-password'}
          autoFocus={existing}
          value={password}
          onInput={setPassword}
          error={errors.password}
          hint={existing ? undefined : NEW_PASSWORD_HINT}
        />
        {existing && (
          <p class="door-aside">
            <a href="#/forgot-password">Forgot password?</a>
          </p>
        )}
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
        <SubmitButton busy={busy} label={existing ? 'Accept and sign in' : 'Join'} busyLabel="Joining…" />
      </form>
    </DoorCard>
  );
}
