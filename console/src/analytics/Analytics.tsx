/**
 * The analytics dashboard, account-wide (#/analytics) and per link (#/analytics/<slug>): totals
 * against the period before, scans per hour or day (uPlot), the weekday × hour grid, ranked
 * countries, cities, browsers, systems and device types, where scans come from (QR code or link,
 * placements, referrers, campaigns), the account's top QR codes, and the CSV export. Loaded on demand
 * (screens/index.ts), so uPlot only comes with this page. It asks again every POLL_MS while the
 * tab is visible, so new scans show without a reload
 * (docs/decisions/0300-polling-not-server-sent-events.md).
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import type { paths } from '../api/schema.js';
import { browserTimeZone } from '../links/zones.js';
import { ZoneOptions } from '../links/ZoneSelect.js';
import { useRoute } from '../router.js';
import type { ScreenProps } from '../screens/screen-props.js';
import {
  activeFilters,
  apiQuery,
  barWidth,
  changeText,
  countryLabel,
  bucketLabel,
  DURATION_LABELS,
  deviceLabel,
  DURATIONS,
  heatLevel,
  previousPeriod,
  routeOfView,
  scanSeries,
  slugOfSubpath,
  viewFromQuery,
  weekGrid,
  withFilter,
  WEEKDAY_NAMES,
  type AnalyticsQuery,
  type AnalyticsView,
  type Duration,
  type FilterKey,
  type Source,
  type RankedRow,
} from './view.js';
import { ExportCsv } from './ExportCsv.js';
import { campaignLabel, placementLabel, referrerLabel, sourceName, sourceSplit } from './origins.js';
import './analytics.css';
import { lazyComponent } from '../lazy.js';
import { Icon } from '../ui/Icon.js';
import { WhenNear } from '../ui/WhenNear.js';
import { Skeleton } from '../ui/Feedback.js';

// uPlot is fetched while the numbers are asked for, not before.
const ScanChart = lazyComponent(() => import('./ScanChart.js').then((m) => m.ScanChart), 'chart');
// And the world's outlines while the chart is.
const WorldMap = lazyComponent(() => import('./WorldMap.js').then((m) => m.WorldMap), 'map');

/** How often an open, visible dashboard asks again: each time one request per panel, each a read of pre-aggregated rows. */
const POLL_MS = 5000;
const RANK_LIMIT = 10;
/** The map colours every country with scans (about 250 exist). */
const MAP_LIMIT = 300;

type Answer<P extends keyof paths> = paths[P] extends {
  get: { responses: { 200: { content: { 'application/json': { data: infer D } } } } };
}
  ? D
  : never;
type General = Answer<'/api/v1/analytics/general'>;
type Activity = Answer<'/api/v1/analytics/activity'>;
type Time = Answer<'/api/v1/analytics/time'>;
type Ranked = RankedRow[];
type QrCodes = Answer<'/api/v1/analytics/qr-code'>;
type Actions = paths['/api/v1/links/{id}/analytics/actions']['get']['responses'][200]['content']['application/json']['data'];
/** Placement rows carry their placement (and, account-wide, its link) beside the ranked fields. */
type Placements = Answer<'/api/v1/analytics/placement'>;

interface Numbers {
  general: General;
  previous: General;
  activity: Activity;
  time: Time;
  country: Ranked;
  region: Ranked;
  browser: Ranked;
  ops: Ranked;
  device: Ranked;
  source: Ranked;
  placement: Placements;
  referrer: Ranked;
  campaign: Ranked;
  qrCode: QrCodes | null;
  /** Account-wide: scans by the domain their link is on. */
  domain: Ranked | null;
  /** Per link: its scans and the taps on its page's actions. */
  actions: Actions | null;
}

class Problem extends Error {}

type Client = ReturnType<typeof signedInClient>;

/**
 * One analytics GET, account-wide or for the link. The per-link paths answer exactly what the
 * account's do (one route plugin serves both, api/routes/analytics), so the account's path types both.
 */
async function read<
  P extends '/api/v1/analytics/general' | '/api/v1/analytics/activity' | '/api/v1/analytics/time' | '/api/v1/analytics/country',
