/**
 * An endpoint's delivery log: the last 30 days, newest first, a page at a time, filtered by state.
 * Opening one shows the body sent and every attempt (status, time, the first 4 KB of the answer),
 * and can send it again.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import { Skeleton } from '../ui/Feedback.js';
import { Icon } from '../ui/Icon.js';
import { showToast } from '../ui/toasts.js';
import {
  agoText,
  attemptText,
  DELIVERY_FILTERS,
  DELIVERY_STATE_TEXT,
  eventLabel,
  outcomeText,
  type Delivery,
  type DeliveryDetail,
  type DeliveryPage,
  type DeliveryState,
  type Webhook,
} from './webhooks.js';

const PAGE_SIZE = 20;

const TRIGGERS: Readonly<Record<string, string>> = { schedule: 'Sent', replay: 'Replayed', test: 'Test' };

export function Deliveries({ hook, sent }: { hook: Webhook; sent: number }) {
  const [state, setState] = useState<DeliveryState | ''>('');
  const [page, setPage] = useState(1);
  const [list, setList] = useState<DeliveryPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [reads, setReads] = useState(0);

  useEffect(() => {
    let live = true;
    signedInClient()
      .GET('/api/v1/webhooks/{id}/deliveries', {
        params: { path: { id: hook.id }, query: { page, size: PAGE_SIZE, ...(state && { state }) } },
      })
      .then(
        ({ data, error: failure, response }) => {
          if (!live) return;
          if (data) {
            setList(data);
            setError(null);
          } else setError(problemText(response.status, failure));
        },
        () => live && setError(UNREACHABLE),
      );
    return () => {
      live = false;
    };
  }, [hook.id, state, page, sent, reads]);

  return (
    <section class="deliveries" aria-labelledby="deliveries-title">
      <div class="deliveries-head">
        <h2 id="deliveries-title">Deliveries</h2>
        <label class="deliveries-filter">
          <span>Show</span>
          <select
            value={state}
            onChange={(e) => {
              setState(e.currentTarget.value as DeliveryState | '');
              setPage(1);
            }}
          >
            {DELIVERY_FILTERS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
        <button type="button" class="ghost" onClick={() => setReads((n) => n + 1)}>
          <Icon name="refresh" /> Refresh
        </button>
      </div>
      {error ? (
        <p class="field-error" role="alert">
          The deliveries could not be loaded. {error}
        </p>
      ) : !list ? (
        <Skeleton label="Loading deliveries…" rows={3} />
      ) : list.data.length === 0 ? (
        <p class="hint">
          {state ? 'No deliveries in this state in the last 30 days.' : 'Nothing sent yet. Send a test event to see one here.'}
        </p>
      ) : (
        <div class="deliveries-layout">
          <table class="delivery-table cards-on-phone">
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">State</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last answer</th>
                <th scope="col">When</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((d) => (
                <DeliveryRow key={d.id} delivery={d} open={open === d.id} onOpen={() => setOpen(open === d.id ? null : d.id)} />
              ))}
            </tbody>
          </table>
          {open && (
            <DeliveryPanel
              id={open}
              onClose={() => {
                // Focus goes back to the row it was opened from.
                setOpen(null);
                requestAnimationFrame(() => document.getElementById(`delivery-${open}`)?.focus());
              }}
              onReplayed={() => setReads((n) => n + 1)}
            />
          )}
        </div>
      )}
      {list && list.meta.totalPages > 1 && (
        <nav class="pager" aria-label="Delivery pages">
          <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Newer
          </button>
          <span>
            Page {page} of {list.meta.totalPages} ({list.meta.total} deliveries)
          </span>
          <button type="button" disabled={page >= list.meta.totalPages} onClick={() => setPage(page + 1)}>
            Older
          </button>
        </nav>
      )}
    </section>
  );
}

function DeliveryRow({ delivery, open, onOpen }: { delivery: Delivery; open: boolean; onOpen(): void }) {
  const state = DELIVERY_STATE_TEXT[delivery.state];
  return (
    <tr class={open ? 'delivery-open' : undefined}>
      <td data-label="Event">
        <button type="button" id={`delivery-${delivery.id}`} class="ghost delivery-open-button" aria-expanded={open} onClick={onOpen}>
          <code>{delivery.event_type}</code>
        </button>
      </td>
      <td data-label="State">
        <span class={`state-word tone-${state.tone}`}>{state.word}</span>
      </td>
      <td data-label="Attempts">{delivery.attempts}</td>
      <td data-label="Last answer">
        {delivery.last_status ?? (delivery.last_error ? <span class="muted">{delivery.last_error}</span> : '—')}
      </td>
      <td data-label="When">
        <time dateTime={delivery.created_at} title={new Date(delivery.created_at).toLocaleString()}>
          {agoText(delivery.created_at, '')}
        </time>
        {delivery.next_attempt_at && <span class="muted"> · next try {new Date(delivery.next_attempt_at).toLocaleTimeString()}</span>}
      </td>
    </tr>
  );
}

function DeliveryPanel({ id, onClose, onReplayed }: { id: string; onClose(): void; onReplayed(): void }) {
  const [detail, setDetail] = useState<DeliveryDetail | string | null>(null);
  const [replaying, setReplaying] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    let live = true;
    setDetail(null);
    signedInClient()
      .GET('/api/v1/webhooks/deliveries/{deliveryId}', { params: { path: { deliveryId: id } } })
      .then(
        ({ data, error, response }) => live && setDetail(data ? data.data : problemText(response.status, error)),
        () => live && setDetail(UNREACHABLE),
      );
    return () => {
      live = false;
    };
  }, [id]);
  useEffect(() => heading.current?.focus(), [id]);

  const replay = async (anchor: Element) => {
    setReplaying(true);
    try {
      const { data, error, response } = await signedInClient().POST('/api/v1/webhooks/deliveries/{deliveryId}/replay', {
        params: { path: { deliveryId: id } },
      });
      if (!data) return void showToast(problemText(response.status, error), { tone: 'error', anchor });
      setDetail(data.data);
      const { message, ok } = outcomeText(data.data, 'Replay');
      showToast(message, { tone: ok ? 'success' : 'error', anchor });
      onReplayed();
    } catch {
      showToast(UNREACHABLE, { tone: 'error', anchor });
    } finally {
      setReplaying(false);
    }
  };

  return (
    <section class="delivery-panel" aria-labelledby="delivery-title">
      <div class="delivery-panel-head">
        <h3 id="delivery-title" ref={heading} tabIndex={-1}>
          {typeof detail === 'object' && detail ? eventLabel(detail.event_type) : 'Delivery'}
        </h3>
        <button
          type="button"
          disabled={replaying || typeof detail !== 'object' || !detail}
          aria-busy={replaying ? 'true' : undefined}
          onClick={(e) => void replay(e.currentTarget)}
        >
          <Icon name="refresh" /> {replaying ? 'Replaying…' : 'Replay'}
        </button>
        <button type="button" class="ghost icon-only" aria-label="Close the delivery" onClick={onClose}>
          <Icon name="x" />
        </button>
      </div>
      {detail === null ? (
        <Skeleton label="Loading the delivery…" rows={2} />
      ) : typeof detail === 'string' ? (
        <p class="field-error" role="alert">
          The delivery could not be loaded. {detail}
        </p>
      ) : (
        <>
          <p class="hint">
            <code>{detail.id}</code>: the <code>webhook-id</code> header, the same on every attempt and replay.
          </p>
          <h4>Payload</h4>
          <pre class="code-block" tabIndex={0} role="region" aria-label="Payload">
            {JSON.stringify(detail.payload, null, 2)}
          </pre>
          <h4>Attempts</h4>
          {detail.attempt_log.length === 0 ? (
            <p class="hint">Not tried yet.</p>
          ) : (
            <ol class="attempt-log">
              {detail.attempt_log.map((a, i) => (
                <li key={`${a.attempted_at}-${i}`} class={a.succeeded ? 'attempt-ok' : 'attempt-failed'}>
                  <p class="attempt-head">
                    <Icon name={a.succeeded ? 'circle-check' : 'alert-triangle'} />
                    <strong>{a.status ?? 'No answer'}</strong>
                    <span>{a.duration_ms} ms</span>
                    <span class="muted">
                      {TRIGGERS[a.trigger] ?? a.trigger} ·{' '}
                      <time dateTime={a.attempted_at}>{new Date(a.attempted_at).toLocaleString()}</time>
                    </span>
                  </p>
                  {a.error && <p class="field-error">{attemptText(a)}</p>}
                  {a.response && (
                    <pre class="code-block attempt-response" tabIndex={0} role="region" aria-label={`Answer to attempt ${i + 1}`}>
                      {a.response}
                    </pre>
                  )}
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </section>
  );
}
