/**
 * The account's API keys (/api-keys): list, create with scopes and an optional expiry (the key
 * shown once), revoke after a confirm dialog. Reached only with a key holding `all` on a plan that
 * includes key management (nav.ts).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Me } from '../api/client.js';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import { createKeyBody, keyStatus, type ApiKey, type Scope } from '../forms.js';
import { Dialog } from './Dialog.js';
import { EmptyState, Skeleton } from '../ui/Feedback.js';

/** Scopes grouped by what they act on; `all` stands for every one of them. */
const SCOPE_GROUPS: ReadonlyArray<{ label: string; scopes: readonly Scope[] }> = [
  { label: 'Links', scopes: ['links.read', 'links.create', 'links.update', 'links.delete', 'links.pause', 'links.resume'] },
  { label: 'Folders', scopes: ['folders.read', 'folders.create', 'folders.update', 'folders.delete'] },
  { label: 'Templates', scopes: ['templates.read', 'templates.create', 'templates.update', 'templates.delete'] },
  { label: 'Bulk generation', scopes: ['bulk.create'] },
  { label: 'Cafes', scopes: ['cafe.read', 'cafe.create', 'cafe.update', 'cafe.delete'] },
];

const when = (iso: string | null, none: string) => (iso ? new Date(iso).toLocaleString() : none);

