import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { fetchMe, type Me } from './api/client.js';
import { routeOf, useRoute } from './router.js';
import { SignIn } from './screens/SignIn.js';
import { Shell } from './screens/Shell.js';
import { preloadScreen } from './screens/index.js';
import { forgetKey, savedKey, saveKey, type KeyStores } from './session.js';
import { chooseTheme, chosenTheme, effectiveTheme, type Theme } from './theme.js';
import './styles.css';

const stores: KeyStores = { session: sessionStorage, local: localStorage };
const systemDark = matchMedia('(prefers-color-scheme: dark)');

type State = { phase: 'checking' } | { phase: 'signed-out'; notice: string | null } | { phase: 'signed-in'; me: Me };

function App() {
  const route = useRoute();
  const [state, setState] = useState<State>(() => (savedKey(stores) ? { phase: 'checking' } : { phase: 'signed-out', notice: null }));
  const [theme, setTheme] = useState<Theme>(() => effectiveTheme(chosenTheme(localStorage), systemDark.matches));

  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  useEffect(() => {
    const follow = () => setTheme(effectiveTheme(chosenTheme(localStorage), systemDark.matches));
    systemDark.addEventListener('change', follow);
    return () => systemDark.removeEventListener('change', follow);
  }, []);

  useEffect(() => {
    const key = savedKey(stores);
    if (state.phase !== 'checking' || !key) return;
    preloadScreen(routeOf(location.hash));
    void fetchMe(key).then((result) => {
      if (result.ok) return setState({ phase: 'signed-in', me: result.me });
      forgetKey(stores);
      setState({ phase: 'signed-out', notice: `You were signed out. ${result.message}` });
    });
  }, [state.phase]);

  const toggleTheme = () => {
    const next = theme === 'dark' ? 'light' : 'dark';
    chooseTheme(localStorage, next);
    setTheme(next);
  };

  if (state.phase === 'checking')
    return (
      <p class="loading" role="status">
        Checking your key…
      </p>
    );
  if (state.phase === 'signed-out') {
    return (
      <SignIn
        notice={state.notice}
        onSignedIn={(key, me, remember) => {
          saveKey(stores, key, remember);
          setState({ phase: 'signed-in', me });
        }}
      />
    );
  }
  return (
    <Shell
      me={state.me}
      route={route}
      theme={theme}
      onToggleTheme={toggleTheme}
      onSignOut={() => {
        forgetKey(stores);
        setState({ phase: 'signed-out', notice: 'You are signed out; the key was removed from this browser.' });
      }}
    />
  );
}

render(<App />, document.getElementById('app')!);
