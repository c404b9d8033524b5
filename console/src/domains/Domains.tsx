/**
 * The account's brand domains (/domains): add a name, the DNS records to set (each with a copy
 * button, beside what the last check found), the state kept live while a domain waits for DNS,
 * "Check now", where the root, unknown and expired addresses send people, the account's default
 * domain, turning one off, and removing it. Everyone in the account sees them; admins change them.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Me } from '../api/client.js';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import { roleBlock } from '../access.js';
import { Dialog } from '../screens/Dialog.js';
import { EmptyState, Skeleton } from '../ui/Feedback.js';
import { Icon } from '../ui/Icon.js';
import { showToast } from '../ui/toasts.js';
import { agoText, baseOn, recordStatus, recordsToShow, STATE_TEXT, type Domain, type DomainRecord } from './domains.js';
import './domains.css';

/** How often the list is read again while a domain waits for DNS (the worker checks those every minute). */
const LIVE_MS = 15_000;

type Patch = {
  root_url?: string | null;
  not_found_url?: string | null;
  expired_url?: string | null;
  disabled?: boolean;
  is_default?: boolean;
};

export function Domains({ me }: { me: Me }) {
  const [domains, setDomains] = useState<Domain[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Domain | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const block = roleBlock(me, 'admin', 'add or change domains');

  const load = async () => {
    try {
      const { data, error: failure, response } = await signedInClient().GET('/api/v1/domains');
      if (data) {
        setDomains(data.data);
        setError(null);
      } else setError(problemText(response.status, failure));
    } catch {
      setError(UNREACHABLE);
    }
  };
  useEffect(() => void load(), []);
  // Live while any domain waits: its state changes when the worker's check finds the records.
  const waiting = domains?.some((d) => d.state === 'pending' || d.state === 'misconfigured') ?? false;
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => void load(), LIVE_MS);
    return () => clearInterval(timer);
  }, [waiting]);

  const replace = (next: Domain) => setDomains((all) => all?.map((d) => (d.id === next.id ? next : d)) ?? null);

  /** PATCHes a domain; the answer replaces it (a new default unsets the old one, so the list is read again). */
  const patch = async (domain: Domain, body: Patch, anchor: Element | null, done: string, undo?: Patch): Promise<boolean> => {
    try {
      const {
        data,
        error: failure,
        response,
      } = await signedInClient().PATCH('/api/v1/domains/{id}', {
        params: { path: { id: domain.id } },
        body,
      });
      if (!data) {
        showToast(problemText(response.status, failure), { tone: 'error', anchor });
        return false;
      }
      if (body.is_default !== undefined) await load();
      else replace(data.data);
      showToast(done, { tone: 'success', anchor, ...(undo && { undo: () => void patch(domain, undo, anchor, 'Undone.') }) });
      return true;
    } catch {
      showToast(UNREACHABLE, { tone: 'error', anchor });
      return false;
    }
  };

  const check = async (domain: Domain, anchor: Element | null) => {
    try {
      const {
        data,
        error: failure,
        response,
      } = await signedInClient().POST('/api/v1/domains/{id}/verify', {
        params: { path: { id: domain.id } },
      });
      if (!data) {
        showToast(problemText(response.status, failure), { tone: 'error', anchor });
        return;
      }
      replace(data.data);
      const { badge } = STATE_TEXT[data.data.state];
      showToast(`Checked: ${data.data.hostname} is ${badge.toLowerCase()}.`, {
        tone: data.data.state === 'verified' ? 'success' : 'info',
        anchor,
      });
    } catch {
      showToast(UNREACHABLE, { tone: 'error', anchor });
    }
  };

  return (
    <section class="domains" aria-labelledby="domains-title">
      <h1 id="domains-title">Domains</h1>
      <p class="lede">
        Put your links on your own name, such as <code>menu.yourcafe.com</code>. Add it, set the records shown at your DNS provider, and the
        service checks them and gets the HTTPS certificate.
      </p>
      {block ? <p class="hint">{block}</p> : <AddDomain onAdded={(d) => setDomains((all) => [d, ...(all ?? [])])} />}
      <h2 ref={heading} tabIndex={-1} class="visually-hidden">
        Your domains
      </h2>
      {error ? (
        <p class="field-error" role="alert">
          The domains could not be loaded. {error}
        </p>
      ) : !domains ? (
        <Skeleton label="Loading domains…" rows={3} />
      ) : domains.length === 0 ? (
        <EmptyState icon="world" title="No domains yet">
          <p>Links use the service’s own address until you add a name of yours.</p>
        </EmptyState>
      ) : (
        <ul class="domain-list">
          {domains.map((domain) => (
            <li key={domain.id}>
              <DomainCard
                domain={domain}
                shortUrlBase={me.shortUrlBase}
                block={block}
                onCheck={(anchor) => check(domain, anchor)}
                onPatch={(body, anchor, done, undo) => patch(domain, body, anchor, done, undo)}
                onRemove={() => setRemoving(domain)}
              />
            </li>
          ))}
        </ul>
      )}
      {removing && (
        <RemoveDialog
          domain={removing}
          onClose={(removed) => {
            setRemoving(null);
            if (removed) {
              setDomains((all) => all?.filter((d) => d.id !== removing.id) ?? null);
              showToast(`${removing.hostname} removed.`, { tone: 'success' });
            }
            heading.current?.focus();
          }}
        />
      )}
    </section>
  );
}

