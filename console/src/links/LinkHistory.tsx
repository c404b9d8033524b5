/**
 * The "History" list of a link's edit page: who changed what from what to what, and when, newest
 * first, read again after each save (`version`); older entries a page at a time.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import { actionText, shownChanges, type HistoryEvent } from './history.js';

const PAGE = 20;
const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function LinkHistory({ slug, version }: { slug: string; version: number }) {
  const client = useMemo(signedInClient, []);
  const [events, setEvents] = useState<HistoryEvent[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [problem, setProblem] = useState('');

  const load = async (cursor: string | null, isCurrent: () => boolean) => {
    try {
      const { data, error, response } = await client.GET('/api/v1/links/{id}/history', {
        params: { path: { id: slug }, query: { limit: PAGE, ...(cursor ? { cursor } : {}) } },
      });
      if (!isCurrent()) return;
      if (!data) return setProblem(problemText(response.status, error));
      setProblem('');
      setEvents((shown) => (cursor && shown ? [...shown, ...data.data] : data.data));
      setNext(data.nextCursor);
    } catch {
      if (isCurrent()) setProblem(UNREACHABLE);
    }
  };

  useEffect(() => {
    let current = true;
    void load(null, () => current);
    return () => {
      current = false;
    };
  }, [slug, version]);

  return (
    <section class="link-history" aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
      {problem && <p role="alert">The history could not be loaded: {problem}</p>}
      {events === null && !problem && (
        <p class="loading" role="status">
          Loading the history…
        </p>
      )}
      {events?.length === 0 && <p class="hint">No changes recorded yet.</p>}
      {events && events.length > 0 && (
        <ol>
          {events.map((event) => (
            <li key={event.id}>
              <p>
                <time dateTime={event.at}>{when.format(new Date(event.at))}</time> · <strong>{event.actor.label}</strong>{' '}
                {actionText(event.action)}
              </p>
              {shownChanges(event).length > 0 && (
                <ul>
                  {shownChanges(event).map((line, i) => (
                    <li key={i}>{line}</li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
      {next && (
        <button type="button" class="ghost" onClick={() => void load(next, () => true)}>
          Show older changes
        </button>
      )}
    </section>
  );
}
