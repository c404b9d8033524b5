import { useEffect, useRef, useState } from 'preact/hooks';
import type { Me } from '../api/client.js';
import { PAGES, pageAccess, pageOf, type Page } from '../nav.js';
import type { Theme } from '../theme.js';
import { SCREENS } from './index.js';

interface Props {
  me: Me;
  route: string;
  theme: Theme;
  onToggleTheme(): void;
  onSignOut(): void;
}

export function Shell({ me, route, theme, onToggleTheme, onSignOut }: Props) {
  // A page's own view state follows its path in the query (`/links?page=2`).
  const path = route.split('?')[0] ?? '/';
  const page = pageOf(path);
  const title = page ? page.label : path === '/' ? 'Overview' : 'No such page';
  useEffect(() => {
    document.title = `${title} · qrlinks console`;
  }, [title]);
  // On a phone the navigation is a menu behind a button (styles.css hides the button on wider screens).
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const closeMenuOnEscape = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || !menuOpen) return;
    setMenuOpen(false);
    menuButton.current?.focus();
  };
  // The chosen entry disappears with the menu; focus goes where the skip link sends it.
  const closeMenuOnChoice = () => {
    if (!menuOpen) return;
    setMenuOpen(false);
    focusMain();
  };
  return (
    <div class="shell">
      <a class="skip" href="#main" onClick={(e) => (e.preventDefault(), focusMain())}>
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href="#/">
          qrlinks
        </a>
        <p class="account">
          <span class="account-name">{me.account.name}</span> <span class="plan">{me.account.plan} plan</span>
        </p>
        <div class="actions">
          <button type="button" aria-pressed={theme === 'dark'} onClick={onToggleTheme}>
            Dark mode
          </button>
          <button type="button" onClick={onSignOut}>
            Sign out
          </button>
        </div>
        <button
          type="button"
          class="menu-button"
          ref={menuButton}
          aria-expanded={menuOpen}
          aria-controls="console-nav"
          onClick={() => setMenuOpen(!menuOpen)}
          onKeyDown={closeMenuOnEscape}
        >
          Menu
        </button>
      </header>
      <nav id="console-nav" aria-label="Console" class={menuOpen ? 'open' : undefined} onKeyDown={closeMenuOnEscape}>
        <ul>
          {PAGES.map((p) => (
            <NavEntry key={p.path} page={p} me={me} current={p === page} onChoose={closeMenuOnChoice} />
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        {page ? <PageView page={page} me={me} path={path} /> : path === '/' ? <Overview me={me} /> : <NotFound />}
      </main>
    </div>
  );
}

function focusMain() {
  document.getElementById('main')?.focus();
}

function NavEntry({ page, me, current, onChoose }: { page: Page; me: Me; current: boolean; onChoose(): void }) {
  const access = pageAccess(page, me);
  if (!access.allowed) {
    return (
      <li class="disabled">
        <span aria-disabled="true">{page.label}</span>
        <small>{access.reason}</small>
      </li>
    );
  }
  return (
    <li>
      <a href={`#${page.path}`} aria-current={current ? 'page' : undefined} onClick={onChoose}>
        {page.label}
      </a>
    </li>
  );
}

function PageView({ page, me, path }: { page: Page; me: Me; path: string }) {
  const access = pageAccess(page, me);
  const Screen = SCREENS[page.path];
  if (access.allowed && Screen) return <Screen me={me} subpath={path.slice(page.path.length)} />;
  return (
    <section class="empty">
      <h1>{page.label}</h1>
      {!access.allowed ? (
        <p>{access.reason}</p>
      ) : (
        <>
          <p>This page is coming in a later version of the console.</p>
          <p>
            Until then the API does it: <code>{page.apiPath}</code>, described at <a href="/api/v1/docs">/api/v1/docs</a>.
          </p>
        </>
      )}
    </section>
  );
}

function Overview({ me }: { me: Me }) {
  const expires = me.key.expiresAt ? new Date(me.key.expiresAt).toLocaleString() : 'never';
  return (
    <section>
      <h1>{me.account.name}</h1>
      <dl class="facts">
        <dt>Plan</dt>
        <dd>{me.account.plan}</dd>
        <dt>This key</dt>
        <dd>{me.key.name ?? 'unnamed'}</dd>
        <dt>Scopes</dt>
        <dd>{me.key.scopes.join(', ')}</dd>
        <dt>Expires</dt>
        <dd>{expires}</dd>
        <dt>Key management</dt>
        <dd>{me.plan.apiKeyManagement ? 'included in the plan' : 'not in this plan (keys are issued with the CLI)'}</dd>
      </dl>
    </section>
  );
}

function NotFound() {
  return (
    <section class="empty">
      <h1>No such page</h1>
      <p>
        This address is not a page of the console. <a href="#/">Go to the overview</a>.
      </p>
    </section>
  );
}
