/**
 * The account's webhooks (#/webhooks, admins with the `all` scope): the endpoints with their state
 * in words and the events they get; adding and editing one (#/webhooks/new, #/webhooks/<id>/edit);
 * an endpoint's page (#/webhooks/<id>) with its signing secret shown once after it is made or
 * rotated, a test event, turning it off and on, and its delivery log.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import { goTo } from '../router.js';
import { Dialog } from '../screens/Dialog.js';
import type { ScreenProps } from '../screens/screen-props.js';
import { EmptyState, Skeleton } from '../ui/Feedback.js';
import { Icon } from '../ui/Icon.js';
import { RowMenu, type MenuAction } from '../ui/RowMenu.js';
import { showToast } from '../ui/toasts.js';
import { Deliveries } from './Deliveries.js';
import { WebhookForm } from './WebhookForm.js';
import { agoText, endpointState, eventChips, outcomeText, scopeText, shortUrl, type UpdateBody, type Webhook } from './webhooks.js';
import './webhooks.css';

/** A secret just made: shown once, on its endpoint's page, until the person says it is saved. */
interface FreshSecret {
  id: string;
  secret: string;
  rotated: boolean;
}

/** What each endpoint's actions do, for the list's row menu and the endpoint's page alike. */
interface Actions {
  test(hook: Webhook, anchor: Element | null): Promise<void>;
  patch(hook: Webhook, body: UpdateBody, anchor: Element | null, done: string, undo?: UpdateBody): Promise<void>;
  rotate(hook: Webhook): void;
  remove(hook: Webhook): void;
}

export function Webhooks({ subpath }: ScreenProps) {
  const [hooks, setHooks] = useState<Webhook[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fresh, setFresh] = useState<FreshSecret | null>(null);
  const [removing, setRemoving] = useState<Webhook | null>(null);
  const [rotating, setRotating] = useState<Webhook | null>(null);
  /** Bumped when a delivery was just made (a test event), so the log reads again. */
  const [sent, setSent] = useState(0);
  const [first, second] = subpath.split('/').filter(Boolean);

  const load = async () => {
    try {
      const { data, error: failure, response } = await signedInClient().GET('/api/v1/webhooks');
      if (data) {
        setHooks(data.data);
        setError(null);
      } else setError(problemText(response.status, failure));
    } catch {
      setError(UNREACHABLE);
    }
  };
  useEffect(() => void load(), []);

  const replace = (next: Webhook) => setHooks((all) => all?.map((h) => (h.id === next.id ? next : h)) ?? null);

  const actions: Actions = {
    async test(hook, anchor) {
      try {
        const {
          data,
          error: failure,
          response,
        } = await signedInClient().POST('/api/v1/webhooks/{id}/test', { params: { path: { id: hook.id } } });
        if (!data) return void showToast(problemText(response.status, failure), { tone: 'error', anchor });
        const { message, ok } = outcomeText(data.data, 'Test event');
        showToast(message, { tone: ok ? 'success' : 'error', anchor });
        setSent((n) => n + 1);
        void load();
      } catch {
        showToast(UNREACHABLE, { tone: 'error', anchor });
      }
    },
    async patch(hook, body, anchor, done, undo) {
      try {
        const {
          data,
          error: failure,
          response,
        } = await signedInClient().PATCH('/api/v1/webhooks/{id}', { params: { path: { id: hook.id } }, body });
        if (!data) return void showToast(problemText(response.status, failure), { tone: 'error', anchor });
        replace(data.data);
        showToast(done, {
          tone: 'success',
          anchor,
          ...(undo && { undo: () => void actions.patch(data.data, undo, anchor, 'Undone.') }),
        });
      } catch {
        showToast(UNREACHABLE, { tone: 'error', anchor });
      }
    },
    rotate: setRotating,
    remove: setRemoving,
  };

  const hook = first && first !== 'new' ? hooks?.find((h) => h.id === first) : undefined;
  let view;
  if (error) {
    view = (
      <p class="field-error" role="alert">
        The webhooks could not be loaded. {error}
      </p>
    );
  } else if (!hooks) {
    view = <Skeleton label="Loading webhooks…" rows={3} />;
  } else if (first === 'new') {
    view = (
      <WebhookForm
        onSaved={(made) => {
          const { secret, ...rest } = made as Webhook & { secret?: string };
          setHooks((all) => [rest, ...(all ?? [])]);
          if (secret) setFresh({ id: rest.id, secret, rotated: false });
          goTo(`#/webhooks/${rest.id}`);
        }}
      />
    );
  } else if (first && !hook) {
    view = (
      <EmptyState icon="webhook" title="No such webhook">
        <p>It may have been deleted.</p>
        <a class="button" href="#/webhooks">
          Back to webhooks
        </a>
      </EmptyState>
    );
  } else if (hook && second === 'edit') {
    view = (
      <WebhookForm
        webhook={hook}
        onSaved={(saved) => {
          replace(saved);
          showToast('Webhook saved.', { tone: 'success' });
          goTo(`#/webhooks/${saved.id}`);
        }}
      />
    );
  } else if (hook) {
    view = (
      <Endpoint
        hook={hook}
        actions={actions}
        fresh={fresh?.id === hook.id ? fresh : null}
        onSecretSaved={() => setFresh(null)}
        sent={sent}
      />
    );
  } else {
    view = <List hooks={hooks} actions={actions} />;
  }

  return (
    <section class="webhooks" aria-labelledby="webhooks-title">
      {view}
      {removing && (
        <RemoveDialog
          hook={removing}
          onClose={(removed) => {
            setRemoving(null);
            if (!removed) return;
            setHooks((all) => all?.filter((h) => h.id !== removing.id) ?? null);
            showToast(`Webhook to ${shortUrl(removing.url)} deleted.`, { tone: 'success' });
            goTo('#/webhooks');
          }}
        />
      )}
      {rotating && (
        <RotateDialog
          hook={rotating}
          onClose={(rotated) => {
            setRotating(null);
            if (!rotated) return;
            const { secret, ...rest } = rotated;
            replace(rest);
            setFresh({ id: rest.id, secret, rotated: true });
            goTo(`#/webhooks/${rest.id}`);
          }}
        />
      )}
    </section>
  );
}

