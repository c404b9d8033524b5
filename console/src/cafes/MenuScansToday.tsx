/**
 * Today's scans of a cafe's menu link (today from local midnight in the browser's time zone, bots
 * left out, as the dashboard counts them), linked to that link's dashboard (#/analytics/<slug>).
 * The cafe page asks for its one link (GET /links/:id/analytics/general); the list of cafes asks
 * once for the whole account's links ranked by today's scans (GET /analytics/qr-code), never once
 * per cafe (docs/decisions/0319-today-s-scans-of-the-menu-link.md).
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import { browserTimeZone } from '../links/zones.js';

/** The most rows the ranking answers: past it, a link left out may have scans. */
const RANKING_MAX = 1000;

const scansText = (n: number) => `${n.toLocaleString('en')} scan${n === 1 ? '' : 's'} today`;

/**
 * The count as a link to the link's dashboard. Its name is what it shows (what voice control users
 * say); in a list, `describedBy` names whose scans they are.
 */
export function ScansTodayLink({ slug, scans, describedBy }: { slug: string; scans: number; describedBy?: string }) {
  return (
    <a class="scans-today" href={`#/analytics/${encodeURIComponent(slug)}`} aria-describedby={describedBy}>
      {scansText(scans)}
    </a>
  );
}

type One = { phase: 'loading' } | { phase: 'error'; message: string } | { phase: 'ready'; scans: number };

/** The cafe page's count: its menu link's scans today, and the way to its dashboard. */
export function MenuScansToday({ slug }: { slug: string }) {
  const [state, setState] = useState<One>({ phase: 'loading' });
  useEffect(() => {
    setState({ phase: 'loading' });
    signedInClient()
      .GET('/api/v1/links/{id}/analytics/general', {
        params: { path: { id: slug }, query: { duration: 'today', timezone: browserTimeZone() } },
      })
      .then(({ data, error, response }) =>
        setState(
          data ? { phase: 'ready', scans: data.data.numberOfScans } : { phase: 'error', message: problemText(response.status, error) },
        ),
      )
      .catch(() => setState({ phase: 'error', message: UNREACHABLE }));
  }, [slug]);
  return (
    <p class="menu-scans">
      {state.phase === 'loading' ? (
        <span role="status">Counting today’s scans…</span>
      ) : state.phase === 'error' ? (
        <span>
          Today’s scans could not be counted. {state.message}{' '}
          <a href={`#/analytics/${encodeURIComponent(slug)}`}>Open the menu link’s analytics</a>
        </span>
      ) : (
        <>
          Menu link: <ScansTodayLink slug={slug} scans={state.scans} /> <span class="hint">(its analytics dashboard)</span>
        </>
      )}
    </p>
  );
}

/**
 * Today's scans of every link of the account, by slug, from one ranked request; `scansOf` is null
 * for a link the answer cannot speak for (the ranking full), and the whole is null while loading
 * or when it failed (the list then shows no counts: the cafe page says why).
 */
export function useScansTodayBySlug(): ((slug: string) => number | null) | null {
  const [ranking, setRanking] = useState<{ scans: Map<string, number>; complete: boolean } | null>(null);
  useEffect(() => {
    signedInClient()
      .GET('/api/v1/analytics/qr-code', { params: { query: { duration: 'today', timezone: browserTimeZone(), limit: RANKING_MAX } } })
      .then(
        ({ data }) =>
          data &&
          setRanking({ scans: new Map(data.data.map((row) => [row.dynamicLinkId, row.scans])), complete: data.data.length < RANKING_MAX }),
      )
      .catch(() => undefined);
  }, []);
  return useMemo(() => (ranking ? (slug: string) => ranking.scans.get(slug) ?? (ranking.complete ? 0 : null) : null), [ranking]);
}
