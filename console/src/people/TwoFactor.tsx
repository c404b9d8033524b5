/**
 * Two-factor sign-in on the Profile page. Off: "Set up" shows the secret as a QR code and as text,
 * then a code from the app turns it on and the ten recovery codes are shown once, to copy or
 * download. On: new recovery codes, or turning it off, each with the password.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Me } from '../api/client.js';
import { fetchSessionMe } from '../api/client.js';
import { saveBlob } from '../save-file.js';
import { Dialog } from '../screens/Dialog.js';
import { Icon } from '../ui/Icon.js';
import { showToast } from '../ui/toasts.js';
import { attempt } from './calls.js';
import { OtpQr } from './OtpQr.js';

type Step = { at: 'idle' } | { at: 'scan'; secret: string; otpauthUri: string } | { at: 'codes'; codes: string[] };

export function TwoFactor({ me, onMe }: { me: Me; onMe(me: Me): void }) {
  const on = me.user?.twoFactor ?? false;
  const [step, setStep] = useState<Step>({ at: 'idle' });
  const [asking, setAsking] = useState<'off' | 'codes' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  /** The person's `me` again, so the header and this card know two-factor's new state. */
  const refreshMe = async () => {
    const answer = await fetchSessionMe();
    if (answer.ok) onMe(answer.me);
  };

  const start = async () => {
    setBusy(true);
    const answer = await attempt((c) => c.POST('/api/v1/me/two-factor'));
    setBusy(false);
    if (!answer.ok) return setError(answer.message);
    setError(null);
    setStep({ at: 'scan', ...answer.data });
  };

  const confirm = async (event: Event) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget as HTMLFormElement).get('code') ?? '').replace(/\s/g, '');
    if (!/^\d{6}$/.test(code)) return setError('Enter the six digits the app shows now.');
    setBusy(true);
    const answer = await attempt((c) => c.POST('/api/v1/me/two-factor/confirm', { body: { code } }));
    setBusy(false);
    if (!answer.ok) return setError(answer.status === 400 ? 'That code is not right: enter the one the app shows now.' : answer.message);
    setError(null);
    setStep({ at: 'codes', codes: answer.data.recoveryCodes });
    showToast('Two-factor sign-in is on', { tone: 'success' });
  };

  return (
    <section class="card two-factor" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">
        Two-factor sign-in <span class={`badge ${on ? 'badge-active' : ''}`}>{on ? 'On' : 'Off'}</span>
      </h2>
      {step.at === 'codes' ? (
        <RecoveryCodes
          codes={step.codes}
          onDone={() => {
            setStep({ at: 'idle' });
            void refreshMe();
          }}
        />
      ) : step.at === 'scan' ? (
        <form onSubmit={(e) => void confirm(e)} noValidate>
          <ol class="steps">
            <li>Scan this code with an authenticator app (1Password, Google Authenticator, Aegis…).</li>
          </ol>
          <OtpQr uri={step.otpauthUri} label="QR code of your two-factor secret, for an authenticator app" />
          <p class="hint">Cannot scan? Type this key into the app instead:</p>
          <code class="secret" id="two-factor-secret">
            {step.secret.replace(/(.{4})/g, '$1 ').trim()}
          </code>
          <ol class="steps" start={2}>
            <li>
              <label class="field-label" for="two-factor-code">
                Code from the app
              </label>
            </li>
          </ol>
          <input
            id="two-factor-code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={8}
            pattern="[0-9 ]*"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'two-factor-error' : undefined}
          />
          {error && (
            <p class="field-error" id="two-factor-error" role="alert">
              {error}
            </p>
          )}
          <div class="actions">
            <button type="submit" disabled={busy}>
              {busy ? 'Checking…' : 'Turn on'}
            </button>
            <button type="button" class="ghost" onClick={() => (setStep({ at: 'idle' }), setError(null))}>
              Cancel
            </button>
          </div>
        </form>
      ) : on ? (
        <>
          <p>Signing in asks for a code from your authenticator app, or one of your recovery codes.</p>
          <div class="actions">
            <button type="button" onClick={() => setAsking('codes')}>
              New recovery codes
            </button>
            <button type="button" class="ghost" onClick={() => setAsking('off')}>
              Turn off
            </button>
          </div>
        </>
      ) : (
        <>
          <p>Add a code from your phone to your password, so a stolen password alone does not open your accounts.</p>
          {error && (
            <p class="field-error" role="alert">
              {error}
            </p>
          )}
          <button type="button" disabled={busy} onClick={() => void start()}>
            <Icon name="shield-lock" />
            Set up two-factor sign-in
          </button>
        </>
      )}
      {asking && (
        <PasswordDialog
          what={asking}
          onClose={(codes) => {
            const was = asking;
            setAsking(null);
            if (codes === null) return;
            if (was === 'codes') setStep({ at: 'codes', codes });
            else {
              showToast('Two-factor sign-in is off', { tone: 'success' });
              void refreshMe();
            }
          }}
        />
      )}
    </section>
  );
}

