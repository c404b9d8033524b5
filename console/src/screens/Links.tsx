import type { FunctionComponent } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
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
  scopeBlock,
  SORTS,
  STATUS_LABELS,
  viewFromQuery,
  type EditorRoute,
  type Link,
  type LinkStatus,
  type LinkView,
} from '../links/view.js';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import { useRoute } from '../router.js';
import { lazyComponent } from '../lazy.js';
import { Dialog } from './Dialog.js';
import type { ScreenProps } from './screen-props.js';
import '../links/links.css';

type Folder = paths['/api/v1/folders']['get']['responses'][200]['content']['application/json']['data'][number];
type Client = ReturnType<typeof signedInClient>;
type Action = 'pause' | 'resume' | 'duplicate' | 'delete' | 'move';

const ACTION_SCOPES: Record<Action, string> = {
  pause: 'links.pause',
  resume: 'links.resume',
  duplicate: 'links.create',
  delete: 'links.delete',
  move: 'links.update',
};
const ACTION_LABELS: Record<Action, string> = { pause: 'Pause', resume: 'Resume', duplicate: 'Duplicate', delete: 'Delete', move: 'Move' };
const ACTION_DONE: Record<Action, string> = {
  pause: 'paused',
  resume: 'resumed',
  duplicate: 'duplicated',
  delete: 'deleted',
  move: 'moved',
};
/** The move target meaning "no folder". */
const NO_FOLDER = '';

type Listing = { phase: 'loading' } | { phase: 'error'; message: string } | { phase: 'ready'; links: Link[]; totalPages: number };

