/**
 * The unsaved-changes guard of every editor (decision 0383). An editor calls
 * `useUnsavedGuard(dirty)`; while `dirty`, leaving its page asks first: a move inside the console
 * (a link, Back, Forward, an address typed, signing out) is held by the router and `LeaveDialog`
 * (in the Shell) asks "Leave without saving?"; closing or reloading the tab gets the browser's
 * own question (`beforeunload`: browsers show only their own words there).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { askBeforeLeaving, holdNavigation } from './router.js';
import { Dialog } from './screens/Dialog.js';

/**
 * `within`: a route whose own moves do not leave the editor (a cafe's tabs, `/cafes/<id>`: its
 * panels stay mounted, so the profile's unsaved edits are still there on the way back).
 */
export function useUnsavedGuard(dirty: boolean, within?: string): void {
  // Read when the person leaves, not when the effect last ran: a change made an instant before counts.
  const now = useRef(dirty);
  now.current = dirty;
  useEffect(() => {
    const release = holdNavigation((to) => now.current && !(within && to !== null && isWithin(to, within)));
    const warn = (event: BeforeUnloadEvent) => {
      if (!now.current) return;
      event.preventDefault();
      // Older Chromium asks only when returnValue is set.
      event.returnValue = '';
    };
    addEventListener('beforeunload', warn);
    return () => {
      release();
      removeEventListener('beforeunload', warn);
    };
  }, []);
}

const isWithin = (route: string, base: string) => {
  const path = route.split('?')[0]!;
  return path === base || path.startsWith(`${base}/`);
};

/** A value as compared for changes: files by name, size, type and date (their bytes are not read). */
const fingerprint = (value: unknown): string =>
  String(
    JSON.stringify(value, (_key, v: unknown) =>
      v instanceof Blob ? { file: (v as File).name ?? '', size: v.size, type: v.type, at: (v as File).lastModified ?? 0 } : v,
    ),
  );

/**
 * Whether `value` (what the form holds) differs from what it held when `saved` (what the form was
 * last loaded from or saved as: the stored record, a save counter) last changed. The first render
 * counts as loaded; `saved` is compared by content, so a new but equal object is no change.
 */
export function useEdited(value: unknown, saved: unknown): boolean {
  const current = fingerprint(value);
  const marker = fingerprint(saved);
  const base = useRef<{ marker: string; value: string } | null>(null);
  if (base.current === null || base.current.marker !== marker) base.current = { marker, value: current };
  return current !== base.current.value;
}

/** The question, asked for whichever editor holds the page. */
export function LeaveDialog() {
  const [leave, setLeave] = useState<(() => void) | null>(null);
  useEffect(() => askBeforeLeaving((go) => setLeave(() => go)), []);
  if (!leave) return null;
  return (
    <Dialog
      title="Leave without saving?"
      submitLabel="Leave"
      cancelLabel="Stay"
      danger
      onCancel={() => setLeave(null)}
      onSubmit={() => {
        setLeave(null);
        leave();
      }}
    >
      <p>Your changes on this page are not saved yet. Leave, and they are lost; stay, and you can save them.</p>
    </Dialog>
  );
}
