/**
 * Home (#/): the account at a glance, where a person lands after signing in. Scans today and in
 * the last 7 days, each against the period before (as the dashboard compares them), the links
 * scanned most this week, the cafes with today's menu scans, what changed lately (links, jobs),
 * the next things to do, and what this key is. Every read goes out at once; a part the key's
 * scopes do not allow says so instead of asking (docs/decisions/0392-the-home-screen.md).
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { Me } from '../api/client.js';
import type { paths } from '../api/schema.js';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import { changeText, previousPeriod, type AnalyticsView } from '../analytics/view.js';
import type { Cafe } from '../cafes/cafe-list.js';
import { ScansTodayLink, useScansTodayBySlug } from '../cafes/MenuScansToday.js';
import type { Job } from '../forms.js';
import { browserTimeZone } from '../links/zones.js';
import { EmptyState, Skeleton } from '../ui/Feedback.js';
import { Icon } from '../ui/Icon.js';
import { JOB_KINDS } from './Jobs.js';
import type { ScreenProps } from './screen-props.js';
import './home.css';

type General = paths['/api/v1/analytics/general']['get']['responses'][200]['content']['application/json']['data'];
type TopLink = paths['/api/v1/analytics/qr-code']['get']['responses'][200]['content']['application/json']['data'][number];
type Link = paths['/api/v1/links']['get']['responses'][200]['content']['application/json']['data'][number];

const TOP_LINKS = 5;
const RECENT = 5;

/** A part of the screen: its answer, why it could not be read, or that this key may not read it. */
type Part<T> = { ok: true; value: T } | { ok: false; message: string };

interface Glance {
  today: General;
  yesterday: General;
  week: General;
  weekBefore: General;
  topLinks: Part<TopLink[]>;
  cafes: Part<Cafe[]> | null;
  links: Part<Link[]> | null;
  jobs: Part<Job[]>;
}

const may = (me: Me, scope: string) => me.scopes.includes('all') || me.scopes.includes(scope);
const lacks = (scope: string, what: string) => `This key lacks the ${scope} scope, so it cannot ${what}.`;

/**
 * "Invite people" is offered once the account has people to invite: the API has no people (or
 * invitations) yet, so there is nothing to show. When it has, this says whether the key may invite.
 */
const canInvitePeople = (_me: Me): boolean => false;

type Client = ReturnType<typeof signedInClient>;

/** A read that never throws: its data, or the reason in words. */
async function part<T>(request: Promise<{ data?: { data: T }; error?: unknown; response: Response }>): Promise<Part<T>> {
  try {
    const { data, error, response } = await request;
    return data ? { ok: true, value: data.data } : { ok: false, message: problemText(response.status, error) };
  } catch {
    return { ok: false, message: UNREACHABLE };
  }
}

async function load(client: Client, me: Me, zone: string): Promise<Glance> {
  const week: AnalyticsView = { duration: '7_days', from: '', to: '', timezone: zone, bots: false, filters: {} };
  const before = previousPeriod(week, new Date());
  const general = (query: NonNullable<paths['/api/v1/analytics/general']['get']['parameters']['query']>) =>
    part(client.GET('/api/v1/analytics/general', { params: { query: { timezone: zone, ...query } } }));
  const [today, yesterday, thisWeek, weekBefore, topLinks, cafes, links, jobs] = await Promise.all([
    general({ duration: 'today' }),
    general({ duration: 'yesterday' }),
    general({ duration: '7_days' }),
    general({ duration: 'custom', date_from: before.from, date_to: before.to }),
    part(client.GET('/api/v1/analytics/qr-code', { params: { query: { duration: '7_days', timezone: zone, limit: TOP_LINKS } } })),
    may(me, 'cafe.read') ? part(client.GET('/api/v1/cafes')) : null,
    may(me, 'links.read') ? part(client.GET('/api/v1/links', { params: { query: { sort_by: 'last_modified', size: RECENT } } })) : null,
    part(client.GET('/api/v1/jobs', { params: { query: { size: RECENT } } })),
  ]);
  // The totals are the screen itself: without them it says why, as a whole.
  for (const p of [today, yesterday, thisWeek, weekBefore]) if (!p.ok) throw new Error(p.message);
  const value = (p: Part<General>) => (p as { value: General }).value;
  return {
    today: value(today),
    yesterday: value(yesterday),
    week: value(thisWeek),
    weekBefore: value(weekBefore),
    topLinks,
    cafes,
    links,
    jobs,
  };
}

type Loaded = { phase: 'loading' } | { phase: 'error'; message: string } | { phase: 'ready'; glance: Glance };

