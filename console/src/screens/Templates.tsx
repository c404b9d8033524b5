/**
 * The Templates page, loaded when first opened: it brings the QR designer and the renderer, which
 * the first screen does not need (bench/console-size.ts keeps that under its budget).
 */
import type { FunctionComponent } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { ScreenProps } from './index.js';

let loaded: FunctionComponent<ScreenProps> | null = null;

export function Templates(props: ScreenProps) {
  const [Screen, setScreen] = useState(() => loaded);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (Screen) return;
    import('../qr/Templates.js').then(
      (m) => setScreen(() => (loaded = m.Templates)),
      () => setFailed(true),
    );
  }, []);
  if (failed) {
    return (
      <p class="field-error" role="alert">
        The Templates page could not be loaded; check your connection and reload the page.
      </p>
    );
  }
  return Screen ? <Screen {...props} /> : <p role="status">Loading templates…</p>;
}
