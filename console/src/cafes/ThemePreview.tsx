/**
 * The menu page as guests would see it in the look on the form, before it is saved: the redirect
 * renders it for a short-lived preview id (POST /cafes/:id/theme/preview) and lets only the
 * origin it names (`frameAncestor`: this console's, as the api saw the request) frame it. A new preview is asked for 400 ms after the form last changed, so
 * dragging a colour picker does not send a request per step. The frame is a phone's width
 * (390 px), scaled down where the column is narrower so the page lays out as on a phone.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import { themeBodyOf, type ThemeForm } from './theme.js';

const PHONE_WIDTH = 390;
const PHONE_HEIGHT = 700;
const DEBOUNCE_MS = 400;

type PreviewState =
  { phase: 'loading'; url: string | null } | { phase: 'shown'; url: string } | { phase: 'failed'; url: string | null; text: string };

export function ThemePreview({ cafeId, form }: { cafeId: string; form: ThemeForm }) {
  const client = useMemo(signedInClient, []);
  const [state, setState] = useState<PreviewState>({ phase: 'loading', url: null });
  const [scale, setScale] = useState(1);
  const frameBox = useRef<HTMLDivElement>(null);
  const body = JSON.stringify(themeBodyOf(form));

  useEffect(() => {
    let current = true;
    setState((s) => ({ phase: 'loading', url: s.url }));
    // Never rejects: a failure is said where the preview would be.
    const update = async () => {
      try {
        const { data, error, response } = await client.POST('/api/v1/cafes/{id}/theme/preview', {
          params: { path: { id: cafeId } },
          body: JSON.parse(body),
        });
        if (!current) return;
        // The frame's load event says when the page is there.
        if (data && data.frameAncestor === location.origin) setState({ phase: 'loading', url: data.url });
        // A frame the page refuses would show only the browser's error: say where it can be seen instead.
        else if (data)
          setState({
            phase: 'failed',
            url: null,
            text: `The preview can be shown only in the console at ${data.frameAncestor}: open it there to see the look before saving.`,
          });
        else
          setState((s) => ({
            phase: 'failed',
            url: s.url,
            text: `The preview could not be updated: ${problemText(response.status, error)}`,
          }));
      } catch {
        if (current) setState((s) => ({ phase: 'failed', url: s.url, text: `The preview could not be updated: ${UNREACHABLE}` }));
      }
    };
    const timer = setTimeout(() => void update(), DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [client, cafeId, body]);

  useLayoutEffect(() => {
    const box = frameBox.current;
    if (!box) return;
    const observer = new ResizeObserver(() => setScale(Math.min(1, box.clientWidth / PHONE_WIDTH)));
    observer.observe(box);
    return () => observer.disconnect();
  }, []);

  return (
    <section class="theme-preview" aria-labelledby="theme-preview-title">
      <h3 id="theme-preview-title">Preview (not saved yet)</h3>
      <p class={state.phase === 'failed' ? 'field-error' : 'muted'} role={state.phase === 'failed' ? 'alert' : 'status'}>
        {state.phase === 'loading'
          ? 'Updating the preview…'
          : state.phase === 'failed'
            ? state.text
            : 'This is the look on the form. Save it to show it to guests.'}
      </p>
      <div class="theme-preview-frame" ref={frameBox} style={{ height: `${Math.round(PHONE_HEIGHT * scale)}px` }}>
        {state.url && (
          <iframe
            title="Preview of the menu page"
            src={state.url}
            width={PHONE_WIDTH}
            height={PHONE_HEIGHT}
            style={{ transform: `scale(${scale})` }}
            sandbox="allow-scripts allow-same-origin"
            referrerpolicy="no-referrer"
            onLoad={(e) => {
              const loaded = e.currentTarget.getAttribute('src');
              setState((s) => (s.phase === 'loading' && s.url !== null && s.url === loaded ? { phase: 'shown', url: s.url } : s));
            }}
          />
        )}
      </div>
    </section>
  );
}
