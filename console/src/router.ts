/** Routes live in the URL's hash (`/#/links`), so the server has one page and a view can be bookmarked. */
import { useEffect, useRef, useState } from 'preact/hooks';

export function routeOf(hash: string): string {
  const path = hash.replace(/^#/, '');
  return path.startsWith('/') ? path : '/';
}

export function useRoute(): string {
  const [route, setRoute] = useState(() => routeOf(location.hash));
  useEffect(() => {
    const follow = () => setRoute(routeOf(location.hash));
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  return route;
}

/**
 * Whether the component is still on the page (`.current`). An answer that comes back after its
 * page was left (the address moved to another link, say) must not act on the page shown now:
 * move the tab, take the focus or replace what is shown.
 */
export function useStillShown(): { readonly current: boolean } {
  const shown = useRef(true);
  useEffect(() => {
    shown.current = true;
    return () => {
      shown.current = false;
    };
  }, []);
  return shown;
}
