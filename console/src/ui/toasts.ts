/**
 * Short messages that confirm an action where it was taken, some with an Undo. The store lives in
 * the module so any screen can raise a toast without threading props; <Toasts> (Toasts.tsx) shows it.
 *
 * An action that can be undone but whose API call cannot (archiving a link deletes it for good, as
 * the API contract says) is *deferred*: the screen hides the thing at once and the call is made
 * only when the Undo window has passed, or at once when the page is being left (a keepalive
 * request outlives the page), so an Undo never has to recreate what was deleted.
 */

export type ToastTone = 'info' | 'success' | 'error';

export interface Toast {
  id: number;
  message: string;
  tone: ToastTone;
  /** Where the toast is drawn, in page coordinates (it scrolls with the page): just under the element that raised it, when there was one on screen. */
  at: { top: number; left: number } | null;
  undo: (() => void) | null;
}

interface ToastOptions {
  tone?: ToastTone;
  /** The control that was used; the toast appears beside it on a wide screen. */
  anchor?: Element | null;
  undo?: () => void;
  /** How long the toast stays, in ms; one with an Undo stays `UNDO_MS`. */
  duration?: number;
}

/** How long an Undo is offered. Long enough to read the toast and reach the button. */
export const UNDO_MS = 8000;
const PLAIN_MS = 4000;
/** Toasts beside their control only on screens this wide; on a phone they sit above the thumb. */
const ANCHORED_MIN_WIDTH = 801;

let toasts: readonly Toast[] = [];
/** Deferred actions by their toast's id, taken when the toast ends without an Undo. */
const pending = new Map<number, () => void>();
let nextId = 1;
const listeners = new Set<(toasts: readonly Toast[]) => void>();
const timers = new Map<number, { remaining: number; started: number; handle: ReturnType<typeof setTimeout> | null; onExpire(): void }>();

function publish(next: readonly Toast[]) {
  toasts = next;
  for (const listener of listeners) listener(toasts);
}

export function subscribeToasts(listener: (toasts: readonly Toast[]) => void): () => void {
  listeners.add(listener);
  listener(toasts);
  return () => listeners.delete(listener);
}

function placeBeside(anchor: Element | null | undefined): Toast['at'] {
  if (!anchor || !anchor.isConnected || window.innerWidth < ANCHORED_MIN_WIDTH) return null;
  const box = anchor.getBoundingClientRect();
  if (box.bottom < 0 || box.top > window.innerHeight) return null;
  const width = 360;
  const left = Math.max(8, Math.min(box.left, window.innerWidth - width - 8));
  const top = Math.min(box.bottom + 8, window.innerHeight - 80) + window.scrollY;
  return { top, left: left + window.scrollX };
}

export function showToast(message: string, options: ToastOptions = {}): number {
  const id = nextId++;
  const toast: Toast = {
    id,
    message,
    tone: options.tone ?? 'info',
    at: placeBeside(options.anchor),
    undo: options.undo ?? null,
  };
  publish([...toasts.filter((t) => !(t.at === null && toast.at === null && t.undo === null)), toast].slice(-4));
  startTimer(id, options.duration ?? (options.undo ? UNDO_MS : PLAIN_MS), () => dismissToast(id));
  return id;
}

export function dismissToast(id: number): void {
  // A deferred action's toast closed by hand: the action is taken now, not lost.
  const commit = pending.get(id);
  if (commit) {
    pending.delete(id);
    commit();
  }
  const timer = timers.get(id);
  if (timer?.handle) clearTimeout(timer.handle);
  timers.delete(id);
  if (toasts.some((t) => t.id === id)) publish(toasts.filter((t) => t.id !== id));
}

function startTimer(id: number, ms: number, onExpire: () => void) {
  const timer = { remaining: ms, started: Date.now(), handle: null as ReturnType<typeof setTimeout> | null, onExpire };
  // Through the timer, so an expiry set after the start (deferWithUndo's commit) is the one that runs.
  timer.handle = setTimeout(() => timer.onExpire(), ms);
  timers.set(id, timer);
}

/** While a toast is hovered or holds focus, its time stands still: nobody loses an Undo mid-reach. */
export function holdToast(id: number, held: boolean): void {
  const timer = timers.get(id);
  if (!timer) return;
  if (held && timer.handle) {
    clearTimeout(timer.handle);
    timer.handle = null;
    timer.remaining -= Date.now() - timer.started;
  } else if (!held && !timer.handle) {
    timer.started = Date.now();
    timer.handle = setTimeout(() => timer.onExpire(), Math.max(1000, timer.remaining));
  }
}

/** Runs a toast's Undo and takes the toast away. */
export function undoToast(id: number): void {
  const toast = toasts.find((t) => t.id === id);
  // The Undo first: a deferred action's is what keeps its dismissal from taking the action.
  toast?.undo?.();
  dismissToast(id);
}

/** The newest toast that offers an Undo (Ctrl/⌘+Z reaches it from anywhere but a text field). */
export function newestUndoable(): Toast | undefined {
  return [...toasts].reverse().find((t) => t.undo);
}

let leavingWatched = false;

function commitAllPending() {
  for (const [id, commit] of [...pending]) {
    pending.delete(id);
    dismissToast(id);
    commit();
  }
}

/**
 * Offers an Undo for an action whose effect the screen has already shown, and makes it real
 * (`commit`) only when the Undo window passes, or when the page is left. `commit` should send its
 * request with `keepalive` so it survives the page. `restore` puts the screen back on Undo.
 */
export function deferWithUndo(message: string, options: { anchor?: Element | null; commit(): void; restore(): void }): number {
  if (!leavingWatched) {
    leavingWatched = true;
    window.addEventListener('pagehide', commitAllPending);
  }
  const id = showToast(message, {
    anchor: options.anchor,
    tone: 'success',
    undo: () => {
      pending.delete(id);
      options.restore();
    },
  });
  pending.set(id, options.commit);
  // The toast's own timer ends it; the commit rides on that end, unless Undo came first.
  const timer = timers.get(id);
  if (timer)
    timer.onExpire = () => {
      const commit = pending.get(id);
      pending.delete(id);
      dismissToast(id);
      commit?.();
    };
  return id;
}