>(client: Client, slug: string | null, path: P, query: AnalyticsQuery): Promise<Answer<P>> {
  const { data, error, response } =
    slug === null
      ? await client.GET(path as '/api/v1/analytics/general', { params: { query } })
      : await client.GET(path.replace('/api/v1/', '/api/v1/links/{id}/') as '/api/v1/links/{id}/analytics/general', {
          params: { path: { id: slug }, query },
        });
  if (!data) throw new Problem(problemText(response.status, error));
  return data.data as Answer<P>;
}

/** The account's links by scans (account-wide only), each with its slug. */
async function readQrCodes(client: Client, query: AnalyticsQuery): Promise<QrCodes> {
  const { data, error, response } = await client.GET('/api/v1/analytics/qr-code', { params: { query } });
  if (!data) throw new Problem(problemText(response.status, error));
  return data.data;
}

/** A link's funnel: its human scans, and the visitors who tapped each action of its page. */
async function readActions(client: Client, slug: string, view: AnalyticsView): Promise<Actions> {
  const { duration, date_from, date_to, timezone } = apiQuery(view);
  const { data, error, response } = await client.GET('/api/v1/links/{id}/analytics/actions', {
    params: { path: { id: slug }, query: { duration, date_from, date_to, timezone } },
  });
  if (!data) throw new Problem(problemText(response.status, error));
  return data.data;
}

async function load(client: Client, slug: string | null, view: AnalyticsView): Promise<Numbers> {
  const query = apiQuery(view);
  const ranked = apiQuery(view, RANK_LIMIT);
  const before = previousPeriod(view, new Date());
  const rank = (dimension: 'country' | 'region' | 'browser' | 'ops' | 'device' | 'source' | 'placement' | 'referrer' | 'campaign') =>
    read(
      client,
      slug,
      `/api/v1/analytics/${dimension}` as '/api/v1/analytics/country',
      dimension === 'country' ? apiQuery(view, MAP_LIMIT) : ranked,
    );
  const [
    general,
    previous,
    activity,
    time,
    country,
    region,
    browser,
    ops,
    device,
    source,
    placement,
    referrer,
    campaign,
    qrCode,
    domain,
    actions,
  ] = await Promise.all([
    read(client, slug, '/api/v1/analytics/general', query),
    read(client, slug, '/api/v1/analytics/general', { ...query, duration: 'custom', date_from: before.from, date_to: before.to }),
    read(client, slug, '/api/v1/analytics/activity', query),
    read(client, slug, '/api/v1/analytics/time', query),
    rank('country'),
    rank('region'),
    rank('browser'),
    rank('ops'),
    rank('device'),
    rank('source'),
    rank('placement') as Promise<Placements>,
    rank('referrer'),
    rank('campaign'),
    slug === null ? readQrCodes(client, ranked) : Promise.resolve(null),
    slug === null ? read(client, null, '/api/v1/analytics/domain' as '/api/v1/analytics/country', ranked) : Promise.resolve(null),
    slug === null ? Promise.resolve(null) : readActions(client, slug, view),
  ]);
  return {
    general,
    previous,
    activity,
    time,
    country,
    region,
    browser,
    ops,
    device,
    source,
    placement,
    referrer,
    campaign,
    qrCode,
    domain,
    actions,
  };
}

export function Analytics({ subpath }: ScreenProps) {
  const slug = slugOfSubpath(subpath.split('?')[0]!);
  if (slug === undefined) {
    return (
      <section aria-labelledby="analytics-title">
        <h1 id="analytics-title">No such page</h1>
        <p>
          There is no page at #/analytics{subpath}. <a href="#/analytics">Go to the account's analytics</a>.
        </p>
      </section>
    );
  }
  return <Dashboard key={slug ?? ''} slug={slug} />;
}

