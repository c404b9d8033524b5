/**
 * The account's cafes (#/cafes): the list, and creating one (POST /cafes), after which its menu
 * link's short URL and QR code show at once, with a PNG download. #/cafes/<id> is the cafe's
 * editor. The QR comes from GET /links/:id/qr through the API with the key (an <img src> could not
 * carry the Authorization header), shown and saved from a blob URL.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import { cafeRouteOf, cafeTabHref, createCafeBody, qrFileName, type Cafe, type CafeTab } from '../cafes/cafe-list.js';
import { browserTimeZone } from '../links/zones.js';
import { TabList, TabPanel, type TabLink } from '../ui/Tabs.js';
import { Field } from '../fields/Field.js';
import { fieldErrorsOf, NO_ERRORS, type FieldErrors } from '../fields/errors.js';
import { CafeProfile } from '../cafes/CafeProfile.js';
import { MenuEditor } from '../cafes/MenuEditor.js';
import { ThemeSettings } from '../cafes/ThemeSettings.js';
import { MenuScansToday, ScansTodayLink, useScansTodayBySlug } from '../cafes/MenuScansToday.js';
import { lazyComponent } from '../lazy.js';
import type { ScreenProps } from './screen-props.js';
import '../cafes/cafes.css';
import { saveBlob } from '../save-file.js';

type Client = ReturnType<typeof signedInClient>;
type Loaded = { phase: 'loading' } | { phase: 'error'; message: string } | { phase: 'ready'; cafe: Cafe };
type Listing = { phase: 'loading' } | { phase: 'error'; message: string } | { phase: 'ready'; cafes: Cafe[] };

// The import brings zod and the API's bulk-insert schema along: only cafe pages load it.
const MenuImport = lazyComponent(() => import('../cafes/MenuImport.js').then((m) => m.MenuImport), 'menu import');

/** The QR's size on screen and in the download: large enough to print on a table card. */
const QR_SIZE = 512;

export function Cafes({ me, subpath }: ScreenProps) {
  const route = cafeRouteOf(subpath);
  const canCreate = me.scopes.includes('all') || me.scopes.includes('cafe.create');
  // A path that names no page still shows the cafes, with what went wrong above them.
  const lost = route.view === 'none' ? `There is no page at #/cafes${subpath}; here are your cafes.` : null;
  if (route.view === 'cafe') return <CafeEditor id={route.id} tab={route.tab} />;
  return <CafeList canCreate={canCreate} lost={lost} />;
}

function CafeList({ canCreate, lost }: { canCreate: boolean; lost: string | null }) {
  const client = useMemo(signedInClient, []);
  const [listing, setListing] = useState<Listing>({ phase: 'loading' });
  const [created, setCreated] = useState<Cafe | null>(null);
  const scansToday = useScansTodayBySlug();

  const load = async () => {
    try {
      const { data, error, response } = await client.GET('/api/v1/cafes');
      setListing(data ? { phase: 'ready', cafes: data.data } : { phase: 'error', message: problemText(response.status, error) });
    } catch {
      setListing({ phase: 'error', message: UNREACHABLE });
    }
  };
  useEffect(() => void load(), []);

  return (
    <section class="cafes" aria-labelledby="cafes-title">
      <h1 id="cafes-title">Cafes</h1>
      {lost && (
        <p class="field-error" role="alert">
          {lost}
        </p>
      )}
      {created && <NewCafe cafe={created} client={client} />}
      {listing.phase === 'loading' ? (
        <p class="loading" role="status">
          Loading cafes…
        </p>
      ) : listing.phase === 'error' ? (
        <p class="field-error" role="alert">
          The cafes could not be loaded. {listing.message}
        </p>
      ) : listing.cafes.length === 0 ? (
        <div class="empty">
          <p>No cafes yet. A cafe is a menu guests open from its QR code: create one below, then add its hours and dishes.</p>
        </div>
      ) : (
        <ul class="cafe-list" aria-label="Your cafes">
          {listing.cafes.map((cafe) => {
            const scans = scansToday?.(cafe.link.dynamic_link_id) ?? null;
            return (
              <li key={cafe.id}>
                <a href={`#/cafes/${cafe.id}`} id={`cafe-name-${cafe.id}`}>
                  {cafe.name}
                </a>
                <span class="cafe-url">{cafe.link.full_dynamic_url}</span>
                {scans !== null && <ScansTodayLink slug={cafe.link.dynamic_link_id} scans={scans} describedBy={`cafe-name-${cafe.id}`} />}
              </li>
            );
          })}
        </ul>
      )}
      {canCreate ? (
        <CreateCafe
          client={client}
          onCreated={(cafe) => {
            setCreated(cafe);
            void load();
          }}
        />
      ) : (
        <p class="hint">This key lacks the cafe.create scope, so it cannot create cafes.</p>
      )}
    </section>
  );
}

