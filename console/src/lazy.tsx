/**
 * A component fetched when it is first shown, so the first screen's JavaScript does not carry it
 * (bench/console-size.ts). Loading and a failed fetch are said in words, never a blank page.
 */
import type { FunctionComponent } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export function lazyComponent<P extends object>(load: () => Promise<FunctionComponent<P>>, what: string): FunctionComponent<P> {
  let loaded: FunctionComponent<P> | null = null;
  return function Lazy(props: P) {
    const [component, setComponent] = useState<FunctionComponent<P> | null>(() => loaded);
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      if (component) return;
      load().then(
        (c) => setComponent(() => (loaded = c)),
        () => setFailed(true),
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
  };
}