/** The name of the link whose dashboard this is; null for the account's, or until it is read (or when it cannot be). */
function useLinkName(client: ReturnType<typeof signedInClient>, slug: string | null): string | null {
  const [name, setName] = useState<string | null>(null);
  useEffect(() => {
    if (slug === null) return;
    let live = true;
    client
      .GET('/api/v1/links/{id}', { params: { path: { id: slug } } })
      .then(({ data }) => live && data && setName(data.data.name))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [client, slug]);
  return name;
}

type Loaded = { phase: 'loading' } | { phase: 'error'; message: string } | { phase: 'ready'; numbers: Numbers; at: Date };

function Dashboard({ slug }: { slug: string | null }) {
  const client = useMemo(signedInClient, []);
  const zone = useMemo(browserTimeZone, []);
  const route = useRoute();
  const query = route.split('?')[1] ?? '';
  const view = useMemo(() => viewFromQuery(query, zone), [query, zone]);
  const [loaded, setLoaded] = useState<Loaded>({ phase: 'loading' });
  const linkName = useLinkName(client, slug);
  const go = (change: Partial<AnalyticsView>) => (location.hash = `#${routeOfView({ ...view, ...change }, zone, slug)}`);
  // A failure is said where the chart would be.
  // The map's 100 KB outline is fetched and parsed when the map comes near the screen (WhenNear), not here.
  useEffect(() => void ScanChart.preload().catch(() => {}), []);

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setLoaded({ phase: 'loading' });
    const refresh = async () => {
      clearTimeout(timer);
      try {
        const numbers = await load(client, slug, view);
        if (live) setLoaded({ phase: 'ready', numbers, at: new Date() });
      } catch (e) {
        // A failed poll keeps the numbers on screen; only the first load shows the error.
        if (live)
          setLoaded((current) =>
            current.phase === 'ready' ? current : { phase: 'error', message: e instanceof Problem ? e.message : UNREACHABLE },
          );
      }
      // `refresh` answers its own failures on screen: it never rejects.
      if (live && document.visibilityState === 'visible') timer = setTimeout(() => void refresh(), POLL_MS);
    };
    // A hidden tab asks nothing; shown again, it catches up at once.
    const onVisibility = () => document.visibilityState === 'visible' && void refresh();
    document.addEventListener('visibilitychange', onVisibility);
    void refresh();
    return () => {
      live = false;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [client, slug, view]);

  // A link's dashboard is named as its owner named the link; the slug, until the name is read, and beside it.
  const title = slug === null ? 'Analytics' : `Analytics of ${linkName ?? slug}`;
  return (
    <section class="analytics" aria-labelledby="analytics-title">
      <div class="analytics-head">
        <h1 id="analytics-title">{title}</h1>
        {slug !== null && linkName !== null && <span class="analytics-slug">/{slug}</span>}
        {slug !== null && <a href={`#${routeOfView(view, zone, null)}`}>All links</a>}
      </div>
      <Controls view={view} go={go} />
      <FilterChips view={view} zone={zone} slug={slug} />
      <ExportCsv slug={slug} view={view} />
      {loaded.phase === 'loading' && <Skeleton label="Loading the numbers…" rows={4} />}
      {loaded.phase === 'error' && (
        <p class="field-error" role="alert">
          The numbers could not be loaded. {loaded.message}
        </p>
      )}
      {loaded.phase === 'ready' && <Panels numbers={loaded.numbers} view={view} slug={slug} at={loaded.at} />}
    </section>
  );
}

function Controls({ view, go }: { view: AnalyticsView; go: (change: Partial<AnalyticsView>) => void }) {
  return (
    <form class="analytics-controls" onSubmit={(e) => e.preventDefault()} aria-label="What the numbers cover">
      <label>
        Range
        <select value={view.duration} onChange={(e) => go({ duration: e.currentTarget.value as Duration })}>
          {DURATIONS.map((d) => (
            <option key={d} value={d}>
              {DURATION_LABELS[d]}
            </option>
          ))}
        </select>
      </label>
      {view.duration === 'custom' && (
        <>
          <label>
            From
            <input type="date" value={view.from} max={view.to || undefined} onChange={(e) => go({ from: e.currentTarget.value })} />
          </label>
          <label>
            To
            <input type="date" value={view.to} min={view.from || undefined} onChange={(e) => go({ to: e.currentTarget.value })} />
          </label>
        </>
      )}
      <label>
        Time zone
        <select value={view.timezone} onChange={(e) => go({ timezone: e.currentTarget.value })}>
          <ZoneOptions current={view.timezone} />
        </select>
      </label>
      <label class="analytics-bots">
        <input type="checkbox" checked={view.bots} onChange={(e) => go({ bots: e.currentTarget.checked })} />
        Count bots too
      </label>
    </form>
  );
}

/** The filters set by clicks, each a chip that removes it (a link to the view without it). */
function FilterChips({ view, zone, slug }: { view: AnalyticsView; zone: string; slug: string | null }) {
  const filters = activeFilters(view);
  if (filters.length === 0) return null;
  return (
    <div class="analytics-filters" role="group" aria-label="Filters">
      <span class="hint">Only scans with</span>
      <ul>
        {filters.map(({ key, label, value }) => {
          const shown =
            key === 'country' ? countryLabel(value, navigator.language).name : key === 'source' ? sourceName(value as Source) : value;
          return (
            <li key={key}>
              <a
                class="filter-chip"
                href={`#${routeOfView(withFilter(view, key, undefined), zone, slug)}`}
                aria-label={`Remove the filter ${label}: ${shown}`}
              >
                {label}: {shown}
                <Icon name="x" />
              </a>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function Panels({ numbers, view, slug, at }: { numbers: Numbers; view: AnalyticsView; slug: string | null; at: Date }) {
  const zone = browserTimeZone();
  /** The dashboard narrowed by one more fact, as a link (so it is in the address). */
  const filterHref = (key: FilterKey) => (value: string) => `#${routeOfView(withFilter(view, key, value), zone, slug)}`;
  const before = previousPeriod(view, at);
  const { general, previous } = numbers;
  const series = scanSeries(numbers.activity);
  const per = series.unit === 'hour' ? 'hour' : 'day';
  return (
    <>
      <p class="hint" role="status">
        Updated {at.toLocaleTimeString()}; new scans show within seconds while this tab is open.
      </p>
      <dl class="analytics-totals">
        <Total
          name="Scans"
          id="scans"
          count={general.numberOfScans}
          note={changeText(general.numberOfScans, previous.numberOfScans, before.label)}
        />
        <Total
          name="Unique visitors"
          id="visitors"
          count={general.uniqueVisitors}
          note={changeText(general.uniqueVisitors, previous.uniqueVisitors, before.label)}
        />
        <Total name="Bot scans" id="bots" count={general.botScans} note={view.bots ? 'counted above' : 'left out above'} />
        {slug === null && <Total name="Links" id="links" count={general.numberOfLinks} />}
      </dl>
      {numbers.actions && <Funnel actions={numbers.actions} />}
      <section class="analytics-panel" aria-labelledby="scans-per-bucket">
        <h2 id="scans-per-bucket">
          Scans per {per} ({view.timezone.replace(/_/g, ' ')})
        </h2>
        <ScanChart series={series} labelledBy="scans-per-bucket" />
        <SeriesTable per={per} series={series} />
      </section>
      <WhenNear height="20rem">
        <Heatmap time={numbers.time} />
      </WhenNear>
      <section class="analytics-panel" aria-labelledby="map-title">
        <h2 id="map-title">Scans by country</h2>
        <WhenNear height="16rem">
          <WorldMap rows={numbers.country} hrefOf={filterHref('country')} />
        </WhenNear>
      </section>
      <Origins numbers={numbers} view={view} slug={slug} filterHref={filterHref('source')} />
      <div class="analytics-ranks">
        <RankedBars
          title="Countries"
          rows={numbers.country.slice(0, RANK_LIMIT)}
          filter={{ href: filterHref('country'), what: 'from' }}
          label={(row) => {
            const c = countryLabel(row.name, navigator.language);
            return (
              <>
                {c.flag && <span aria-hidden="true">{c.flag} </span>}
                {c.name}
              </>
            );
          }}
        />
        <RankedBars title="Cities" rows={numbers.region} />
        <RankedBars title="Browsers" rows={numbers.browser} filter={{ href: filterHref('browser'), what: 'in' }} />
        <RankedBars title="Operating systems" rows={numbers.ops} filter={{ href: filterHref('os'), what: 'on' }} />
        <RankedBars title="Devices" rows={numbers.device} label={(row) => deviceLabel(row.name)} />
        {numbers.qrCode && <TopQrCodes rows={numbers.qrCode} view={view} />}
        {/* Only where there is a choice: an account on the service's domain alone has one row. */}
        {numbers.domain && (numbers.domain.length > 1 || view.filters.domain !== undefined) && (
          <RankedBars title="Domains" rows={numbers.domain} filter={{ href: filterHref('domain'), what: 'on' }} />
        )}
      </div>
    </>
  );
}

/**
 * What people did on the link's page after scanning: "1,204 scans → 310 saved the contact, 26 %",
 * one row an action, its bar the share of the scans (taps are counted once per visitor a day, so
 * a row rarely passes them; when it does, its bar is full).
 */
function Funnel({ actions }: { actions: Actions }) {
  const scans = actions.scans.toLocaleString('en');
  return (
    <section class="analytics-panel funnel" aria-labelledby="funnel-title">
      <h2 id="funnel-title">What people did on the page</h2>
      {actions.actions.length === 0 ? (
        <p class="empty">
          No taps on this link's page in this range. Contact cards, wifi, places, events, files, products, link lists and menus count taps
          on their buttons; other links have none.
        </p>
      ) : (
        <ol class="ranked funnel-steps">
          {actions.actions.map((step) => {
            const share = Math.round(Number(step.percentage));
            return (
              <li key={step.action}>
                <span class="ranked-name">
                  <span class="funnel-scans">{scans} scans</span> <span aria-hidden="true">→</span>
                  <span class="visually-hidden">, then</span> {step.taps.toLocaleString('en')} {step.name}
                </span>
                <span class="ranked-count">{actions.scans > 0 ? `${share} %` : '—'}</span>
                <span class="ranked-bar" aria-hidden="true">
                  <span style={{ width: `${Math.min(100, actions.scans > 0 ? Number(step.percentage) : 100)}%` }} />
                </span>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

/**
 * "Where scans come from": QR code against link as one split bar (its numbers in a list beside it,
 * for screen readers and for reading exact counts), then placements, referrers and campaigns
 * ranked as the other dimensions are. Account-wide, a placement is named with its link and leads
 * to that link's dashboard.
 */
function Origins({
  numbers,
  view,
  slug,
  filterHref,
}: {
  numbers: Numbers;
  view: AnalyticsView;
  slug: string | null;
  /** A source's name leads to the dashboard narrowed to its scans. */
  filterHref: (source: string) => string;
}) {
  const zone = browserTimeZone();
  const split = sourceSplit(numbers.source);
  const total = split.reduce((sum, s) => sum + s.scans, 0);
  return (
    <section class="analytics-panel origins" aria-labelledby="origins-title">
      <h2 id="origins-title">Where scans come from</h2>
      {total === 0 ? (
        <p class="empty">No scans in this range.</p>
      ) : (
        <>
          <div class="source-split" aria-hidden="true">
            {split.map((s) => s.scans > 0 && <span key={s.source} class={`source-${s.source}`} style={{ flexGrow: s.scans }} />)}
          </div>
          <ul class="source-legend" aria-label="Scans by source">
            {split.map((s) => (
              <li key={s.source} data-source={s.source}>
                <span class={`source-swatch source-${s.source}`} aria-hidden="true" />
                <span class="source-name">
                  {s.scans > 0 && view.filters.source !== s.source ? (
                    <a class="ranked-filter" href={filterHref(s.source)} title={`Only scans from ${sourceName(s.source)}`}>
                      {s.label}
                    </a>
                  ) : (
                    s.label
                  )}
                </span>
                <span class="ranked-count">
                  {s.scans.toLocaleString('en')} <span class="hint">({s.percentage}%)</span>
                </span>
              </li>
            ))}
          </ul>
          {split[2]!.scans > 0 && (
            <p class="hint">
              Codes downloaded before qrlinks marked its codes carry no marker, so their scans cannot be told from clicks on the link. Print
              a fresh code to have them counted as QR scans.
            </p>
          )}
        </>
      )}
      <div class="analytics-ranks">
        <RankedBars
          title="Placements"
          level="h3"
          rows={numbers.placement}
          label={(row) => {
            const name = placementLabel(row.name);
            if (slug !== null || !row.dynamicLinkId) return name;
            return <a href={`#${routeOfView(view, zone, row.dynamicLinkId)}`}>{`${name} · ${row.linkName ?? row.dynamicLinkId}`}</a>;
          }}
        />
        <RankedBars title="Referrers" level="h3" rows={numbers.referrer} label={(row) => referrerLabel(row.name)} />
        <RankedBars title="Campaigns" level="h3" rows={numbers.campaign} label={(row) => campaignLabel(row.name)} />
      </div>
    </section>
  );
}

/** The account's links by scans, each leading to its own dashboard with the same view. */
function TopQrCodes({ rows, view }: { rows: QrCodes; view: AnalyticsView }) {
  const zone = browserTimeZone();
  return (
    <RankedBars
      title="Top QR codes"
      rows={rows}
      label={(row) => <a href={`#${routeOfView(view, zone, row.dynamicLinkId)}`}>{row.name}</a>}
    />
  );
}

function Total({ name, id, count, note }: { name: string; id: string; count: number; note?: string }) {
  return (
    <div>
      <dt>{name}</dt>
      <dd>
        <strong data-total={id}>{count.toLocaleString('en')}</strong>
        {note && <span class="hint">{note}</span>}
      </dd>
    </div>
  );
}

/**
 * The chart's numbers as a table, folded under the chart: its rows (168 for a week by hour) are
 * made when it is opened, not with every dashboard.
 */
function SeriesTable({ per, series }: { per: 'hour' | 'day'; series: ReturnType<typeof scanSeries> }) {
  const [open, setOpen] = useState(false);
  return (
    <details onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Scans per {per} as a table</summary>
      {open && (
        <table class="analytics-series">
          <thead>
            <tr>
              <th scope="col">{per === 'hour' ? 'Hour' : 'Day'}</th>
              <th scope="col">Scans</th>
            </tr>
          </thead>
          <tbody>
            {series.labels.map((label, i) => (
              <tr key={label}>
                <th scope="row">{bucketLabel(label)}</th>
                <td>{series.ys[i]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </details>
  );
}

function Heatmap({ time }: { time: Time }) {
  const { rows, max } = weekGrid(time);
  return (
    <section class="analytics-panel" aria-labelledby="heatmap-title">
      <h2 id="heatmap-title">Scans by weekday and hour</h2>
      <div class="heatmap-scroll" tabIndex={0} role="region" aria-labelledby="heatmap-title">
        <table class="heatmap">
          <caption class="visually-hidden">Scans per local weekday (rows) and hour of the day (columns)</caption>
          <thead>
            <tr>
              <td />
              {rows[0]!.map((_, hour) => (
                <th key={hour} scope="col">
                  <span aria-hidden="true">{hour % 3 === 0 ? hour : ''}</span>
                  <span class="visually-hidden">{hour}:00</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((counts, day) => (
              <tr key={day}>
                <th scope="row">
                  <abbr title={WEEKDAY_NAMES[day]}>{WEEKDAY_NAMES[day]!.slice(0, 3)}</abbr>
                </th>
                {counts.map((count, hour) => (
                  <td key={hour} class={`heat-${heatLevel(count, max)}`} title={`${WEEKDAY_NAMES[day]} ${hour}:00: ${count} scans`}>
                    <span class="visually-hidden">{count}</span>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function RankedBars<R extends RankedRow>({
  title,
  rows,
  label = (row) => row.name,
  filter,
  level: Heading = 'h2',
}: {
  title: string;
  /** A card inside a titled section is a level below it. */
  level?: 'h2' | 'h3';
  rows: R[];
  label?: (row: R) => preact.ComponentChildren;
  /** Each row's name is a link to the dashboard narrowed to it ("Only scans from Germany"). */
  filter?: { href: (name: string) => string; what: 'from' | 'in' | 'on' };
}) {
  const id = `rank-${title.replace(/\W+/g, '-').toLowerCase()}`;
  const top = rows[0]?.scans ?? 0;
  return (
    <section class="analytics-panel" aria-labelledby={id}>
      <Heading id={id}>{title}</Heading>
      {rows.length === 0 ? (
        <p class="empty">No scans in this range.</p>
      ) : (
        <ol class="ranked">
          {rows.map((row) => (
            <li key={row.number}>
              <span class="ranked-name">
                {filter ? (
                  <a class="ranked-filter" href={filter.href(row.name)} title={`Only scans ${filter.what} ${row.name}`}>
                    {label(row)}
                  </a>
                ) : (
                  label(row)
                )}
              </span>
              <span class="ranked-count">
                {row.scans.toLocaleString('en')} <span class="hint">({row.percentage}%)</span>
              </span>
              <span class="ranked-bar" aria-hidden="true">
                <span style={{ width: `${barWidth(row, top)}%` }} />
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