export function Home({ me }: ScreenProps) {
  const client = useMemo(signedInClient, []);
  const zone = useMemo(browserTimeZone, []);
  const [loaded, setLoaded] = useState<Loaded>({ phase: 'loading' });
  useEffect(() => {
    let live = true;
    load(client, me, zone).then(
      (glance) => live && setLoaded({ phase: 'ready', glance }),
      (e: unknown) => live && setLoaded({ phase: 'error', message: e instanceof Error ? e.message : UNREACHABLE }),
    );
    return () => void (live = false);
  }, [client, me, zone]);

  const empty = loaded.phase === 'ready' && loaded.glance.week.numberOfLinks === 0;
  return (
    <section class="home" aria-labelledby="home-title">
      <div class="home-head">
        <h1 id="home-title">{me.account.name}</h1>
        <NextActions me={me} />
      </div>
      {loaded.phase === 'loading' && <Skeleton rows={5} label="Loading your account at a glance…" />}
      {loaded.phase === 'error' && (
        <p class="field-error" role="alert">
          The account could not be read. {loaded.message}
        </p>
      )}
      {empty && (
        <EmptyState icon="qrcode" title="Create your first link">
          <p>A link is a short address with a QR code you print once and point anywhere, any time.</p>
          {may(me, 'links.create') ? (
            <a class="button primary" href="#/links/new">
              <Icon name="plus" />
              New link
            </a>
          ) : (
            <p class="hint">{lacks('links.create', 'create links')}</p>
          )}
        </EmptyState>
      )}
      {loaded.phase === 'ready' && !empty && <Glance glance={loaded.glance} zone={zone} />}
      {loaded.phase === 'ready' && (
        <div class="home-grid">
          {!empty && <RecentActivity links={loaded.glance.links} jobs={loaded.glance.jobs} />}
          {me.key && <ThisKey me={me} keyFacts={me.key} />}
        </div>
      )}
    </section>
  );
}

/** What to do next: the main step first; each only where the key may take it, the reason otherwise. */
function NextActions({ me }: { me: Me }) {
  const actions = [
    { scope: 'links.create', href: '#/links/new', icon: 'plus', label: 'New link', what: 'create links' },
    { scope: 'cafe.create', href: '#/cafes', icon: 'coffee', label: 'New cafe', what: 'create cafes' },
    { scope: 'bulk.create', href: '#/bulk', icon: 'stack', label: 'Bulk create', what: 'create links in bulk' },
  ] as const;
  const allowed = actions.filter((a) => may(me, a.scope));
  const refused = actions.filter((a) => !may(me, a.scope));
  return (
    <div class="home-actions">
      <div class="home-steps" role="group" aria-label="Next steps">
        {allowed.map((a, i) => (
          <a key={a.href} class={`button${i === 0 ? ' primary' : ''}`} href={a.href}>
            <Icon name={a.icon} />
            {a.label}
          </a>
        ))}
        {canInvitePeople(me) && (
          <a class="button" href="#/people">
            <Icon name="user-plus" />
            Invite people
          </a>
        )}
      </div>
      {refused.length > 0 && (
        <p class="hint">
          {refused.map((a) => a.label).join(', ')}: this key lacks {refused.map((a) => a.scope).join(', ')}.
        </p>
      )}
    </div>
  );
}

function Glance({ glance, zone }: { glance: Glance; zone: string }) {
  const lastWeek = previousPeriod({ duration: '7_days', from: '', to: '', timezone: zone, bots: false, filters: {} }, new Date());
  return (
    <>
      <dl class="home-totals">
        <Total
          name="Scans today"
          id="today"
          count={glance.today.numberOfScans}
          before={glance.yesterday.numberOfScans}
          label="all of yesterday"
          href="#/analytics?duration=today"
        />
        <Total
          name="Scans in the last 7 days"
          id="week"
          count={glance.week.numberOfScans}
          before={glance.weekBefore.numberOfScans}
          label={lastWeek.label}
          href="#/analytics"
        />
      </dl>
      <div class="home-grid">
        <TopLinks part={glance.topLinks} />
        <Cafes part={glance.cafes} />
      </div>
    </>
  );
}

function Total(props: { name: string; id: string; count: number; before: number; label: string; href: string }) {
  const { name, id, count, before, label, href } = props;
  const trend = count > before ? 'up' : count < before ? 'down' : 'flat';
  return (
    <div>
      <dt>
        <a href={href}>{name}</a>
      </dt>
      <dd>
        <strong data-total={id}>{count.toLocaleString('en')}</strong>
        <span class={`home-delta ${trend}`} data-delta={id}>
          {trend !== 'flat' && <Icon name={trend === 'up' ? 'trending-up' : 'trending-down'} />}
          {changeText(count, before, label)}
        </span>
      </dd>
    </div>
  );
}

