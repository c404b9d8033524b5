/**
 * The Activity page (#/activity, admins and owners): the account's audit log as sentences, newest
 * first, filtered by what changed, who changed it and between which days, older events a page at
 * a time. Each entry opens to show every changed field from what to what.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Me } from '../api/client.js';
import { changeLines } from '../links/history.js';
import { EmptyState, Skeleton } from '../ui/Feedback.js';
import { actionSentence, actorName, dayInstant, entityWords, namesOf } from './activity.js';
import { attempt, shownTime, type AuditEvent, type AuditQuery, type Member } from './calls.js';
import './people.css';

const PAGE = 50;
const ENTITIES: ReadonlyArray<NonNullable<AuditQuery['entity']>> = [
  'link',
  'folder',
  'template',
  'member',
  'invitation',
  'api_key',
  'file',
  'cafe',
  'cafe_group',
  'cafe_category',
  'cafe_item',
  'job',
];

interface Filters {
  entity: string;
  actor: string;
  from: string;
  to: string;
}
const NO_FILTERS: Filters = { entity: '', actor: '', from: '', to: '' };

export function Activity({ me }: { me: Me }) {
  const [members, setMembers] = useState<Member[]>([]);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [events, setEvents] = useState<AuditEvent[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const asked = useRef(0);

  useEffect(() => {
    void attempt((c) => c.GET('/api/v1/members')).then((a) => a.ok && setMembers(a.data.data));
  }, []);

  const load = async (cursor: string | null) => {
    const ask = ++asked.current;
    const query: AuditQuery = {
      limit: PAGE,
      ...(filters.entity && { entity: filters.entity as AuditQuery['entity'] }),
      ...(filters.actor && { actor: filters.actor }),
      ...(dayInstant(filters.from, false) && { from: dayInstant(filters.from, false) }),
      ...(dayInstant(filters.to, true) && { to: dayInstant(filters.to, true) }),
      ...(cursor && { cursor }),
    };
    const answer = await attempt((c) => c.GET('/api/v1/audit-events', { params: { query } }));
    // A newer question (the filters changed meanwhile) answers for the page.
    if (ask !== asked.current) return;
    if (!answer.ok) return setProblem(answer.message);
    setProblem(null);
    setEvents((shown) => (cursor && shown ? [...shown, ...answer.data.data] : answer.data.data));
    setNext(answer.data.nextCursor);
  };
  useEffect(() => {
    setEvents(null);
    void load(null);
  }, [filters]);

  const people = useMemo(() => new Map(members.map((m) => [m.userId, m.name?.trim() || m.email])), [members]);
  const names = useMemo(() => namesOf(events ?? [], people), [events, people]);
  const filtered = filters !== NO_FILTERS && Object.values(filters).some(Boolean);
  const set = (patch: Partial<Filters>) => setFilters({ ...filters, ...patch });

  return (
    <section class="people activity" aria-labelledby="activity-title">
      <div class="people-head">
        <h1 id="activity-title">Activity</h1>
      </div>
      <p class="hint">Who changed what in {me.account.name}, newest first.</p>
      <form class="activity-filters" role="search" aria-label="Filter the activity" onSubmit={(e) => e.preventDefault()}>
        <label>
          <span>What</span>
          <select value={filters.entity} onChange={(e) => set({ entity: e.currentTarget.value })}>
            <option value="">Everything</option>
            {ENTITIES.map((entity) => (
              <option key={entity} value={entity}>
                {entityWords(entity).replace(/^./, (c) => c.toUpperCase())}s
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>Who</span>
          <select value={filters.actor} onChange={(e) => set({ actor: e.currentTarget.value })}>
            <option value="">Anyone</option>
            {members.map((m) => (
              <option key={m.userId} value={m.userId}>
                {m.name?.trim() || m.email}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>From</span>
          <input type="date" value={filters.from} max={filters.to || undefined} onChange={(e) => set({ from: e.currentTarget.value })} />
        </label>
        <label>
          <span>To</span>
          <input type="date" value={filters.to} min={filters.from || undefined} onChange={(e) => set({ to: e.currentTarget.value })} />
        </label>
        {filtered && (
          <button type="button" class="ghost" onClick={() => setFilters(NO_FILTERS)}>
            Clear filters
          </button>
        )}
      </form>

      {problem && (
        <p class="field-error" role="alert">
          The activity could not be loaded. {problem}
        </p>
      )}
      {events === null && !problem && <Skeleton rows={6} label="Loading the activity…" />}
      {events?.length === 0 && (
        <EmptyState icon="history" title={filtered ? 'Nothing matches these filters' : 'No activity yet'}>
          <p>{filtered ? 'Widen the dates or clear the filters.' : 'Changes made in the console or through the API appear here.'}</p>
        </EmptyState>
      )}
      {events && events.length > 0 && (
        <ol class="activity-list" aria-label="Activity, newest first">
          {events.map((e) => {
            const lines = e.action === 'create' ? [] : changeLines(e);
            return (
              <li key={e.id}>
                <p class="activity-line">
                  <strong>{actorName(e, people)}</strong> {actionSentence(e, names)}
                  <time dateTime={e.at}>{shownTime(e.at)}</time>
                </p>
                {lines.length > 0 && (
                  <details>
                    <summary>
                      {lines.length} change{lines.length === 1 ? '' : 's'}
                    </summary>
                    <ul>
                      {lines.map((line, i) => (
                        <li key={i}>{line}</li>
                      ))}
                    </ul>
                  </details>
                )}
              </li>
            );
          })}
        </ol>
      )}
      {next && events && (
        <button
          type="button"
          disabled={loadingMore}
          onClick={() => {
            setLoadingMore(true);
            void load(next).finally(() => setLoadingMore(false));
          }}
        >
          {loadingMore ? 'Loading…' : 'Show older activity'}
        </button>
      )}
    </section>
  );
}
