import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { fetchMe, fetchSessionMe, type Me } from './api/client.js';
import { signOutSession, switchAccount } from './api/people.js';
import { onSessionEnded } from './api/session-ended.js';
import { Door } from './doors/Doors.js';
import { doorOf } from './doors/routes.js';
import { goTo, routeOf, useRoute } from './router.js';
import { SignIn } from './screens/SignIn.js';
import { Shell } from './screens/Shell.js';
import { preloadScreen } from './screens/index.js';
import { forgetKey, savedKey, saveKey, type KeyStores } from './session.js';
import { chooseTheme, chosenTheme, effectiveTheme, type Theme } from './theme.js';
import { showToast } from './ui/toasts.js';
import './ui/tokens.css';
import './ui/ui.css';
import './styles.css';
import './doors/doors.css';

const stores: KeyStores = { session: sessionStorage, local: localStorage };
const systemDark = matchMedia('(prefers-color-scheme: dark)');

/** How the console is signed in: a person's session (the HttpOnly cookie) or an API key kept in this browser. */
type Via = 'session' | 'key';
type State =
  | { phase: 'checking' }
  | { phase: 'signed-out'; notice: string | null; keyRefused?: boolean }
  | { phase: 'signed-in'; me: Me; via: Via; switching?: boolean };

const SESSION_ENDED = 'Your session ended; sign in again.';

function App() {
  const route = useRoute();
  const [state, setState] = useState<State>({ phase: 'checking' });
  const [theme, setTheme] = useState<Theme>(() => effectiveTheme(chosenTheme(localStorage), systemDark.matches));

  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  useEffect(() => {
    const follow = () => setTheme(effectiveTheme(chosenTheme(localStorage), systemDark.matches));
    systemDark.addEventListener('change', follow);
    return () => systemDark.removeEventListener('change', follow);
  }, []);

  // On load: a key saved in this browser as before; else the session cookie, if the browser has one.
  useEffect(() => {
    if (state.phase !== 'checking') return;
    preloadScreen(routeOf(location.hash));
    const key = savedKey(stores);
    if (key) {
      void fetchMe(key).then((result) => {
        if (result.ok) return setState({ phase: 'signed-in', me: result.me, via: 'key' });
        forgetKey(stores);
        setState({ phase: 'signed-out', notice: `You were signed out. ${result.message}`, keyRefused: true });
      });
    } else {
      void fetchSessionMe().then((result) => {
        if (result.ok) return setState({ phase: 'signed-in', me: result.me, via: 'session' });
        setState({ phase: 'signed-out', notice: result.signedOut ? null : result.message });
      });
    }
  }, [state.phase]);

  // A session that ends while the console is open (signed out elsewhere, expired) returns here.
  useEffect(
    () =>
      onSessionEnded(() =>
        setState((s) => (s.phase === 'signed-in' && s.via === 'session' ? { phase: 'signed-out', notice: SESSION_ENDED } : s)),
      ),
    [],
  );

  const toggleTheme = () => {
    const next = theme === 'dark' ? 'light' : 'dark';
    chooseTheme(localStorage, next);
    setTheme(next);
  };

  /** A person signed in: a key this tab held would otherwise stand in front of them on the next load. */
  const signedInAsPerson = (me: Me) => {
    forgetKey(stores);
    // The sign-in page's own address (a single sign-on that came back refused) is not a page of the shell.
    if (routeOf(location.hash).startsWith('/signin')) goTo('#/');
    setState({ phase: 'signed-in', me, via: 'session' });
  };

  // First start, an invitation, a password reset: their pages stand outside the shell, signed in or not.
  const door = doorOf(route);
  if (door)
    return (
      <Door
        door={door.door}
        token={door.token}
        onSignedIn={(me) => {
          signedInAsPerson(me);
          goTo('#/');
        }}
      />
    );

  if (state.phase === 'checking')
    return (
      <p class="loading" role="status">
        {savedKey(stores) ? 'Checking your key…' : 'Loading the console…'}
      </p>
    );
  if (state.phase === 'signed-out') {
    return (
      <SignIn
        notice={state.notice}
        keyFirst={state.keyRefused}
        onSignedIn={signedInAsPerson}
        onSignedInWithKey={(key, me, remember) => {
          saveKey(stores, key, remember);
          setState({ phase: 'signed-in', me, via: 'key' });
        }}
      />
    );
  }
  const { me, via } = state;
  const signOut = async () => {
    if (via === 'key') {
      forgetKey(stores);
      return setState({ phase: 'signed-out', notice: 'You are signed out; the key was removed from this browser.' });
    }
    const answer = await signOutSession();
    if (answer.ok) return setState({ phase: 'signed-out', notice: 'You are signed out.' });
    showToast(
      answer.status === 0
        ? 'Not signed out: the server cannot be reached. Try again.'
        : `Not signed out: ${answer.message ?? answer.status}`,
      {
        tone: 'error',
      },
    );
  };
  const switchTo = async (accountId: string) => {
    setState({ ...state, switching: true });
    const answer = await switchAccount(accountId);
    if (!answer.ok) {
      setState({ ...state, switching: false });
      return showToast(
        `Could not switch accounts: ${answer.message ?? (answer.status === 0 ? 'the server cannot be reached' : answer.status)}`,
        {
          tone: 'error',
        },
      );
    }
    // What was open belonged to the other account: start again from the same page's top.
    const path = routeOf(location.hash).split('?')[0] ?? '/';
    goTo(`#/${path.split('/')[1] ?? ''}`);
    setState({ phase: 'signed-in', me: answer.me, via });
    showToast(`Now working in ${answer.me.account.name}`, { tone: 'success' });
  };
  return (
    // Keyed by account: every screen starts over, loading the new account's data.
    <Shell
      key={me.account.id}
      me={me}
      route={route}
      theme={theme}
      switching={state.switching ?? false}
      onToggleTheme={toggleTheme}
      onSignOut={() => void signOut()}
      onSwitchAccount={(id) => void switchTo(id)}
      onMe={(changed) => setState((s) => (s.phase === 'signed-in' ? { ...s, me: changed } : s))}
    />
  );
}

render(<App />, document.getElementById('app')!);