async function runAction(client: Client, action: Action, slug: string, folderId: string): Promise<string | null> {
  const params = { params: { path: { id: slug } } };
  const { error, response } =
    action === 'pause'
      ? await client.POST('/api/v1/links/{id}/pause', params)
      : action === 'resume'
        ? await client.POST('/api/v1/links/{id}/resume', params)
        : action === 'duplicate'
          ? await client.POST('/api/v1/links/{id}/duplicate', { ...params, body: {} })
          : action === 'move'
            ? await client.PUT('/api/v1/links/{id}/folder', { ...params, body: { folder_id: folderId === NO_FOLDER ? null : folderId } })
            : await client.DELETE('/api/v1/links/{id}', params);
  return response.ok ? null : problemText(response.status, error);
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

function LinkList({ me }: { me: Me }) {
  const client = useMemo(signedInClient, []);
  const route = useRoute();
  const query = route.split('?')[1] ?? '';
  const view = useMemo(() => viewFromQuery(query), [query]);
  const [listing, setListing] = useState<Listing>({ phase: 'loading' });
  const [reloads, setReloads] = useState(0);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [notice, setNotice] = useState('');
  const [confirming, setConfirming] = useState<{ action: Action; slugs: string[] } | null>(null);
  const [folders, reloadFolders] = useFolders(me, client);
  const go = (next: LinkView) => (location.hash = `#${routeOfView(next)}`);

  useEffect(() => {
    let current = true;
    setListing({ phase: 'loading' });
    client
      .GET('/api/v1/links', { params: { query: listQuery(view) } })
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

  const perform = async (action: Action, slugs: string[], folderId = NO_FOLDER) => {
    setNotice(`${ACTION_LABELS[action]}: working…`);
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
    setNotice([`${done} link${done === 1 ? '' : 's'} ${ACTION_DONE[action]}.`, ...failures].join(' '));
    setSelected(new Set());
    setReloads((n) => n + 1);
  };
  const ask = (action: Exclude<Action, 'move'>, slugs: string[]) =>
    action === 'delete' ? setConfirming({ action, slugs }) : void perform(action, slugs);

  const blocked = (action: Action) => scopeBlock(me, ACTION_SCOPES[action]);
  const blockedNotes = [...new Set((Object.keys(ACTION_SCOPES) as Action[]).map(blocked).filter((b): b is string => b !== null))];
  const links = listing.phase === 'ready' ? listing.links : [];
  const allSelected = links.length > 0 && links.every((l) => selected.has(l.dynamic_link_id));
  const toggle = (slug: string) => {
    const next = new Set(selected);
    if (!next.delete(slug)) next.add(slug);
    setSelected(next);
  };
  const filtered = view.search || view.type || view.status || view.folder;

  return (
    <div class="links-screen">
      <Folders me={me} client={client} view={view} go={go} setNotice={setNotice} folders={folders} reload={reloadFolders} />
      <section class="links-main" aria-labelledby="links-title">
        <div class="links-head">
          <h1 id="links-title">Links</h1>
          {scopeBlock(me, 'links.create') === null && (
            <a class="button" href="#/links/new">
              New link
            </a>
          )}
        </div>
        <form
          class="links-filters"
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            go(changeView(view, { search: String(new FormData(e.currentTarget).get('search') ?? '').trim() }));
          }}
        >
          <label>
            Search
            <input key={view.search} name="search" type="search" defaultValue={view.search} placeholder="Name, short URL or destination" />
          </label>
          <button type="submit">Search</button>
          <label>
            Type
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
            Status
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
            Sort
            <select value={view.sort} onChange={(e) => go(changeView(view, { sort: e.currentTarget.value as LinkView['sort'] }))}>
              {Object.entries(SORTS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
        </form>

        {blockedNotes.length > 0 && (
          <p class="hint" id="links-blocked">
            Some actions are off for this key: {blockedNotes.join(' ')}
          </p>
        )}
        <div class="links-bulk" role="group" aria-label="Selected links">
          <span>{selected.size} selected</span>
          {(['pause', 'resume', 'duplicate', 'delete'] as const).map((action) => (
            <button
              key={action}
              type="button"
              class="small"
              disabled={selected.size === 0 || blocked(action) !== null}
              aria-describedby={blocked(action) ? 'links-blocked' : undefined}
              onClick={() => ask(action, [...selected])}
            >
              {ACTION_LABELS[action]} selected
            </button>
          ))}
          {Array.isArray(folders) && (
            <form
              class="links-move"
              onSubmit={(e) => {
                e.preventDefault();
                void perform('move', [...selected], String(new FormData(e.currentTarget).get('folder') ?? NO_FOLDER));
              }}
            >
              <label>
                Move to
                <select name="folder">
                  <option value={NO_FOLDER}>No folder</option>
                  {folders.map((f) => (
                    <option key={f.id} value={f.id}>
                      {f.name}
                    </option>
                  ))}
                </select>
              </label>
              <button
                type="submit"
                class="small"
                disabled={selected.size === 0 || blocked('move') !== null}
                aria-describedby={blocked('move') ? 'links-blocked' : undefined}
              >
                Move selected
              </button>
            </form>
          )}
        </div>
        <p role="status" class="links-notice">
          {notice}
        </p>

        {listing.phase === 'loading' && <p class="loading">Loading links…</p>}
        {listing.phase === 'error' && (
          <p class="field-error" role="alert">
            The links could not be loaded. {listing.message}
          </p>
        )}
        {listing.phase === 'ready' && links.length === 0 && (
          <div class="empty">
            {view.page > listing.totalPages && listing.totalPages > 0 ? (
              <p>
                This view has {listing.totalPages} page{listing.totalPages === 1 ? '' : 's'}.{' '}
                <a href={`#${routeOfView({ ...view, page: listing.totalPages })}`}>Go to the last page</a>.
              </p>
            ) : filtered ? (
              <p>
                No links match this view. <a href="#/links">Show all links</a>.
              </p>
            ) : (
              <>
                <h2>No links yet</h2>
                <p>
                  Create one with New link, or over the API (<code>POST /api/v1/links</code>, described at{' '}
                  <a href="/api/v1/docs">/api/v1/docs</a>) or the CLI; they show up here.
                </p>
              </>
            )}
          </div>
        )}
        {links.length > 0 && (
          <table class="links-table cards-on-phone">
            <thead>
              <tr>
                <th scope="col">
                  <input
                    type="checkbox"
                    aria-label="Select all links on this page"
                    checked={allSelected}
                    onChange={() => setSelected(allSelected ? new Set() : new Set(links.map((l) => l.dynamic_link_id)))}
                  />
                </th>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Short URL</th>
                <th scope="col">Status</th>
                <th scope="col">Scans</th>
                <th scope="col">Created</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {links.map((link) => (
                <LinkRow
                  key={link.id}
                  link={link}
                  selected={selected.has(link.dynamic_link_id)}
                  onToggle={toggle}
                  onAction={ask}
                  blocked={blocked}
                  setNotice={setNotice}
                  canEdit={scopeBlock(me, 'links.update') === null}
                />
              ))}
            </tbody>
          </table>
        )}
        {listing.phase === 'ready' && <Pager view={view} totalPages={listing.totalPages} go={go} />}
      </section>
      {confirming && (
        <Dialog
          title={confirming.slugs.length === 1 ? 'Delete this link?' : `Delete ${confirming.slugs.length} links?`}
          submitLabel="Delete"
          onCancel={() => setConfirming(null)}
          onSubmit={() => {
            setConfirming(null);
            void perform('delete', confirming.slugs);
          }}
        >
          <p>The link stops working at once; its files and scans are removed for good.</p>
        </Dialog>
      )}
    </div>
  );
}

interface RowProps {
  link: Link;
  selected: boolean;
  onToggle(slug: string): void;
  onAction(action: Exclude<Action, 'move'>, slugs: string[]): void;
  blocked(action: Action): string | null;
  setNotice(text: string): void;
  canEdit: boolean;
}

/** How long a row's Copy button says "Copied" after a copy. */
const COPIED_MS = 2000;

function LinkRow({ link, selected, onToggle, onAction, blocked, setNotice, canEdit }: RowProps) {
  const slug = link.dynamic_link_id;
  // The button itself says it worked, where the eye is; the notice above says it to screen readers.
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = () =>
    navigator.clipboard.writeText(link.full_dynamic_url).then(
      () => {
        setCopied(true);
        setNotice(`Copied ${link.full_dynamic_url}`);
      },
      () => setNotice('The browser did not allow copying; select the URL and copy it.'),
    );
  return (
    <tr>
      <td>
        <input type="checkbox" aria-label={`Select ${link.name}`} checked={selected} onChange={() => onToggle(slug)} />
      </td>
      <td data-label="Name">{link.name}</td>
      <td data-label="Type">{link.type}</td>
      <td data-label="Short URL">
        <a href={link.full_dynamic_url}>{link.full_dynamic_url.replace(/^https?:\/\//, '')}</a>{' '}
        <button type="button" class="small" aria-label={`Copy the short URL of ${link.name}`} onClick={copy}>
          {copied ? 'Copied ✓' : 'Copy'}
        </button>
      </td>
      <td data-label="Status">
        <span class={`badge badge-${link.status}`}>{STATUS_LABELS[link.status]}</span>
      </td>
      <td data-label="Scans">
        <a href={`#/analytics/${encodeURIComponent(slug)}`} aria-label={`${link.human_scan_count} scans of ${link.name}: its analytics`}>
          {link.human_scan_count}
        </a>
      </td>
      <td data-label="Created">
        <time dateTime={link.created_at}>{new Date(link.created_at).toLocaleDateString()}</time>
      </td>
      <td data-label="Actions" class="row-actions">
        {canEdit && (
          <a class="button small" href={`#/links/${encodeURIComponent(slug)}/edit`} aria-label={`Edit ${link.name}`}>
            Edit
          </a>
        )}
        {([pauseAction(link.status), 'duplicate', 'delete'] as const).map((action) => (
          <button
            key={action}
            type="button"
            class="small"
            disabled={blocked(action) !== null}
            aria-describedby={blocked(action) ? 'links-blocked' : undefined}
            aria-label={`${ACTION_LABELS[action]} ${link.name}`}
            onClick={() => onAction(action, [slug])}
          >
            {ACTION_LABELS[action]}
          </button>
        ))}
      </td>
    </tr>
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
  setNotice(text: string): void;
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

function Folders({ me, client, view, go, setNotice, folders, reload }: FoldersProps) {
  const [editing, setEditing] = useState<{ mode: 'create' | 'rename' | 'delete'; folder?: Folder } | null>(null);

  const save = async (form: FormData) => {
    const target = editing!;
    setEditing(null);
    const name = String(form.get('name') ?? '').trim();
    try {
      const { error, response } =
        target.mode === 'create'
          ? await client.POST('/api/v1/folders', { body: { name } })
          : target.mode === 'rename'
            ? await client.PUT('/api/v1/folders/{id}', { params: { path: { id: target.folder!.id } }, body: { name } })
            : await client.DELETE('/api/v1/folders/{id}', { params: { path: { id: target.folder!.id } } });
      if (!response.ok) return setNotice(`The folder was not changed: ${problemText(response.status, error)}`);
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
      setNotice(UNREACHABLE);
    }
  };
  const blockedNotes = [
    ...new Set(
      ['folders.create', 'folders.update', 'folders.delete'].map((scope) => scopeBlock(me, scope)).filter((b): b is string => b !== null),
    ),
  ];
  const button = (label: string, scope: string, onClick: () => void, name?: string) => {
    const block = scopeBlock(me, scope);
    return (
      <button
        type="button"
        class="small"
        disabled={block !== null}
        aria-describedby={block ? 'folders-blocked' : undefined}
        aria-label={name}
        onClick={onClick}
      >
        {label}
      </button>
    );
  };

  return (
    <aside class="folders" aria-labelledby="folders-title">
      <h2 id="folders-title">Folders</h2>
      {typeof folders === 'string' ? (
        <p class="hint">{folders}</p>
      ) : folders === null ? (
        <p class="hint">Loading folders…</p>
      ) : (
        <ul>
          <li>
            <a href={`#${routeOfView({ ...view, folder: null, page: 1 })}`} aria-current={view.folder === null ? 'true' : undefined}>
              All links
            </a>
          </li>
          {folders.map((folder) => (
            <li key={folder.id}>
              <a
                href={`#${routeOfView({ ...view, folder: folder.id, page: 1 })}`}
                aria-current={view.folder === folder.id ? 'true' : undefined}
              >
                {folder.name}
              </a>
              <span class="folder-actions">
                {button('Rename', 'folders.update', () => setEditing({ mode: 'rename', folder }), `Rename ${folder.name}`)}
                {button('Delete', 'folders.delete', () => setEditing({ mode: 'delete', folder }), `Delete ${folder.name}`)}
              </span>
            </li>
          ))}
        </ul>
      )}
      {button('New folder', 'folders.create', () => setEditing({ mode: 'create' }))}
      {Array.isArray(folders) && blockedNotes.length > 0 && (
        <p class="hint" id="folders-blocked">
          {blockedNotes.join(' ')}
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
