/**
 * A component fetched when it is first shown, so the first screen's JavaScript does not carry it
 * (bench/console-size.ts). Loading and a failed fetch are said in words, never a blank page.
 * `preload` starts the fetch early (while the key is checked, say), so showing it waits less.
 */
import type { FunctionComponent } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export type LazyComponent<P> = FunctionComponent<P> & { preload(): Promise<FunctionComponent<P>> };

export function lazyComponent<P extends object>(load: () => Promise<FunctionComponent<P>>, what: string): LazyComponent<P> {
  let loaded: FunctionComponent<P> | null = null;
  let loading: Promise<FunctionComponent<P>> | null = null;
  const preload = () => (loading ??= load().then((c) => (loaded = c)));
  function Lazy(props: P) {
    const [component, setComponent] = useState<FunctionComponent<P> | null>(() => loaded);
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      if (component) return;
      preload().then(
        (c) => setComponent(() => c),
        () => {
          // A later showing tries the network again.
          loading = null;
          setFailed(true);
        },
      );
    }, []);
    if (failed) {
      return (
        <p class="field-error" role="alert">
          The {what} could not be loaded. Check your connection and reload the page.
        </p>
      );
    }
    const Loaded = component;
    return Loaded ? (
      <Loaded {...props} />
    ) : (
      <p class="loading" role="status">
        Loading the {what}…
      </p>
    );
  }
  return Object.assign(Lazy, { preload });
}
