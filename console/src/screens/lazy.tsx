/**
 * A screen fetched when it is first shown, so the first screen's JavaScript does not carry it
 * (bench/console-size.ts). Loading and a failed fetch are said in words, never a blank page.
 */
import type { FunctionComponent } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { ScreenProps } from './index.js';

type Screen = FunctionComponent<ScreenProps>;

export function lazyScreen(load: () => Promise<Screen>): Screen {
  let loaded: Screen | null = null;
  return function LazyScreen(props) {
    const [screen, setScreen] = useState<Screen | null>(() => loaded);
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      if (screen) return;
      load().then(
        (s) => setScreen(() => (loaded = s)),
        () => setFailed(true),
      );
    }, []);
    if (failed) {
      return (
        <p class="field-error" role="alert">
          This page could not be loaded. Check your connection and reload the page.
        </p>
      );
    }
    const Loaded = screen;
    return Loaded ? (
      <Loaded {...props} />
    ) : (
      <p class="loading" role="status">
        Loading…
      </p>
    );
  };
}
