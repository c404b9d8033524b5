/**
 * First start (`#/setup?token=…`, the link the server prints while it has nobody): the first
 * account and its owner in one form, then signed in as them.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Me } from '../api/client.js';
import { completeSetup, setupNeeded } from '../api/people.js';
import { DoorCard, DoorField, FormError, SubmitButton } from './Door.js';
import { formProblem, UNREACHABLE_SERVER } from './messages.js';
import { NEW_PASSWORD_HINT, newPasswordProblem } from './passwords.js';

type Needed = 'asking' | 'yes' | 'no' | { failed: string };

export function Setup({ token, onSignedIn }: { token: string; onSignedIn(me: Me): void }) {
  const [needed, setNeeded] = useState<Needed>('asking');
  useEffect(() => {
    void setupNeeded().then((answer) =>
      setNeeded(
        answer.ok
          ? answer.data.needed
            ? 'yes'
            : 'no'
          : { failed: answer.status === 0 ? UNREACHABLE_SERVER : (answer.message ?? `The server answered ${answer.status}.`) },
      ),
    );
  }, []);

  if (needed === 'asking')
    return (
      <DoorCard title="Set up qrlinks">
        <p role="status">Checking whether this qrlinks is set up…</p>
      </DoorCard>
    );
  if (needed === 'no')
    return (
      <DoorCard title="qrlinks is set up">
        <p>This qrlinks already has its first account, so this link has no use any more. Sign in, or ask an admin to invite you.</p>
        <p class="door-links">
          <a href="#/">Go to sign in</a>
        </p>
      </DoorCard>
    );
  if (typeof needed === 'object')
    return (
      <DoorCard title="Set up qrlinks">
        <FormError message={needed.failed} />
      </DoorCard>
    );
  if (!token)
    return (
      <DoorCard title="Set up qrlinks">
        <p>
          Setting up needs the one-time link the server printed when it first started. Print a fresh one with{' '}
          <code>npm run cli -- setup-link</code> and open it here.
        </p>
      </DoorCard>
    );
  return <SetupForm token={token} onSignedIn={onSignedIn} />;
}

const FIELDS = ['accountName', 'name', 'email', 'password'] as const;

function SetupForm({ token, onSignedIn }: { token: string; onSignedIn(me: Me): void }) {
  const [form, setForm] = useState<Record<(typeof FIELDS)[number], string>>({ accountName: '', name: '', email: '', password: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const set = (field: (typeof FIELDS)[number]) => (value: string) => setForm({ ...form, [field]: value });

  const submit = async (event: Event) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (!form.accountName.trim()) found.accountName = 'Name the account: your business, or what the links are for.';
    if (!/^[^\s@]+@[^\s@]+$/.test(form.email.trim())) found.email = 'Enter a whole email address, like ana@example.com.';
    const weak = newPasswordProblem(form.password);
    if (weak) found.password = weak;
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    const answer = await completeSetup({
      token,
      accountName: form.accountName.trim(),
      name: form.name.trim(),
      email: form.email.trim(),
      password: form.password,
    });
    setBusy(false);
    if (answer.ok) return onSignedIn(answer.me);
    setErrors(formProblem(answer, FIELDS));
  };

  return (
    <DoorCard
      title="Set up qrlinks"
      lead={<p class="hint">Create the first account and its owner: you. You can invite the rest of your team from inside.</p>}
    >
      {/* The API calls here answer a refusal rather than reject: `submit` never rejects. */}
      <form onSubmit={(e) => void submit(e)} noValidate class="door-form">
        <DoorField
          id="accountName"
          label="Account name"
          autocomplete="organization"
          autoFocus
          value={form.accountName}
          onInput={set('accountName')}
          error={errors.accountName}
          hint="Your business or team, like “Aroma Lisboa”."
        />
        <DoorField id="name" label="Your name" autocomplete="name" value={form.name} onInput={set('name')} error={errors.name} />
        <DoorField
          id="email"
          label="Email address"
          type="email"
          inputMode="email"
          autocomplete="username"
          value={form.email}
          onInput={set('email')}
          error={errors.email}
        />
        <DoorField
          id="password"
          label="Password"
          type="password"
          autocomplete="new-password"
          value={form.password}
          onInput={set('password')}
          error={errors.password}
          hint={NEW_PASSWORD_HINT}
        />
        <FormError message={errors.form} />
        <SubmitButton busy={busy} label="Create account" busyLabel="Creating…" />
      </form>
    </DoorCard>
  );
}