function AddDomain({ onAdded }: { onAdded(domain: Domain): void }) {
  const [hostname, setHostname] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!hostname.trim()) return setError('Enter a domain name, such as menu.yourcafe.com.');
    setBusy(true);
    setError(null);
    try {
      const { data, error: failure, response } = await signedInClient().POST('/api/v1/domains', { body: { hostname } });
      if (!data) {
        const field = (failure as { errors?: Array<{ message: string }> } | undefined)?.errors?.[0]?.message;
        return setError(field ?? problemText(response.status, failure));
      }
      onAdded(data);
      setHostname('');
      showToast(`${data.hostname} added. Set its records below.`, { tone: 'success' });
    } catch {
      setError(UNREACHABLE);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="add-domain" onSubmit={(e) => void submit(e)} noValidate>
      <label for="domain-name">Add a domain</label>
      <div class="add-domain-row">
        <input
          id="domain-name"
          value={hostname}
          placeholder="menu.yourcafe.com"
          autocomplete="off"
          spellcheck={false}
          inputMode="url"
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={error ? 'domain-name-error' : 'domain-name-help'}
          onInput={(e) => setHostname(e.currentTarget.value)}
        />
        <button type="submit" class="primary" disabled={busy}>
          <Icon name="plus" /> {busy ? 'Adding…' : 'Add domain'}
        </button>
      </div>
      {error ? (
        <p id="domain-name-error" class="field-error" role="alert">
          {error}
        </p>
      ) : (
        <p id="domain-name-help" class="hint">
          A name you control, usually a subdomain. One name belongs to one account.
        </p>
      )}
    </form>
  );
}

interface CardProps {
  domain: Domain;
  shortUrlBase: string;
  block: string | null;
  onCheck(anchor: Element | null): Promise<void>;
  onPatch(body: Patch, anchor: Element | null, done: string, undo?: Patch): Promise<boolean>;
  onRemove(): void;
}

