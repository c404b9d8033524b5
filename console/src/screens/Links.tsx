import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { blockedNote, scopeBlock } from '../access.js';
import type { Me } from '../api/client.js';
import type { paths } from '../api/schema.js';
import {
  changeView,
  editorRouteOf,
  LINK_TYPES,
  listQuery,
  PAGE_SIZES,
  pauseAction,
  routeOfView,
  SORTS,
  STATUS_LABELS,
  viewFromQuery,
  type LinkStatus,
  type LinkView,
} from '../links/view.js';
import { LIST_FIELDS, type ListedLink } from '../links/listing.js';
import { LinkRow } from '../links/LinkRow.js';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import { useRoute } from '../router.js';
import { lazyComponent } from '../lazy.js';
import { EmptyState, Skeleton } from '../ui/Feedback.js';
import { Icon } from '../ui/Icon.js';
import { typingIn } from '../ui/keys.js';
import type { MenuAction } from '../ui/RowMenu.js';
import { deferWithUndo, showToast } from '../ui/toasts.js';
import { downloadName } from '../qr/download-name.js';
import { saveBlob } from '../save-file.js';
import { Dialog } from './Dialog.js';
import type { ScreenProps } from './screen-props.js';
import '../links/links.css';
import { ThumbnailStore } from '../links/thumbnail-store.js';
import { browserTimeZone } from '../links/zones.js';

/** Fetched when a folder is open: the links list, the first screen, does not carry it. */
const PrintSheets = lazyComponent(() => import('../jobs/PrintSheets.js').then((m) => m.PrintSheets), 'print sheets');

type Folder = paths['/api/v1/folders']['get']['responses'][200]['content']['application/json']['data'][number];
type Client = ReturnType<typeof signedInClient>;
type Action = 'pause' | 'resume' | 'duplicate' | 'archive' | 'move';

const ACTION_SCOPES: Record<Action, string> = {
  pause: 'links.pause',
  resume: 'links.resume',
  duplicate: 'links.create',
  archive: 'links.delete',
  move: 'links.update',
};
const ACTION_LABELS: Record<Action, string> = {
  pause: 'Pause',
  resume: 'Resume',
  duplicate: 'Duplicate',
  archive: 'Archive',
  move: 'Move',
};
const ACTION_DONE: Record<Action, string> = {
  pause: 'paused',
  resume: 'resumed',
  duplicate: 'duplicated',
  archive: 'archived',
  move: 'moved',
};
/** The move target meaning "no folder". */
const NO_FOLDER = '';
/** Days of scans each row's sparkline draws. */
const SPARK_DAYS = 14;
/** The size of a code downloaded from a row's menu. */
const DOWNLOAD_PX = 1024;

type Listing = { phase: 'loading' } | { phase: 'error'; message: string } | { phase: 'ready'; links: ListedLink[]; totalPages: number };

async function runAction(client: Client, action: Exclude<Action, 'archive'>, slug: string, folderId: string): Promise<string | null> {
  const params = { params: { path: { id: slug } } };
  const { error, response } =
    action === 'pause'
      ? await client.POST('/api/v1/links/{id}/pause', params)
      : action === 'resume'
        ? await client.POST('/api/v1/links/{id}/resume', params)
        : action === 'duplicate'
          ? await client.POST('/api/v1/links/{id}/duplicate', { ...params, body: {} })
          : await client.PUT('/api/v1/links/{id}/folder', { ...params, body: { folder_id: folderId === NO_FOLDER ? null : folderId } });
  return response.ok ? null : problemText(response.status, error);
}

/**
 * Archives a link for good (the API's archive is a permanent delete). Sent with keepalive: it is
 * made when an Undo window ends, which may be as the page is left (decision 0378).
 */
async function archiveNow(client: Client, slug: string): Promise<string | null> {
  try {
    const { error, response } = await client.POST('/api/v1/links/{id}/archive', { params: { path: { id: slug } }, keepalive: true });
    return response.ok ? null : problemText(response.status, error);
  } catch {
    return UNREACHABLE;
  }
}

/** The list on the page itself; beneath it, the link editor (loaded on demand: it is most of the links code) or "no such page". */
const LinkEditor = lazyComponent(() => import('./LinkEditor.js').then((m) => m.LinkEditor), 'editor');