/** The recovery codes, shown this once: copy, download, then "I have saved them". */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone(): void }) {
  const box = useRef<HTMLDivElement>(null);
  const [said, setSaid] = useState('');
  useEffect(() => box.current?.focus(), []);
  const text = `qrlinks recovery codes (each works once)\n\n${codes.join('\n')}\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setSaid('Codes copied.');
    } catch {
      setSaid('The browser did not allow copying; select the codes and copy them.');
    }
  };
  return (
    <div class="notice recovery" ref={box} tabIndex={-1} role="region" aria-labelledby="recovery-title">
      <h3 id="recovery-title">Your recovery codes</h3>
      <p>
        <strong>Save them now: they are shown only this once.</strong> Each signs you in once without your phone.
      </p>
      <ul class="recovery-codes" aria-label="Recovery codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
      <div class="actions">
        <button type="button" onClick={() => void copy()}>
          <Icon name="copy" />
          Copy
        </button>
        <button type="button" onClick={() => saveBlob(new Blob([text], { type: 'text/plain' }), 'qrlinks-recovery-codes.txt')}>
          <Icon name="download" />
          Download
        </button>
        <button type="button" class="primary" onClick={onDone}>
          I have saved them
        </button>
      </div>
      <p role="status">{said}</p>
    </div>
  );
}

function PasswordDialog({ what, onClose }: { what: 'off' | 'codes'; onClose(codes: string[] | null): void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (form: FormData) => {
    const password = String(form.get('password') ?? '');
    if (!password) return setError('Enter your password.');
    setBusy(true);
    const answer =
      what === 'off'
        ? await attempt((c) => c.DELETE('/api/v1/me/two-factor', { body: { password } }))
        : await attempt((c) => c.POST('/api/v1/me/two-factor/recovery-codes', { body: { password } }));
    setBusy(false);
    if (!answer.ok) return setError(answer.message);
    onClose(what === 'codes' ? (answer.data as { recoveryCodes: string[] }).recoveryCodes : []);
  };
  return (
    <Dialog
      title={what === 'off' ? 'Turn two-factor sign-in off?' : 'Make new recovery codes?'}
      submitLabel={what === 'off' ? 'Turn off' : 'Make new codes'}
      danger={what === 'off'}
      busy={busy}
      error={error}
      onSubmit={(f) => void submit(f)}
      onCancel={() => onClose(null)}
    >
      <p>
        {what === 'off'
          ? 'Signing in will need only your password again.'
          : 'The codes you have now stop working; the new ones are shown once.'}
      </p>
      <label class="field-label" for="confirm-password">
        Your password
      </label>
      <input id="confirm-password" name="password" type="password" autoComplete="current-password" autoFocus maxLength={200} />
    </Dialog>
  );
}