function DomainCard({ domain, shortUrlBase, block, onCheck, onPatch, onRemove }: CardProps) {
  const [checking, setChecking] = useState(false);
  const state = STATE_TEXT[domain.state];
  const { ownership, addresses, cname } = recordsToShow(domain);
  const titleId = `domain-${domain.id}`;
  const off = domain.state === 'disabled';
  return (
    <article class={`domain-card state-${state.tone}`} aria-labelledby={titleId}>
      <header class="domain-head">
        <h3 id={titleId}>
          <Icon name="world" /> {domain.hostname}
        </h3>
        <span class={`badge badge-${state.tone}`}>{state.badge}</span>
        {domain.is_default && <span class="badge badge-default">Default for new links</span>}
        <span class="domain-checked">{agoText(domain.checked_at)}</span>
      </header>
      <p class="domain-says" aria-live="polite">
        {state.says}
        {domain.state === 'verified' && (
          <>
            {' '}
            Links look like <code>{baseOn(shortUrlBase, domain.hostname).replace(/^https?:\/\//, '')}/menu</code>.
          </>
        )}
      </p>
      {!off && domain.state !== 'verified' && (
        <div class="records" role="group" aria-label={`DNS records for ${domain.hostname}`}>
          {domain.state === 'pending' && <RecordTable title="1. Prove it is yours" records={ownership} />}
          <RecordTable title={domain.state === 'pending' ? '2. Point it here' : 'Point it here'} records={addresses} />
          {cname.length > 0 && <RecordTable title="…or, for a subdomain, one CNAME instead" records={cname} />}
          {Object.keys(domain.errors).length > 0 && (
            <p class="hint">
              Lookups without an answer:{' '}
              {Object.entries(domain.errors)
                .map(([what, why]) => `${what}: ${why}`)
                .join('; ')}
              .
            </p>
          )}
        </div>
      )}
      <div class="domain-actions">
        {!off && (
          <button
            type="button"
            disabled={checking || block !== null}
            title={block ?? undefined}
            onClick={(e) => {
              const anchor = e.currentTarget;
              setChecking(true);
              void onCheck(anchor).finally(() => setChecking(false));
            }}
          >
            <Icon name="search" /> {checking ? 'Checking…' : 'Check now'}
          </button>
        )}
        {!off && !domain.is_default && (
          <button
            type="button"
            disabled={block !== null}
            title={block ?? undefined}
            onClick={(e) =>
              void onPatch({ is_default: true }, e.currentTarget, `New links now go to ${domain.hostname}.`, { is_default: false })
            }
          >
            <Icon name="star" /> Use for new links
          </button>
        )}
        {domain.is_default && (
          <button
            type="button"
            disabled={block !== null}
            onClick={(e) =>
              void onPatch({ is_default: false }, e.currentTarget, 'New links now go to the service’s own address.', { is_default: true })
            }
          >
            Stop using for new links
          </button>
        )}
        <button
          type="button"
          disabled={block !== null}
          onClick={(e) =>
            void onPatch(
              { disabled: !off },
              e.currentTarget,
              off ? `${domain.hostname} is on again: check it once its records are set.` : `${domain.hostname} is off.`,
            )
          }
        >
          <Icon name={off ? 'play' : 'pause'} /> {off ? 'Turn on' : 'Turn off'}
        </button>
        <button type="button" class="ghost danger-text" disabled={block !== null} onClick={onRemove}>
          <Icon name="trash" /> Remove
        </button>
      </div>
      <Addresses domain={domain} block={block} onPatch={onPatch} />
    </article>
  );
}

function RecordTable({ title, records }: { title: string; records: DomainRecord[] }) {
  if (records.length === 0) return null;
  return (
    <div class="record-group">
      <h4>{title}</h4>
      <table class="record-table cards-on-phone">
        <thead>
          <tr>
            <th scope="col">Type</th>
            <th scope="col">Name</th>
            <th scope="col">Value</th>
            <th scope="col">Found</th>
          </tr>
        </thead>
        <tbody>
          {records.map((r) => {
            const status = recordStatus(r);
            return (
              <tr key={`${r.type}-${r.value}`}>
                <td data-label="Type">
                  <code>{r.type}</code>
                </td>
                <td data-label="Name">
                  <CopyValue value={r.name} what={`${r.type} name`} />
                </td>
                <td data-label="Value">
                  <CopyValue value={r.value} what={`${r.type} value`} />
                </td>
                <td data-label="Found" class={`found found-${status}`}>
                  <Icon name={status === 'ok' ? 'circle-check' : status === 'missing' ? 'alert-triangle' : 'clock'} />{' '}
                  {status === 'unchecked' ? 'Not checked yet' : r.found && r.found.length > 0 ? r.found.join(', ') : 'Nothing yet'}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function CopyValue({ value, what }: { value: string; what: string }) {
  const copy = async (anchor: Element) => {
    try {
      await navigator.clipboard.writeText(value);
      showToast('Copied.', { anchor, duration: 1500 });
    } catch {
      showToast('The browser did not allow copying; select the text and copy it.', { tone: 'error', anchor });
    }
  };
  return (
    <span class="copy-value">
      <code>{value}</code>
      <button type="button" class="ghost icon-only" aria-label={`Copy the ${what}`} onClick={(e) => void copy(e.currentTarget)}>
        <Icon name="copy" />
      </button>
    </span>
  );
}

const ADDRESS_FIELDS = [
  { key: 'root_url', label: 'Its home page', hint: 'Where https://name/ sends people' },
  { key: 'not_found_url', label: 'An unknown link', hint: 'Where a mistyped or removed link sends people' },
  { key: 'expired_url', label: 'A paused or ended link', hint: 'Where a paused, expired or used-up link sends people' },
] as const;

/** Where the domain sends people instead of the service's pages; empty is the service's page. */
function Addresses({ domain, block, onPatch }: { domain: Domain; block: string | null; onPatch: CardProps['onPatch'] }) {
  const initial = () => Object.fromEntries(ADDRESS_FIELDS.map((f) => [f.key, domain[f.key] ?? ''])) as Record<string, string>;
  const [values, setValues] = useState(initial);
  const [busy, setBusy] = useState(false);
  useEffect(() => setValues(initial()), [domain.root_url, domain.not_found_url, domain.expired_url]);
  const changed = ADDRESS_FIELDS.some((f) => (values[f.key] ?? '') !== (domain[f.key] ?? ''));
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    const body = Object.fromEntries(ADDRESS_FIELDS.map((f) => [f.key, values[f.key]!.trim() || null])) as Patch;
    await onPatch(body, event.currentTarget as Element, 'Saved where the domain sends people.');
    setBusy(false);
  };
  return (
    <details class="domain-addresses">
      <summary>Where people go instead of the service’s pages</summary>
      <form onSubmit={(e) => void submit(e)} noValidate>
        {ADDRESS_FIELDS.map((f) => (
          <div class="field" key={f.key}>
            <label for={`${domain.id}-${f.key}`}>{f.label}</label>
            <input
              id={`${domain.id}-${f.key}`}
              type="url"
              inputMode="url"
              placeholder="https://yourcafe.com/"
              value={values[f.key]}
              disabled={block !== null}
              aria-describedby={`${domain.id}-${f.key}-hint`}
              onInput={(e) => setValues((v) => ({ ...v, [f.key]: e.currentTarget.value }))}
            />
            <p id={`${domain.id}-${f.key}-hint`} class="hint">
              {f.hint}; empty: the service’s page.
            </p>
          </div>
        ))}
        <button type="submit" disabled={busy || !changed || block !== null}>
          {busy ? 'Saving…' : 'Save'}
        </button>
      </form>
    </details>
  );
}

function RemoveDialog({ domain, onClose }: { domain: Domain; onClose(removed: boolean): void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const remove = async () => {
    setBusy(true);
    try {
      const {
        data,
        error: failure,
        response,
      } = await signedInClient().DELETE('/api/v1/domains/{id}', {
        params: { path: { id: domain.id } },
      });
      if (data) return onClose(true);
      setError(problemText(response.status, failure));
    } catch {
      setError(UNREACHABLE);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      title={`Remove ${domain.hostname}?`}
      submitLabel="Remove domain"
      danger
      busy={busy}
      error={error}
      onSubmit={() => void remove()}
      onCancel={() => onClose(false)}
    >
      <p>
        The name is released: another account could then add it. Adding it again later needs a new proof. A domain with links on it cannot
        be removed; move or delete its links first.
      </p>
    </Dialog>
  );
}