function Panel({ id, title, children }: { id: string; title: string; children: preact.ComponentChildren }) {
  return (
    <section class="home-panel" aria-labelledby={`home-${id}`}>
      <h2 id={`home-${id}`}>{title}</h2>
      {children}
    </section>
  );
}

function TopLinks({ part }: { part: Part<TopLink[]> }) {
  return (
    <Panel id="top-links" title="Top links this week">
      {!part.ok ? (
        <p class="field-error">The links could not be ranked. {part.message}</p>
      ) : part.value.length === 0 ? (
        <p class="hint">No scans in the last 7 days yet.</p>
      ) : (
        <ol class="home-list">
          {part.value.map((row) => (
            <li key={row.dynamicLinkId}>
              <a href={`#/analytics/${encodeURIComponent(row.dynamicLinkId)}`}>{row.name}</a>
              <span class="home-count">
                {row.scans.toLocaleString('en')} scan{row.scans === 1 ? '' : 's'}
              </span>
            </li>
          ))}
        </ol>
      )}
    </Panel>
  );
}

function Cafes({ part }: { part: Part<Cafe[]> | null }) {
  const scansToday = useScansTodayBySlug();
  return (
    <Panel id="cafes" title="Cafes">
      {part === null ? (
        <p class="hint">{lacks('cafe.read', 'see the cafes')}</p>
      ) : !part.ok ? (
        <p class="field-error">The cafes could not be read. {part.message}</p>
      ) : part.value.length === 0 ? (
        <p class="hint">
          No cafes yet. <a href="#/cafes">Create one</a> for a menu guests open from its QR code.
        </p>
      ) : (
        <ul class="home-list">
          {part.value.map((cafe) => {
            const scans = scansToday?.(cafe.link.dynamic_link_id) ?? null;
            return (
              <li key={cafe.id}>
                <a href={`#/cafes/${cafe.id}`} id={`home-cafe-${cafe.id}`}>
                  {cafe.name}
                </a>
                {scans !== null && <ScansTodayLink slug={cafe.link.dynamic_link_id} scans={scans} describedBy={`home-cafe-${cafe.id}`} />}
              </li>
            );
          })}
        </ul>
      )}
    </Panel>
  );
}

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function RecentActivity({ links, jobs }: { links: Part<Link[]> | null; jobs: Part<Job[]> }) {
  return (
    <Panel id="recent" title="Recent activity">
      <h3>Links changed lately</h3>
      {links === null ? (
        <p class="hint">{lacks('links.read', 'list the links')}</p>
      ) : !links.ok ? (
        <p class="field-error">The links could not be read. {links.message}</p>
      ) : (
        <ul class="home-list">
          {links.value.map((link) => (
            <li key={link.id}>
              <a href={`#/links/${encodeURIComponent(link.dynamic_link_id)}/edit`}>{link.name}</a>
              <time class="hint" dateTime={link.updated_at}>
                {link.updated_at === link.created_at ? 'created' : 'changed'} {new Date(link.updated_at).toLocaleDateString()}
              </time>
            </li>
          ))}
        </ul>
      )}
      <h3>Jobs</h3>
      {!jobs.ok ? (
        <p class="field-error">The jobs could not be read. {jobs.message}</p>
      ) : jobs.value.length === 0 ? (
        <p class="hint">No exports, bulk generations or menu imports yet.</p>
      ) : (
        <ul class="home-list">
          {jobs.value.map((job) => (
            <li key={job.id}>
              <a href="#/jobs">{JOB_KINDS[job.type] ?? job.type}</a>
              <span>
                <span class={`badge badge-${job.state}`}>{job.state}</span>{' '}
                <time class="hint" dateTime={job.createdAt}>
                  {when(job.createdAt)}
                </time>
              </span>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

/** The key's facts, which the first console page listed: its name, scopes, expiry, and where keys are managed. */
function ThisKey({ me, keyFacts }: { me: Me; keyFacts: NonNullable<Me['key']> }) {
  return (
    <Panel id="key" title="This key">
      <dl class="facts">
        <dt>Name</dt>
        <dd>{keyFacts.name ?? 'unnamed'}</dd>
        <dt>Scopes</dt>
        <dd>{keyFacts.scopes.join(', ')}</dd>
        <dt>Expires</dt>
        <dd>{keyFacts.expiresAt ? new Date(keyFacts.expiresAt).toLocaleString() : 'never'}</dd>
        <dt>Plan</dt>
        <dd>{me.account.plan}</dd>
      </dl>
      {me.plan.apiKeyManagement && may(me, 'all') ? (
        <a href="#/keys">Manage API keys</a>
      ) : (
        <p class="hint">
          {me.plan.apiKeyManagement
            ? 'Keys are managed with a key that has the all scope.'
            : `The ${me.account.plan} plan does not include managing keys here; the operator issues them with the CLI.`}
        </p>
      )}
    </Panel>
  );
}
