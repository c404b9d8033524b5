import { useEffect, useRef, useState } from 'preact/hooks';
import type { Me } from '../api/client.js';
import { PAGES, pageAccess, pageOf, type Page } from '../nav.js';
import type { Theme } from '../theme.js';
import { Icon } from '../ui/Icon.js';
import { Toasts } from '../ui/Toasts.js';
import { leaveWhenAllowed } from '../router.js';
import { LeaveDialog } from '../unsaved.js';
import { AccountSwitcher } from '../people/AccountSwitcher.js';
import { PersonMenu } from '../people/PersonMenu.js';
import { DesignSystemScreen, SCREENS } from './index.js';

interface Props {
  me: Me;
  route: string;
  theme: Theme;
  /** A switch to another account is under way. */
  switching: boolean;
  onToggleTheme(): void;
  onSignOut(): void;
  onSwitchAccount(accountId: string): void;
  onMe(me: Me): void;
}

export function Shell({ me, route, theme, switching, onToggleTheme, onSignOut, onSwitchAccount, onMe }: Props) {
  // A page's own view state follows its path in the query (`/links?page=2`).
  const path = route.split('?')[0] ?? '/';
  const page = pageOf(path);
  const title = page ? page.label : path === '/design' ? 'Design system' : 'No such page';
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
          <Icon name="qrcode" />
          qrlinks
        </a>
        <AccountSwitcher me={me} busy={switching} onSwitch={onSwitchAccount} />
        <div class="actions">
          <button type="button" class="ghost" aria-pressed={theme === 'dark'} onClick={onToggleTheme}>
            <Icon name={theme === 'dark' ? 'sun' : 'moon'} />
            <span class="wide-only">Dark mode</span>
          </button>
          {me.user && !me.key ? (
            <PersonMenu user={me.user} onSignOut={() => leaveWhenAllowed(onSignOut)} />
          ) : (
            <button type="button" class="ghost" onClick={() => leaveWhenAllowed(onSignOut)}>
              <Icon name="logout" />
              <span class="wide-only">Sign out</span>
            </button>
          )}
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
          <Icon name="menu" />
          Menu
        </button>
      </header>
      <nav id="console-nav" aria-label="Console" class={menuOpen ? 'open' : undefined} onKeyDown={closeMenuOnEscape}>
        <ul>
          {PAGES.filter((p) => !p.unlisted).map((p) => (
            <NavEntry key={p.path} page={p} me={me} current={p === page} onChoose={closeMenuOnChoice} />
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        {page ? <PageView page={page} me={me} path={path} onMe={onMe} /> : path === '/design' ? <DesignSystemScreen /> : <NotFound />}
      </main>
      <Toasts />
      <LeaveDialog />
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
        <span aria-disabled="true">
          <Icon name={page.icon} />
          {page.label}
        </span>
        <small>{access.reason}</small>
      </li>
    );
  }
  return (
    <li>
      <a href={`#${page.path}`} aria-current={current ? 'page' : undefined} onClick={onChoose}>
        <Icon name={page.icon} />
        {page.label}
      </a>
    </li>
  );
}

function PageView({ page, me, path, onMe }: { page: Page; me: Me; path: string; onMe(me: Me): void }) {
  const access = pageAccess(page, me);
  const Screen = SCREENS[page.path];
  if (access.allowed && Screen) return <Screen me={me} subpath={path.slice(page.path.length)} onMe={onMe} />;
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

function NotFound() {
  return (
    <section class="empty">
      <h1>No such page</h1>
      <p>
        This address is not a page of the console. <a href="#/">Go home</a>.
      </p>
    </section>
  );
}
