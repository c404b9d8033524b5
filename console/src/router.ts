/** Routes live in the URL's hash (`/#/links`), so the server has one page and a view can be bookmarked. */
import { useEffect, useState } from 'preact/hooks';

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