export function Links({ me, subpath }: ScreenProps) {
  if (subpath === '') return <LinkList me={me} />;
  const route = editorRouteOf(subpath);
  if (route) return <LinkEditor me={me} route={route} />;
  return (
    <section aria-labelledby="links-title">
      <h1 id="links-title">No such page</h1>
      <p>
        There is no page at #/links{subpath}. <a href="#/links">Go to your links</a>.
      </p>
    </section>
  );
}

/** Puts focus on a row: on its name (a link when the key may edit), else its checkbox. */
const focusRow = (row: Element) =>
  (row.querySelector<HTMLElement>('.link-name a') ?? row.querySelector<HTMLElement>('.link-check'))?.focus();
const editHrefOf = (slug: string) => `#/links/${encodeURIComponent(slug)}/edit`;
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * The rows' QR thumbnails, drawn once the rows have painted (the renderer is fetched then), a few
 * each frame; each lands in its own row's image through the store, not through a list render.
 */
function useThumbnails(links: readonly ListedLink[]): ThumbnailStore {
  const store = useMemo(() => new ThumbnailStore(), []);
  useEffect(() => {
    if (links.length === 0) return;
    let current = true;
    let frame = 0;
    const start = setTimeout(() => {
      void import('../links/thumbnails.js').then(({ thumbnailUrl }) => {
        let at = 0;
        // Drawing is ~1 ms a code: a few per frame keep the page responsive while it runs.
        const step = () => {
          if (!current) return;
          const until = performance.now() + 8;
          while (at < links.length && performance.now() < until) {
            const link = links[at++]!;
            store.set(link.dynamic_link_id, thumbnailUrl(link.full_dynamic_url, link.qr_options));
          }
          if (at < links.length) frame = requestAnimationFrame(step);
        };
        frame = requestAnimationFrame(step);
      });
    }, 0);
    return () => {
      current = false;
      clearTimeout(start);
      cancelAnimationFrame(frame);
    };
  }, [links]);
  return store;
}