function CreateCafe({ client, onCreated }: { client: Client; onCreated(cafe: Cafe): void }) {
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setProblem(null);
    const form = createCafeBody(name);
    if ('errors' in form) return setErrors(form.errors);
    setErrors(NO_ERRORS);
    setBusy(true);
    try {
      const { data, error, response } = await client.POST('/api/v1/cafes', { body: form.body });
      if (data) {
        setName('');
        onCreated(await inBrowserZone(client, data.data));
      } else {
        const byField = fieldErrorsOf(error);
        setErrors(byField);
        if (!byField.name) setProblem(problemText(response.status, error));
      }
    } catch {
      setProblem(UNREACHABLE);
    } finally {
      setBusy(false);
    }
  };

  return (
    // `submit` says its own failures beside the form: it never rejects.
    <form class="create-cafe" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="create-cafe-title">
      <h2 id="create-cafe-title">Create a cafe</h2>
      <Field path="name" label="Cafe name" errors={errors} hint="Also the name of its menu link.">
        {(input) => (
          <input {...input} value={name} maxLength={255} autoComplete="organization" onInput={(e) => setName(e.currentTarget.value)} />
        )}
      </Field>
      {problem && (
        <p class="field-error" role="alert">
          {problem}
        </p>
      )}
      <button type="submit" disabled={busy}>
        {busy ? 'Creating…' : 'Create cafe'}
      </button>
    </form>
  );
}

/**
 * The cafe just made, its clock set to the browser's time zone (POST /cafes takes none and leaves
 * UTC): whoever creates a cafe is most often where it is (decision 0388). A refusal leaves UTC,
 * which the profile then offers to change.
 */
async function inBrowserZone(client: Client, cafe: Cafe): Promise<Cafe> {
  const timezone = browserTimeZone();
  if (cafe.timezone === timezone) return cafe;
  try {
    const { data } = await client.PUT('/api/v1/cafes/{id}', { params: { path: { id: cafe.id } }, body: { timezone } });
    return data?.data ?? cafe;
  } catch {
    return cafe;
  }
}

/** The cafe just made: where its menu is, and its QR code to print. Takes focus so a screen reader hears it. */
function NewCafe({ cafe, client }: { cafe: Cafe; client: Client }) {
  const panel = useRef<HTMLDivElement>(null);
  const [qr, setQr] = useState<{ url: string; blob: Blob } | { error: string } | null>(null);
  useEffect(() => panel.current?.focus(), [cafe.id]);
  useEffect(() => {
    let url = '';
    setQr(null);
    client
      .GET('/api/v1/links/{id}/qr', {
        params: { path: { id: cafe.link.dynamic_link_id }, query: { format: 'png', size: QR_SIZE } },
        parseAs: 'blob',
      })
      .then(({ data, error, response }) => {
        if (!data) return setQr({ error: problemText(response.status, error) });
        url = URL.createObjectURL(data);
        setQr({ url, blob: data });
      })
      .catch(() => setQr({ error: UNREACHABLE }));
    return () => url && URL.revokeObjectURL(url);
  }, [cafe.id]);

  const download = () => {
    if (qr && 'blob' in qr) saveBlob(qr.blob, qrFileName(cafe.name, QR_SIZE));
  };

  return (
    <div class="new-cafe notice" ref={panel} tabIndex={-1} role="region" aria-labelledby="new-cafe-title">
      <h2 id="new-cafe-title">“{cafe.name}” is ready</h2>
      <p>
        Its menu is at{' '}
        <a href={cafe.link.full_dynamic_url} target="_blank" rel="noopener noreferrer">
          {cafe.link.full_dynamic_url}
        </a>
        . Guests who scan this code open it.
      </p>
      <div class="cafe-qr">
        {qr === null ? (
          <p role="status">Drawing the QR code…</p>
        ) : 'error' in qr ? (
          <p class="field-error" role="alert">
            The QR code could not be drawn. {qr.error}
          </p>
        ) : (
          <img src={qr.url} alt={`QR code for ${cafe.link.full_dynamic_url}`} width={192} height={192} data-testid="cafe-qr" />
        )}
        <div class="actions">
          <button type="button" onClick={download} disabled={!qr || !('url' in qr)}>
            Download QR (PNG)
          </button>
          <a href={cafeTabHref(cafe.id, 'menu')}>Edit {cafe.name}</a>
        </div>
      </div>
    </div>
  );
}