function List({ hooks, actions }: { hooks: Webhook[]; actions: Actions }) {
  return (
    <>
      <header class="webhooks-head">
        <h1 id="webhooks-title">Webhooks</h1>
        {hooks.length > 0 && (
          <a class="button primary" href="#/webhooks/new">
            <Icon name="plus" /> Add webhook
          </a>
        )}
      </header>
      <p class="lede">
        Tell your other tools when something happens here: a link is made or scanned, a batch is ready, a domain starts working. Each event
        is sent at once to the address you give, as JSON signed with that webhook’s secret, and tried again for a while if it fails.
      </p>
      {hooks.length === 0 ? (
        <EmptyState icon="webhook" title="No webhooks yet">
          <p>
            Add the address of your CRM, a Zapier or Make hook, or your own server, and choose the events it should hear about. You can send
            it a test event straight away.
          </p>
          <a class="button primary" href="#/webhooks/new">
            <Icon name="plus" /> Add webhook
          </a>
        </EmptyState>
      ) : (
        <ul class="webhook-list">
          {hooks.map((hook) => (
            <li key={hook.id}>
              <Row hook={hook} actions={actions} />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function menuActions(hook: Webhook, actions: Actions): MenuAction[] {
  return [
    { label: 'Send test event', icon: 'send', shortcut: 't', run: (anchor) => void actions.test(hook, anchor) },
    { label: 'Edit', icon: 'edit', shortcut: 'e', run: () => goTo(`#/webhooks/${hook.id}/edit`) },
    hook.enabled
      ? {
          label: 'Turn off',
          icon: 'pause',
          shortcut: 'o',
          run: (anchor) => void actions.patch(hook, { disabled: true }, anchor, 'Webhook turned off.', { disabled: false }),
        }
      : {
          label: 'Turn on',
          icon: 'play',
          shortcut: 'o',
          run: (anchor) => void actions.patch(hook, { disabled: false }, anchor, 'Webhook turned on.'),
        },
    { label: 'Rotate secret', icon: 'refresh', shortcut: 'r', run: () => actions.rotate(hook) },
    { label: 'Delete', icon: 'trash', danger: true, run: () => actions.remove(hook) },
  ];
}

function Row({ hook, actions }: { hook: Webhook; actions: Actions }) {
  const state = endpointState(hook);
  const titleId = `webhook-${hook.id}`;
  const scope = scopeText(hook);
  return (
    <article class={`webhook-card state-${state.tone}`} aria-labelledby={titleId}>
      <div class="webhook-row-head">
        <h2 id={titleId} class="webhook-url" title={hook.url}>
          <a href={`#/webhooks/${hook.id}`}>{shortUrl(hook.url)}</a>
        </h2>
        <span class={`badge badge-${state.tone}`}>{state.badge}</span>
        <RowMenu label={`Actions for the webhook to ${shortUrl(hook.url)}`} actions={menuActions(hook, actions)} />
      </div>
      {hook.description && <p class="webhook-description">{hook.description}</p>}
      <EventChips events={hook.events} />
      <p class="webhook-meta">
        {state.reason && <span>{state.reason}.</span>}
        {hook.consecutive_failures > 0 && (
          <span class="webhook-failures">
            {hook.consecutive_failures} failure{hook.consecutive_failures === 1 ? '' : 's'} in a row
          </span>
        )}
        <span>Last success: {agoText(hook.last_success_at, 'none yet')}</span>
        {scope && <span>{scope}</span>}
      </p>
    </article>
  );
}

function EventChips({ events }: { events: readonly string[] }) {
  return (
    <ul class="event-chips" aria-label="Events">
      {eventChips(events).map((chip) => (
        <li key={chip}>{chip}</li>
      ))}
    </ul>
  );
}

interface EndpointProps {
  hook: Webhook;
  actions: Actions;
  fresh: FreshSecret | null;
  onSecretSaved(): void;
  sent: number;
}

function Endpoint({ hook, actions, fresh, onSecretSaved, sent }: EndpointProps) {
  const [testing, setTesting] = useState(false);
  const state = endpointState(hook);
  const scope = scopeText(hook);
  return (
    <>
      <a class="back-link" href="#/webhooks">
        <Icon name="arrow-back-up" /> All webhooks
      </a>
      <header class="webhooks-head endpoint-head">
        <h1 id="webhooks-title" class="webhook-url" title={hook.url}>
          {shortUrl(hook.url, 60)}
        </h1>
        <span class={`badge badge-${state.tone}`}>{state.badge}</span>
      </header>
      <p class="endpoint-url">
        <code>{hook.url}</code>
      </p>
      {hook.description && <p class="webhook-description">{hook.description}</p>}
      <p class={`endpoint-says state-${state.tone}`}>{state.says}</p>
      {fresh && <SecretPanel fresh={fresh} onDone={onSecretSaved} />}
      <div class="endpoint-actions">
        <button
          type="button"
          class="primary"
          disabled={testing}
          aria-busy={testing ? 'true' : undefined}
          onClick={(e) => {
            const anchor = e.currentTarget;
            setTesting(true);
            void actions.test(hook, anchor).finally(() => setTesting(false));
          }}
        >
          <Icon name="send" /> {testing ? 'Sending…' : 'Send test event'}
        </button>
        <a class="button" href={`#/webhooks/${hook.id}/edit`}>
          <Icon name="edit" /> Edit
        </a>
        {hook.enabled ? (
          <button
            type="button"
            onClick={(e) => void actions.patch(hook, { disabled: true }, e.currentTarget, 'Webhook turned off.', { disabled: false })}
          >
            <Icon name="pause" /> Turn off
          </button>
        ) : (
          <button type="button" onClick={(e) => void actions.patch(hook, { disabled: false }, e.currentTarget, 'Webhook turned on.')}>
            <Icon name="play" /> Turn on
          </button>
        )}
        <button type="button" onClick={() => actions.rotate(hook)}>
          <Icon name="refresh" /> Rotate secret
        </button>
        <button type="button" class="ghost danger-text" onClick={() => actions.remove(hook)}>
          <Icon name="trash" /> Delete
        </button>
      </div>
      <dl class="endpoint-facts">
        <div>
          <dt>Events</dt>
          <dd>
            <EventChips events={hook.events} />
          </dd>
        </div>
        <div>
          <dt>Link events</dt>
          <dd>{scope ? <LimitedTo hook={hook} /> : 'For every link'}</dd>
        </div>
        <div>
          <dt>Last success</dt>
          <dd>{agoText(hook.last_success_at, 'none yet')}</dd>
        </div>
        <div>
          <dt>Failures in a row</dt>
          <dd>{hook.consecutive_failures}</dd>
        </div>
        {hook.previous_secret_expires_at && (
          <div>
            <dt>Old secret</dt>
            <dd>Also signs until {new Date(hook.previous_secret_expires_at).toLocaleString()}</dd>
          </div>
        )}
      </dl>
      <Deliveries hook={hook} sent={sent} />
    </>
  );
}

/** The links and folders an endpoint's link events are limited to, the folders by name. */
function LimitedTo({ hook }: { hook: Webhook }) {
  const [names, setNames] = useState<ReadonlyMap<string, string>>(new Map());
  const folderIds = hook.folder_ids ?? [];
  useEffect(() => {
    if (folderIds.length === 0) return;
    let live = true;
    signedInClient()
      .GET('/api/v1/folders')
      .then(
        ({ data }) => live && data && setNames(new Map(data.data.map((f) => [f.id, f.name]))),
        () => {},
      );
    return () => {
      live = false;
    };
  }, [folderIds.join()]);
  return (
    <ul class="limited-to">
      {(hook.link_ids ?? []).map((slug) => (
        <li key={slug}>
          <Icon name="link" /> <code>{slug}</code>
        </li>
      ))}
      {folderIds.map((id) => (
        <li key={id}>
          <Icon name="folder" /> {names.get(id) ?? 'A folder'}
        </li>
      ))}
    </ul>
  );
}

function SecretPanel({ fresh, onDone }: { fresh: FreshSecret; onDone(): void }) {
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => panel.current?.focus(), [fresh.secret]);
  const copy = async (anchor: Element) => {
    try {
      await navigator.clipboard.writeText(fresh.secret);
      showToast('Secret copied.', { anchor, duration: 1500 });
    } catch {
      showToast('The browser did not allow copying; select the secret and copy it.', { tone: 'error', anchor });
    }
  };
  return (
    <div class="secret-panel" ref={panel} tabIndex={-1} role="region" aria-labelledby="secret-title">
      <h2 id="secret-title">
        <Icon name="key" /> {fresh.rotated ? 'The new signing secret' : 'Its signing secret'}
      </h2>
      <p>
        <strong>Copy it now: it will not be shown again.</strong> Your receiver uses it to check that events really come from here (the
        Standard Webhooks signature).
      </p>
      <code class="secret">{fresh.secret}</code>
      <div class="secret-actions">
        <button type="button" onClick={(e) => void copy(e.currentTarget)}>
          <Icon name="copy" /> Copy secret
        </button>
        <button type="button" class="ghost" onClick={onDone}>
          I have saved it
        </button>
      </div>
    </div>
  );
}

function RemoveDialog({ hook, onClose }: { hook: Webhook; onClose(removed: boolean): void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const remove = async () => {
    setBusy(true);
    try {
      const {
        data,
        error: failure,
        response,
      } = await signedInClient().DELETE('/api/v1/webhooks/{id}', { params: { path: { id: hook.id } } });
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
      title="Delete this webhook?"
      submitLabel="Delete webhook"
      danger
      busy={busy}
      error={error}
      onSubmit={() => void remove()}
      onCancel={() => onClose(false)}
    >
      <p>
        No more events go to <code class="dialog-url">{shortUrl(hook.url)}</code>, its delivery log is removed, and deliveries still being
        retried are dropped. To pause it instead, turn it off.
      </p>
    </Dialog>
  );
}

type Rotated = Webhook & { secret: string };

function RotateDialog({ hook, onClose }: { hook: Webhook; onClose(rotated: Rotated | null): void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const rotate = async (form: FormData) => {
    setBusy(true);
    try {
      const {
        data,
        error: failure,
        response,
      } = await signedInClient().POST('/api/v1/webhooks/{id}/rotate-secret', {
        params: { path: { id: hook.id } },
        body: { keep_previous_hours: form.get('keep') === 'on' ? 24 : 0 },
      });
      if (data) return onClose(data);
      setError(problemText(response.status, failure));
    } catch {
      setError(UNREACHABLE);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      title="Rotate the signing secret?"
      submitLabel="Rotate secret"
      busy={busy}
      error={error}
      onSubmit={(form) => void rotate(form)}
      onCancel={() => onClose(null)}
    >
      <p>A new secret signs every event from now on. Put it in your receiver; it is shown once.</p>
      <label class="check">
        <input type="checkbox" name="keep" defaultChecked /> Keep the old secret signing too for 24 hours
      </label>
      <p class="hint">
        Both signatures are sent meanwhile, so your receiver keeps working while you change it. Unticked: the old one stops now.
      </p>
    </Dialog>
  );
}