/** Each row's scans per day over the last SPARK_DAYS days: one request for the page. */
function useScanDays(client: Client, links: readonly ListedLink[]): ReadonlyMap<string, number[]> {
  const [days, setDays] = useState<ReadonlyMap<string, number[]>>(new Map());
  useEffect(() => {
    if (links.length === 0) return;
    let current = true;
    client
      .GET('/api/v1/analytics/links-by-day', {
        params: {
          query: {
            ids: links.map((l) => l.dynamic_link_id).join(','),
            days: SPARK_DAYS,
            timezone: browserTimeZone(),
          },
        },
      })
      .then(({ data }) => current && data && setDays(new Map(data.data.links.map((l) => [l.dynamic_link_id, l.scans]))))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [client, links]);
  return days;
}

function LinkList({ me }: { me: Me }) {
  const client = useMemo(signedInClient, []);
  const route = useRoute();
  const query = route.split('?')[1] ?? '';
  const view = useMemo(() => viewFromQuery(query), [query]);
  const [listing, setListing] = useState<Listing>({ phase: 'loading' });
  const [reloads, setReloads] = useState(0);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  /** Links archived whose Undo window is open: hidden already, deleted when it closes. */
  const [archiving, setArchiving] = useState<ReadonlySet<string>>(new Set());
  const [folders, reloadFolders] = useFolders(me, client);
  const search = useRef<HTMLInputElement>(null);
  const go = (next: LinkView) => (location.hash = `#${routeOfView(next)}`);
  const reload = () => setReloads((n) => n + 1);

  useEffect(() => {
    let current = true;
    setListing({ phase: 'loading' });
    client
      .GET('/api/v1/links', { params: { query: { ...listQuery(view), fields: LIST_FIELDS } } })
      .then(({ data, error, response }) => {
        if (!current) return;
        if (data) setListing({ phase: 'ready', links: data.data, totalPages: data.meta.totalPages });
        else setListing({ phase: 'error', message: problemText(response.status, error) });
      })
      .catch(() => current && setListing({ phase: 'error', message: UNREACHABLE }));
    return () => {
      current = false;
    };
  }, [client, view, reloads]);
  useEffect(() => setSelected(new Set()), [query]);
  // "/" goes to the search field from anywhere on the list but a text field.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey || typingIn(e.target)) return;
      e.preventDefault();
      search.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const loaded = listing.phase === 'ready' ? listing.links : null;
  const links = useMemo(() => (loaded ?? []).filter((l) => !archiving.has(l.dynamic_link_id)), [loaded, archiving]);
  const thumbs = useThumbnails(loaded ?? []);
  const scanDays = useScanDays(client, loaded ?? []);

  const perform = async (action: Exclude<Action, 'archive'>, slugs: string[], anchor: Element | null, folderId = NO_FOLDER) => {
    const failures: string[] = [];
    for (const slug of slugs) {
      try {
        const problem = await runAction(client, action, slug, folderId);
        if (problem) failures.push(`${slug}: ${problem}`);
      } catch {
        failures.push(`${slug}: ${UNREACHABLE}`);
      }
    }
    const done = slugs.length - failures.length;
    showToast([`${plural(done, 'link')} ${ACTION_DONE[action]}.`, ...failures].join(' '), {
      anchor,
      tone: failures.length ? 'error' : 'success',
    });
    setSelected(new Set());
    reload();
  };
  const archive = (slugs: string[], anchor: Element | null) => {
    // Focus goes on to the next row still shown, so the keyboard keeps its place.
    const rows = [...document.querySelectorAll<HTMLElement>('.link-row')];
    const after = rows
      .slice(rows.findIndex((r) => slugs.includes(r.dataset.slug ?? '')) + 1)
      .find((r) => !slugs.includes(r.dataset.slug ?? ''));
    const hadFocus = !!document.activeElement?.closest('.link-row');
    setArchiving((now) => new Set([...now, ...slugs]));
    setSelected(new Set());
    if (hadFocus && after) setTimeout(() => focusRow(after));
    deferWithUndo(slugs.length === 1 ? 'Link archived' : `${slugs.length} links archived`, {
      anchor,
      restore: () => setArchiving((now) => new Set([...now].filter((s) => !slugs.includes(s)))),
      commit: () =>
        void Promise.all(slugs.map((slug) => archiveNow(client, slug))).then((problems) => {
          const failed = problems.filter((p): p is string => p !== null);
          if (failed.length) showToast(`Not archived: ${failed.join(' ')}`, { tone: 'error' });
          // The archived rows leave the list in the same render that stops hiding them, so none
          // shows again for a moment before the reload's answer.
          const gone = new Set(slugs.filter((_, i) => problems[i] === null));
          setListing((now) => (now.phase === 'ready' ? { ...now, links: now.links.filter((l) => !gone.has(l.dynamic_link_id)) } : now));
          setArchiving((now) => new Set([...now].filter((s) => !slugs.includes(s))));
          reload();
        }),
    });
  };
  const download = async (link: ListedLink, anchor: Element) => {
    try {
      const { data, response } = await client.GET('/api/v1/links/{id}/qr', {
        params: { path: { id: link.dynamic_link_id }, query: { format: 'png', size: DOWNLOAD_PX } },
        parseAs: 'blob',
      });
      if (!data) return showToast(`The code could not be made: the server answered ${response.status}.`, { anchor, tone: 'error' });
      saveBlob(data, downloadName(link.name, DOWNLOAD_PX, 'png'));
    } catch {
      showToast(UNREACHABLE, { anchor, tone: 'error' });
    }
  };

  const blocked = (action: Action) => scopeBlock(me, ACTION_SCOPES[action]);
  const blockedNotes = blockedNote(me, Object.values(ACTION_SCOPES));
  const canEdit = scopeBlock(me, 'links.update') === null;
  const actionsOf = (link: ListedLink): MenuAction[] => {
    const slug = link.dynamic_link_id;
    const pause = pauseAction(link.status);
    return [
      { label: 'Edit', icon: 'edit', shortcut: 'e', disabled: !canEdit, run: () => (location.hash = editHrefOf(slug)) },
      { label: 'Download QR code', icon: 'qrcode', shortcut: 'q', run: (anchor) => void download(link, anchor) },
      {
        label: 'Duplicate',
        icon: 'stack',
        shortcut: 'd',
        disabled: blocked('duplicate') !== null,
        run: (anchor) => void perform('duplicate', [slug], anchor),
      },
      { label: 'Analytics', icon: 'chart-bar', shortcut: 'a', run: () => (location.hash = `#/analytics/${encodeURIComponent(slug)}`) },
      {
        label: ACTION_LABELS[pause],
        icon: pause === 'pause' ? 'pause' : 'play',
        shortcut: 'p',
        disabled: blocked(pause) !== null,
        run: (anchor) => void perform(pause, [slug], anchor),
      },
      {
        label: 'Archive',
        icon: 'archive',
        shortcut: 'x',
        danger: true,
        disabled: blocked('archive') !== null,
        run: (anchor) => archive([slug], anchor),
      },
    ];
  };
  // A row's letters act on the row holding focus; Enter on the row opens it; ↑ ↓ move between rows.
  const onListKey = (e: KeyboardEvent) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || typingIn(e.target)) return;
    const row = (e.target as Element).closest<HTMLElement>('.link-row');
    const link = row && links.find((l) => l.dynamic_link_id === row.dataset.slug);
    if (!row || !link) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      const next = (e.key === 'ArrowDown' ? row.nextElementSibling : row.previousElementSibling) as HTMLElement | null;
      if (!next) return;
      e.preventDefault();
      focusRow(next);
      return;
    }
    const action = actionsOf(link).find((a) => a.shortcut === e.key.toLowerCase());
    if (!action || (e.target as Element).closest('.menu')) return;
    e.preventDefault();
    if (!action.disabled) action.run(row.querySelector<HTMLElement>('.row-menu button') ?? row);
    else showToast(`${action.label} is off for this key.`, { anchor: row, tone: 'error' });
  };
  // A click on a row's empty space opens its editor; its controls keep their own clicks.
  const onListClick = (e: MouseEvent) => {
    const target = e.target as Element;
    if (!canEdit || target.closest('a, button, input, label, .row-menu, .menu')) return;
    const row = target.closest<HTMLElement>('.link-row');
    if (row?.dataset.slug && !getSelection()?.toString()) location.hash = editHrefOf(row.dataset.slug);
  };

  const allSelected = links.length > 0 && links.every((l) => selected.has(l.dynamic_link_id));
  const toggle = (slug: string) => {
    const next = new Set(selected);
    if (!next.delete(slug)) next.add(slug);
    setSelected(next);
  };
  const filtered = view.search || view.type || view.status || view.folder;
  const canCreate = scopeBlock(me, 'links.create') === null;

  return (
    <div class="links-screen">
      <Folders me={me} client={client} view={view} go={go} folders={folders} reload={reloadFolders} />
      <section class="links-main" aria-labelledby="links-title">
        <div class="links-head">
          <h1 id="links-title">Links</h1>
          <form
            class="links-filters"
            role="search"
            onSubmit={(e) => {
              e.preventDefault();
              go(changeView(view, { search: String(new FormData(e.currentTarget).get('search') ?? '').trim() }));
            }}
          >
            <label class="links-search">
              <span class="visually-hidden">Search</span>
              <Icon name="search" />
              <input
                ref={search}
                key={view.search}
                name="search"
                type="search"
                defaultValue={view.search}
                placeholder="Name, URL or destination"
                aria-keyshortcuts="/"
              />
              <kbd aria-hidden="true">/</kbd>
            </label>
            <label>
              <span class="visually-hidden">Type</span>
              <select value={view.type ?? ''} onChange={(e) => go(changeView(view, { type: e.currentTarget.value || null }))}>
                <option value="">All types</option>
                {LINK_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </select>
            </label>
            <label>
              <span class="visually-hidden">Status</span>
              <select
                value={view.status ?? ''}
                onChange={(e) => go(changeView(view, { status: (e.currentTarget.value || null) as LinkStatus | null }))}
              >
                <option value="">All statuses</option>
                {(Object.keys(STATUS_LABELS) as LinkStatus[]).map((s) => (
                  <option key={s} value={s}>
                    {STATUS_LABELS[s]}
                  </option>
                ))}
              </select>
            </label>
            <label>
              <span class="visually-hidden">Sort</span>
              <select value={view.sort} onChange={(e) => go(changeView(view, { sort: e.currentTarget.value as LinkView['sort'] }))}>
                {Object.entries(SORTS).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
          </form>
          {canCreate ? (
            <a class="button primary" href="#/links/new">
              <Icon name="plus" />
              New link
            </a>
          ) : (
            // Disabled where it would be, with the reason under it, rather than missing or failing on click.
            <button
              type="button"
              class="primary"
              disabled
              aria-describedby="links-blocked"
              title={scopeBlock(me, 'links.create') ?? undefined}
            >
              <Icon name="plus" />
              New link
            </button>
          )}
        </div>

        {blockedNotes && (
          <p class="hint" id="links-blocked">
            Some actions are off {me.key ? 'for this key' : 'for your role'}: {blockedNotes}
          </p>
        )}

        {listing.phase === 'loading' && <Skeleton rows={10} label="Loading links…" />}
        {listing.phase === 'error' && (
          <p class="field-error" role="alert">
            The links could not be loaded. {listing.message}
          </p>
        )}
        {listing.phase === 'ready' && links.length === 0 && (
          <div class="empty">
            {view.page > listing.totalPages && listing.totalPages > 0 ? (
              <p>
                This view has {plural(listing.totalPages, 'page')}.{' '}
                <a href={`#${routeOfView({ ...view, page: listing.totalPages })}`}>Go to the last page</a>.
              </p>
            ) : filtered || archiving.size > 0 ? (
              <p>
                No links match this view. <a href="#/links">Show all links</a>.
              </p>
            ) : (
              <EmptyState icon="link" title="No links yet">
                <p>
                  A link is a short URL and its QR code; where it leads can change after the code is printed. Links made over the API (
                  <a href="/api/v1/docs">/api/v1/docs</a>) or the CLI show up here too.
                </p>
                {canCreate && (
                  <a class="button primary" href="#/links/new">
                    <Icon name="plus" />
                    Create your first link
                  </a>
                )}
              </EmptyState>
            )}
          </div>
        )}
        {links.length > 0 && (
          <>
            <div class="links-select-all">
              <label class="check">
                <input
                  type="checkbox"
                  checked={allSelected}
                  onChange={() => setSelected(allSelected ? new Set() : new Set(links.map((l) => l.dynamic_link_id)))}
                />
                Select all links on this page
              </label>
            </div>
            {/* Keys and clicks are taken once for the whole list; each row's own controls are real buttons and links. */}
            <ul class="link-list" aria-label="Links" onKeyDown={onListKey} onClick={onListClick}>
              {links.map((link) => (
                <LinkRow
                  key={link.id}
                  link={link}
                  selected={selected.has(link.dynamic_link_id)}
                  onToggle={toggle}
                  actions={actionsOf(link)}
                  thumbnails={thumbs}
                  days={scanDays.get(link.dynamic_link_id)}
                  editHref={canEdit ? editHrefOf(link.dynamic_link_id) : null}
                />
              ))}
            </ul>
          </>
        )}
        {listing.phase === 'ready' && (listing.totalPages > 1 || links.length > 0) && (
          <Pager view={view} totalPages={listing.totalPages} go={go} />
        )}
        {selected.size > 0 && (
          <BulkBar
            count={selected.size}
            folders={Array.isArray(folders) ? folders : null}
            blocked={blocked}
            onAction={(action, anchor, folderId) => {
              const slugs = [...selected];
              if (action === 'archive') archive(slugs, anchor);
              else void perform(action, slugs, anchor, folderId);
            }}
            onClear={() => setSelected(new Set())}
          />
        )}
      </section>
    </div>
  );
}

interface BulkBarProps {
  count: number;
  folders: Folder[] | null;
  blocked(action: Action): string | null;
  onAction(action: Action, anchor: Element, folderId?: string): void;
  onClear(): void;
}

/** What can be done to the selected links: shown only while some are selected, pinned to the bottom of the screen. */
function BulkBar({ count, folders, blocked, onAction, onClear }: BulkBarProps) {
  const target = useRef<HTMLSelectElement>(null);
  const button = (action: Exclude<Action, 'move'>, icon: 'pause' | 'play' | 'stack' | 'archive') => (
    <button
      type="button"
      class={action === 'archive' ? 'danger' : undefined}
      disabled={blocked(action) !== null}
      aria-describedby={blocked(action) ? 'links-blocked' : undefined}
      onClick={(e) => onAction(action, e.currentTarget)}
    >
      <Icon name={icon} />
      <span class="bulk-label">{ACTION_LABELS[action]}</span>
    </button>
  );
  return (
    <div class="links-bulk" role="toolbar" aria-label="Selected links">
      <span class="links-bulk-count">{count} selected</span>
      {button('pause', 'pause')}
      {button('resume', 'play')}
      {button('duplicate', 'stack')}
      {folders && (
        <span class="links-move">
          <label>
            <span class="visually-hidden">Move to</span>
            <select ref={target}>
              <option value={NO_FOLDER}>No folder</option>
              {folders.map((f) => (
                <option key={f.id} value={f.id}>
                  {f.name}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            disabled={blocked('move') !== null}
            aria-describedby={blocked('move') ? 'links-blocked' : undefined}
            onClick={(e) => onAction('move', e.currentTarget, target.current?.value ?? NO_FOLDER)}
          >
            <Icon name="folder" />
            <span class="bulk-label">Move</span>
          </button>
        </span>
      )}
      {button('archive', 'archive')}
      <button type="button" class="ghost icon-only" aria-label="Clear the selection" onClick={onClear}>
        <Icon name="x" />
      </button>
    </div>
  );
}

function Pager({ view, totalPages, go }: { view: LinkView; totalPages: number; go(view: LinkView): void }) {
  return (
    <nav class="pager" aria-label="Pages">
      <a
        href={`#${routeOfView({ ...view, page: view.page - 1 })}`}
        aria-disabled={view.page <= 1}
        class={view.page <= 1 ? 'off' : undefined}
      >
        Previous
      </a>
      <span>
        Page {view.page} of {Math.max(totalPages, 1)}
      </span>
      <a
        href={`#${routeOfView({ ...view, page: view.page + 1 })}`}
        aria-disabled={view.page >= totalPages}
        class={view.page >= totalPages ? 'off' : undefined}
      >
        Next
      </a>
      <label>
        Per page
        <select value={String(view.size)} onChange={(e) => go(changeView(view, { size: Number(e.currentTarget.value) }))}>
          {PAGE_SIZES.map((n) => (
            <option key={n} value={String(n)}>
              {n}
            </option>
          ))}
        </select>
      </label>
    </nav>
  );
}

interface FoldersProps {
  me: Me;
  client: Client;
  view: LinkView;
  go(view: LinkView): void;
  folders: FolderList;
  reload(): void;
}

/** The account's folders, or why they cannot be shown; null while loading. */
type FolderList = Folder[] | string | null;

function useFolders(me: Me, client: Client): [FolderList, () => void] {
  const [folders, setFolders] = useState<FolderList>(null);
  const [reloads, setReloads] = useState(0);
  const readBlock = scopeBlock(me, 'folders.read');
  useEffect(() => {
    if (readBlock) return setFolders(readBlock);
    client
      .GET('/api/v1/folders')
      .then(({ data, error, response }) =>
        setFolders(data ? data.data : `The folders could not be loaded. ${problemText(response.status, error)}`),
      )
      .catch(() => setFolders(`The folders could not be loaded. ${UNREACHABLE}`));
  }, [client, reloads, readBlock]);
  return [folders, () => setReloads((n) => n + 1)];
}

function Folders({ me, client, view, go, folders, reload }: FoldersProps) {
  const [editing, setEditing] = useState<{ mode: 'create' | 'rename' | 'delete'; folder?: Folder } | null>(null);

  const save = async (form: FormData) => {
    const target = editing!;
    const setNotice = (message: string, tone: 'success' | 'error' = 'success') => showToast(message, { tone });
    setEditing(null);
    const name = String(form.get('name') ?? '').trim();
    try {
      const { error, response } =
        target.mode === 'create'
          ? await client.POST('/api/v1/folders', { body: { name } })
          : target.mode === 'rename'
            ? await client.PUT('/api/v1/folders/{id}', { params: { path: { id: target.folder!.id } }, body: { name } })
            : await client.DELETE('/api/v1/folders/{id}', { params: { path: { id: target.folder!.id } } });
      if (!response.ok) return setNotice(`The folder was not changed: ${problemText(response.status, error)}`, 'error');
      setNotice(
        target.mode === 'create'
          ? `Folder ${name} created.`
          : target.mode === 'rename'
            ? `Folder renamed to ${name}.`
            : `Folder ${target.folder!.name} deleted; its links stay, outside any folder.`,
      );
      if (target.mode === 'delete' && view.folder === target.folder!.id) go({ ...view, folder: null, page: 1 });
      reload();
    } catch {
      setNotice(UNREACHABLE, 'error');
    }
  };
  const blockedNotes = blockedNote(me, ['folders.create', 'folders.update', 'folders.delete']);
  /** A folder action: with a label, or (`name` given) an icon whose name is the label. */
  const button = (label: string, icon: 'plus' | 'edit' | 'trash', scope: string, onClick: () => void, name?: string) => {
    const block = scopeBlock(me, scope);
    return (
      <button
        type="button"
        class={name ? 'ghost icon-only' : undefined}
        disabled={block !== null}
        aria-describedby={block ? 'folders-blocked' : undefined}
        aria-label={name}
        title={name}
        onClick={onClick}
      >
        <Icon name={icon} />
        {name ? null : label}
      </button>
    );
  };
  const chosen = Array.isArray(folders) ? folders.find((f) => f.id === view.folder) : undefined;

  return (
    <aside class="folders" aria-labelledby="folders-title">
      <h2 id="folders-title">Folders</h2>
      {typeof folders === 'string' ? (
        <p class="hint">{folders}</p>
      ) : folders === null ? (
        <p class="hint">Loading folders…</p>
      ) : (
        <>
          <ul class="folder-list">
            <li>
              <a href={`#${routeOfView({ ...view, folder: null, page: 1 })}`} aria-current={view.folder === null ? 'true' : undefined}>
                <Icon name="link" />
                <span>All links</span>
              </a>
            </li>
            {folders.map((folder) => (
              <li key={folder.id}>
                <a
                  href={`#${routeOfView({ ...view, folder: folder.id, page: 1 })}`}
                  aria-current={view.folder === folder.id ? 'true' : undefined}
                  title={folder.name}
                >
                  <Icon name="folder" />
                  <span>{folder.name}</span>
                </a>
                <span class="folder-actions">
                  {button('Rename', 'edit', 'folders.update', () => setEditing({ mode: 'rename', folder }), `Rename ${folder.name}`)}
                  {button('Delete', 'trash', 'folders.delete', () => setEditing({ mode: 'delete', folder }), `Delete ${folder.name}`)}
                </span>
              </li>
            ))}
          </ul>
          {/* On a phone the folders are a select above the list (links.css shows one or the other). */}
          <div class="folder-select">
            <label>
              <span class="visually-hidden">Folder</span>
              <select value={view.folder ?? ''} onChange={(e) => go({ ...view, folder: e.currentTarget.value || null, page: 1 })}>
                <option value="">All links</option>
                {folders.map((f) => (
                  <option key={f.id} value={f.id}>
                    {f.name}
                  </option>
                ))}
              </select>
            </label>
            {chosen && (
              <>
                {button('Rename', 'edit', 'folders.update', () => setEditing({ mode: 'rename', folder: chosen }), `Rename ${chosen.name}`)}
                {button('Delete', 'trash', 'folders.delete', () => setEditing({ mode: 'delete', folder: chosen }), `Delete ${chosen.name}`)}
              </>
            )}
          </div>
        </>
      )}
      {button('New folder', 'plus', 'folders.create', () => setEditing({ mode: 'create' }))}
      {chosen && <PrintSheets source={{ folderId: chosen.id }} what={chosen.name} />}
      {Array.isArray(folders) && blockedNotes && (
        <p class="hint" id="folders-blocked">
          {blockedNotes}
        </p>
      )}
      {editing && (
        <Dialog
          title={
            editing.mode === 'create'
              ? 'New folder'
              : editing.mode === 'rename'
                ? `Rename ${editing.folder!.name}`
                : `Delete the folder ${editing.folder!.name}?`
          }
          submitLabel={editing.mode === 'create' ? 'Create' : editing.mode === 'rename' ? 'Rename' : 'Delete'}
          onCancel={() => setEditing(null)}
          onSubmit={(form) => void save(form)}
        >
          {editing.mode === 'delete' ? (
            <p>Its links are kept, outside any folder.</p>
          ) : (
            <label class="dialog-field">
              Folder name
              <input name="name" required maxLength={255} defaultValue={editing.folder?.name ?? ''} />
            </label>
          )}
        </Dialog>
      )}
    </aside>
  );
}
