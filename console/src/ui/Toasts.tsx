import { useEffect, useState } from 'preact/hooks';
import { Icon } from './Icon.js';
import { typingIn } from './keys.js';
import { dismissToast, holdToast, newestUndoable, subscribeToasts, undoToast, type Toast } from './toasts.js';

/**
 * Where toasts appear: beside the control that raised them on a wide screen, at the bottom on a
 * phone. Each is a polite status message, so a screen reader says it without moving focus.
 * Ctrl/⌘+Z outside a text field takes the newest Undo.
 */
export function Toasts() {
  const [list, setList] = useState<readonly Toast[]>([]);
  useEffect(() => subscribeToasts(setList), []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.key.toLowerCase() !== 'z' || e.shiftKey || typingIn(e.target)) return;
      const toast = newestUndoable();
      if (!toast) return;
      e.preventDefault();
      undoToast(toast.id);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  const floating = list.filter((t) => t.at === null);
  return (
    <div class="toasts" role="region" aria-label="Notifications">
      {list
        .filter((t) => t.at !== null)
        .map((t) => (
          <ToastView key={t.id} toast={t} />
        ))}
      <div class="toast-stack">
        {floating.map((t) => (
          <ToastView key={t.id} toast={t} />
        ))}
      </div>
    </div>
  );
}

function ToastView({ toast }: { toast: Toast }) {
  const style = toast.at ? { top: `${toast.at.top}px`, left: `${toast.at.left}px` } : undefined;
  return (
    <div
      class={`toast toast-${toast.tone}${toast.at ? ' toast-anchored' : ''}`}
      style={style}
      role={toast.tone === 'error' ? 'alert' : 'status'}
      onMouseEnter={() => holdToast(toast.id, true)}
      onMouseLeave={() => holdToast(toast.id, false)}
      onFocusIn={() => holdToast(toast.id, true)}
      onFocusOut={() => holdToast(toast.id, false)}
    >
      <Icon name={toast.tone === 'error' ? 'alert-triangle' : toast.tone === 'success' ? 'check' : 'info-circle'} />
      <span class="toast-message">{toast.message}</span>
      {toast.undo && (
        <button type="button" class="ghost toast-undo" onClick={() => undoToast(toast.id)}>
          <Icon name="arrow-back-up" />
          Undo
        </button>
      )}
      <button type="button" class="ghost icon-only" aria-label="Dismiss" onClick={() => dismissToast(toast.id)}>
        <Icon name="x" />
      </button>
    </div>
  );
}