const TABS: ReadonlyArray<{ key: CafeTab; label: string; icon: TabLink['icon'] }> = [
  { key: 'menu', label: 'Menu', icon: 'tools-kitchen-2' },
  { key: 'profile', label: 'Profile', icon: 'building-store' },
  { key: 'look', label: 'Look', icon: 'palette' },
  { key: 'import', label: 'Import', icon: 'upload' },
];

/**
 * One cafe: its menu, its profile, the look of its menu page and the menu's import, each a tab
 * with its own address (#/cafes/<id>/profile), so Back and a bookmark return to it. A tab's panel
 * is made when first opened and kept (hidden) after, so a profile half typed survives a look at
 * the menu. The address can move to another cafe's editor with this one on screen (a bookmark,
 * Back): until the cafe at the new address is loaded nothing of the one left is shown, and all
 * its parts are made afresh for the new one (keyed on its id).
 */
function CafeEditor({ id, tab }: { id: string; tab: CafeTab }) {
  const [loaded, setLoaded] = useState<Loaded>({ phase: 'loading' });
  // Bumped when an import replaced the menu: the editor is made afresh and reads the new one.
  const [menuVersion, setMenuVersion] = useState(0);
  // The tabs opened so far for this cafe: their panels stay on the page.
  const [opened, setOpened] = useState<{ id: string; tabs: ReadonlySet<CafeTab> }>({ id, tabs: new Set([tab]) });
  const tabs = opened.id === id ? (opened.tabs.has(tab) ? opened.tabs : new Set([...opened.tabs, tab])) : new Set([tab]);
  useEffect(() => {
    if (opened.id !== id || !opened.tabs.has(tab)) setOpened({ id, tabs });
  }, [id, tab]);
  useEffect(() => {
    setLoaded({ phase: 'loading' });
    // An answer for a cafe already left is dropped, whichever comes back first.
    let current = true;
    signedInClient()
      .GET('/api/v1/cafes/{id}', { params: { path: { id } } })
      .then(({ data, error, response }) => {
        if (current)
          setLoaded(data ? { phase: 'ready', cafe: data.data } : { phase: 'error', message: problemText(response.status, error) });
      })
      .catch(() => current && setLoaded({ phase: 'error', message: UNREACHABLE }));
    return () => {
      current = false;
    };
  }, [id]);
  // A save of the cafe left behind, answered after the address moved on, changes nothing shown.
  const saved = (cafe: Cafe) => setLoaded((now) => (now.phase === 'ready' && now.cafe.id === cafe.id ? { phase: 'ready', cafe } : now));
  // The render between the address's change and the effect above still holds the previous cafe.
  const shown: Loaded = loaded.phase === 'ready' && loaded.cafe.id !== id ? { phase: 'loading' } : loaded;
  if (shown.phase !== 'ready') {
    return (
      <section aria-labelledby="cafe-title">
        <h1 id="cafe-title">Cafe</h1>
        {shown.phase === 'loading' ? (
          <p class="loading" role="status">
            Loading the cafe…
          </p>
        ) : (
          <p class="field-error" role="alert">
            The cafe could not be loaded. {shown.message} <a href="#/cafes">Back to your cafes</a>.
          </p>
        )}
      </section>
    );
  }
  const { cafe } = shown;
  const panel = (key: CafeTab, content: () => ComponentChildren) =>
    tabs.has(key) && (
      <TabPanel idPrefix="cafe" tab={key} shown={tab === key}>
        {content()}
      </TabPanel>
    );
  return (
    <section key={cafe.id} class="cafe-editor" aria-labelledby="cafe-title">
      <p class="cafe-back">
        <a href="#/cafes">← All cafes</a>
      </p>
      <div class="cafe-editor-head">
        <h1 id="cafe-title">{cafe.name}</h1>
        <a href={cafe.link.full_dynamic_url} target="_blank" rel="noopener noreferrer">
          Open the menu page<span class="visually-hidden"> (new tab)</span>
        </a>
      </div>
      <MenuScansToday slug={cafe.link.dynamic_link_id} />
      <TabList
        label={`${cafe.name}: parts`}
        idPrefix="cafe"
        tabs={TABS.map((t) => ({ ...t, href: cafeTabHref(cafe.id, t.key) }))}
        selected={tab}
        rendered={tabs}
      />
      {panel('menu', () => (
        <MenuEditor key={menuVersion} cafeId={cafe.id} />
      ))}
      {panel('profile', () => (
        <CafeProfile cafe={cafe} onSaved={saved} />
      ))}
      {panel('look', () => (
        <ThemeSettings cafe={cafe} onSaved={saved} />
      ))}
      {panel('import', () => (
        <MenuImport
          cafeId={cafe.id}
          cafeName={cafe.name}
          menuHref={cafeTabHref(cafe.id, 'menu')}
          onImported={() => setMenuVersion((v) => v + 1)}
        />
      ))}
    </section>
  );
}
