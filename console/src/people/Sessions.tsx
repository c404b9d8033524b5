/**
 * Where the person is signed in (GET /sessions), newest first: the browser and system, the
 * network, when it started and was last active; "Sign out" ends one, "Sign out everywhere else"
 * all but this one. This browser's own session is marked and signs out from the person menu.
 */
import { useEffect, useState } from 'preact/hooks';
import { Icon } from '../ui/Icon.js';
import { showToast } from '../ui/toasts.js';
import { attempt, shownTime, sinceText, type Session } from './calls.js';
import { deviceText } from './devices.js';

export function Sessions({ version }: { version: number }) {
  const [sessions, setSessions] = useState<Session[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const load = async () => {
    const answer = await attempt((c) => c.GET('/api/v1/sessions'));
    if (!answer.ok) return setProblem(answer.message);
    setProblem(null);
    setSessions(answer.data.data);
  };
  useEffect(() => void load(), [version]);

  const end = async (session: Session, anchor: Element) => {
    const answer = await attempt((c) => c.DELETE('/api/v1/sessions/{id}', { params: { path: { id: session.id } } }));
    if (!answer.ok) return showToast(`Not signed out: ${answer.message}`, { tone: 'error', anchor });
    showToast(`Signed out ${deviceText(session.userAgent)}`, { tone: 'success' });
    await load();
    document.getElementById('sessions-title')?.focus();
  };
  const endOthers = async (anchor: Element) => {
    const answer = await attempt((c) => c.DELETE('/api/v1/sessions'));
    if (!answer.ok) return showToast(`Not signed out: ${answer.message}`, { tone: 'error', anchor });
    showToast(answer.data.message, { tone: 'success', anchor });
    await load();
  };

  const others = sessions?.filter((s) => !s.current).length ?? 0;
  return (
    <section class="card sessions" aria-labelledby="sessions-title">
      <div class="card-head">
        <h2 id="sessions-title" tabIndex={-1}>
          Where you are signed in
        </h2>
        <button type="button" disabled={others === 0} onClick={(e) => void endOthers(e.currentTarget)}>
          <Icon name="logout" />
          Sign out everywhere else
        </button>
      </div>
      {problem && (
        <p class="field-error" role="alert">
          The sessions could not be loaded. {problem}
        </p>
      )}
      {sessions === null && !problem && (
        <p class="loading" role="status">
          Loading your sessions…
        </p>
      )}
      {sessions && (
        <ul class="session-list">
          {sessions.map((s) => (
            <li key={s.id}>
              <Icon name="devices" />
              <div class="session-facts">
                <strong>
                  {deviceText(s.userAgent)} {s.current && <span class="badge badge-active">This browser</span>}
                </strong>
                <small>
                  {s.ip ?? 'unknown network'} · signed in {shownTime(s.createdAt)} · active{' '}
                  <time dateTime={s.lastSeenAt} title={shownTime(s.lastSeenAt)}>
                    {sinceText(s.lastSeenAt)}
                  </time>
                </small>
              </div>
              {!s.current && (
                <button
                  type="button"
                  class="ghost"
                  aria-label={`Sign out ${deviceText(s.userAgent)}, signed in ${shownTime(s.createdAt)}`}
                  onClick={(e) => void end(s, e.currentTarget)}
                >
                  Sign out
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
