/**
 * Routes live in the URL's hash (`/#/links`), so the server has one page and a view can be
 * bookmarked. One listener follows the hash for the whole console, so an editor with unsaved
 * changes can hold a move back before any screen sees it (`holdNavigation`, used by unsaved.tsx).
 */
import { useEffect, useRef, useState } from 'preact/hooks';

export function routeOf(hash: string): string {
  const path = hash.replace(/^#/, '');
  return path.startsWith('/') ? path : '/';
}

/**
 * Where each history entry stands, kept in its state (`history.state[POSITION]`): a move to an
 * entry with a smaller number went back, a bigger one forward, one without a number is new (a
 * link followed, an address typed, `location.hash` set). That is how a held move is undone and,
 * when the person chooses to leave, made again.
 */
const POSITION = 'consolePosition';

/** Whether a move to route `to` (null: leaving the console, signing out) must be asked about first. */
type Hold = (to: string | null) => boolean;
/** Asks the person whether to leave; calls `leave` if they do. */
type Asker = (leave: () => void) => void;

const holds = new Set<Hold>();
let asker: Asker | null = null;
const followers = new Set<(route: string) => void>();
let started = false;
let shownHash = '';
let position = 0;
/** The hash a move we made ourselves returns to: its hashchange is ours, not the person's. */
let restoring: string | null = null;
/** The next move goes through unheld (the person chose to leave, or a save moves on). */
let passing = false;

const positionOf = (state: unknown): number | null => {
  const at = (state as Record<string, unknown> | null)?.[POSITION];
  return typeof at === 'number' ? at : null;
};

function stamp(at: number) {
  position = at;
  history.replaceState({ ...(history.state as object | null), [POSITION]: at }, '');
}

function start() {
  started = true;
  shownHash = location.hash;
  stamp(positionOf(history.state) ?? 0);
  addEventListener('hashchange', follow);
}

function follow() {
  const hash = location.hash;
  const at = positionOf(history.state);
  if (restoring !== null && hash === restoring) {
    restoring = null;
    return;
  }
  if (!passing && asker && [...holds].some((held) => held(routeOf(hash)))) {
    // Back where the person was, then asked; leaving makes the same move again.
    const delta = at === null ? 1 : at - position;
    const ask = asker;
    if (delta === 0) {
      history.replaceState(history.state, '', shownHash || location.pathname + location.search);
    } else {
      restoring = shownHash;
      history.go(-delta);
    }
    ask(() => {
      passing = true;
      if (delta === 0) location.hash = hash;
      else history.go(delta);
    });
    return;
  }
  passing = false;
  restoring = null;
  stamp(at ?? position + 1);
  shownHash = hash;
  const route = routeOf(hash);
  for (const f of followers) f(route);
}

export function useRoute(): string {
  const [route, setRoute] = useState(() => routeOf(location.hash));
  useEffect(() => {
    if (!started) start();
    followers.add(setRoute);
    // The hash may have moved between the first render and this effect.
    setRoute(routeOf(shownHash));
    return () => {
      followers.delete(setRoute);
    };
  }, []);
  return route;
}

/**
 * While `held(to)` answers true, a move to another page (a link, Back, Forward, an address typed)
 * is undone and the asker (set by `askBeforeLeaving`) decides. Returns the release.
 */
export function holdNavigation(held: Hold): () => void {
  holds.add(held);
  return () => {
    holds.delete(held);
  };
}

/** The one place that asks (the Shell's dialog); returns the release. */
export function askBeforeLeaving(ask: Asker): () => void {
  asker = ask;
  return () => {
    if (asker === ask) asker = null;
  };
}

/** Runs `leave` at once, or after the person agrees when something holds the page (signing out, say). */
export function leaveWhenAllowed(leave: () => void): void {
  if (asker && [...holds].some((held) => held(null))) asker(leave);
  else leave();
}

/** Goes to `hash` without asking: for a page that just saved and moves on to what it made. */
export function goTo(hash: string): void {
  if (location.hash === hash) return;
  passing = true;
  location.hash = hash;
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