export function ApiKeys({ me }: { me: Me }) {
  const [keys, setKeys] = useState<ApiKey[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  // Where focus goes when a dialog or the new key's panel closes, so it is never lost on the page.
  const listHeading = useRef<HTMLHeadingElement>(null);

  const load = async () => {
    try {
      const { data, error: failure, response } = await signedInClient().GET('/api/v1/api-keys');
      if (data) {
        setKeys(data.data);
        setError(null);
      } else setError(problemText(response.status, failure));
    } catch {
      setError(UNREACHABLE);
    }
  };
  useEffect(() => void load(), []);

  return (
    <section class="keys">
      <h1>API keys</h1>
      {created && (
        <NewKey
          {...created}
          onDone={() => {
            setCreated(null);
            listHeading.current?.focus();
          }}
        />
      )}
      <h2 ref={listHeading} tabIndex={-1}>
        Keys of this account
      </h2>
      {error ? (
        <p class="field-error" role="alert">
          The keys could not be loaded. {error}
        </p>
      ) : !keys ? (
        <Skeleton label="Loading keys…" rows={3} />
      ) : keys.length === 0 ? (
        <EmptyState icon="key" title="No keys yet">
          <p>Create a key below for each system that calls the API, with only the scopes it needs.</p>
        </EmptyState>
      ) : (
        <div class="table-wrap" tabIndex={0} role="region" aria-label="Keys of this account (scrolls sideways on a narrow screen)">
          <table class="key-table cards-on-phone">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key starts</th>
                <th scope="col">Scopes</th>
                <th scope="col">Status</th>
                <th scope="col">Expires</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.id}>
                  <th scope="row">{key.name ?? 'unnamed'}</th>
                  <td data-label="Key starts">
                    <code>{key.prefix}…</code>
                  </td>
                  <td data-label="Scopes">{key.scopes.join(', ')}</td>
                  <td data-label="Status">
                    <span class={`badge badge-${keyStatus(key)}`}>{keyStatus(key)}</span>
                  </td>
                  <td data-label="Expires">{when(key.expires_at, 'never')}</td>
                  <td data-label="Last used">{when(key.last_used_at, 'not yet')}</td>
                  <td>
                    {key.id === me.key?.id ? (
                      <small>You are signed in with this key; revoke it from another key or the CLI.</small>
                    ) : (
                      keyStatus(key) === 'active' && (
                        <button type="button" onClick={() => setRevoking(key)} aria-label={`Revoke ${key.name ?? key.prefix}`}>
                          Revoke
                        </button>
                      )
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <CreateKey
        onCreated={(name, key) => {
          setCreated({ name, key });
          void load();
        }}
      />
      {revoking && (
        <RevokeDialog
          apiKey={revoking}
          onClose={(revoked) => {
            setRevoking(null);
            // The revoked row loses its button, so focus goes to the list rather than nowhere.
            if (revoked) void load().then(() => listHeading.current?.focus());
          }}
        />
      )}
    </section>
  );
}

function CreateKey({ onCreated }: { onCreated(name: string, key: string): void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Set<Scope>>(new Set());
  const [expiry, setExpiry] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const toggle = (scope: Scope, on: boolean) => {
    const next = new Set(scopes);
    if (on) next.add(scope);
    else next.delete(scope);
    setScopes(next);
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = createKeyBody(name, scopes, expiry);
    if ('error' in form) return setError(form.error);
    const { body } = form;
    setBusy(true);
    setError(null);
    try {
      const { data, error: failure, response } = await signedInClient().POST('/api/v1/api-keys', { body });
      if (!data) return setError(problemText(response.status, failure));
      onCreated(body.name, data.key);
      setName('');
      setScopes(new Set());
      setExpiry('');
    } catch {
      setError(UNREACHABLE);
    } finally {
      setBusy(false);
    }
  };

  const all = scopes.has('all');
  return (
    // `submit` says its own failures beside the form: it never rejects.
    <form class="create-key" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="create-key-title">
      <h2 id="create-key-title">Create a key</h2>
      <label for="key-name">Name</label>
      <input id="key-name" value={name} maxLength={255} onInput={(e) => setName(e.currentTarget.value)} />
      <fieldset class="group">
        <legend>Scopes</legend>
        <div class="check">
          <input id="scope-all" type="checkbox" checked={all} onChange={(e) => toggle('all', e.currentTarget.checked)} />
          <label for="scope-all">Everything (all), including managing keys</label>
        </div>
        <div class="scope-groups">
          {SCOPE_GROUPS.map((group) => (
            <fieldset class="group" key={group.label} disabled={all}>
              <legend>{group.label}</legend>
              {group.scopes.map((scope) => (
                <div class="check" key={scope}>
                  <input
                    id={`scope-${scope}`}
                    type="checkbox"
                    checked={all || scopes.has(scope)}
                    onChange={(e) => toggle(scope, e.currentTarget.checked)}
                  />
                  <label for={`scope-${scope}`}>{scope}</label>
                </div>
              ))}
            </fieldset>
          ))}
        </div>
        <p class="hint">Every key may also read its account, its jobs, usage and analytics.</p>
      </fieldset>
      <label for="key-expiry">Expires (optional)</label>
      <input
        id="key-expiry"
        type="datetime-local"
        value={expiry}
        onInput={(e) => setExpiry(e.currentTarget.value)}
        aria-describedby="key-expiry-help"
      />
      <p id="key-expiry-help" class="hint">
        In your time zone. Empty: the key works until it is revoked.
      </p>
      {error && (
        <p class="field-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" disabled={busy}>
        {busy ? 'Creating…' : 'Create key'}
      </button>
    </form>
  );
}

function NewKey({ name, key, onDone }: { name: string; key: string; onDone(): void }) {
  const [copied, setCopied] = useState<string | null>(null);
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => panel.current?.focus(), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(key);
      setCopied('Copied.');
    } catch {
      setCopied('The browser did not allow copying; select the key and copy it.');
    }
  };
  return (
    <div class="new-key notice" ref={panel} tabIndex={-1} role="region" aria-labelledby="new-key-title">
      <h2 id="new-key-title">New key “{name}”</h2>
      <p>
        <strong>Copy it now: this is the only time it is shown.</strong> Anyone holding it can act for this account within its scopes.
      </p>
      <code class="secret" id="new-key-value">
        {key}
      </code>
      <div class="actions">
        {/* `copy` says in words when the browser refuses: it never rejects. */}
        <button type="button" onClick={() => void copy()}>
          Copy key
        </button>
        <button type="button" onClick={onDone}>
          I have saved it
        </button>
      </div>
      <p role="status">{copied}</p>
    </div>
  );
}

function RevokeDialog({ apiKey, onClose }: { apiKey: ApiKey; onClose(revoked: boolean): void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const label = apiKey.name ?? `${apiKey.prefix}…`;

  const revoke = async () => {
    setBusy(true);
    try {
      const {
        data,
        error: failure,
        response,
      } = await signedInClient().DELETE('/api/v1/api-keys/{id}', { params: { path: { id: apiKey.id } } });
      if (data) return onClose(true);
      setError(problemText(response.status, failure));
    } catch {
      setError(UNREACHABLE);
    }
    setBusy(false);
  };

  return (
    <Dialog
      title={`Revoke “${label}”?`}
      submitLabel="Revoke key"
      danger
      busy={busy}
      error={error}
      onSubmit={() => void revoke()}
      onCancel={() => onClose(false)}
    >
      <p>Programs using this key stop working at once. This cannot be undone.</p>
    </Dialog>
  );
}
