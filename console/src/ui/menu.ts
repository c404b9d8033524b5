/**
 * What every pop-up menu of the console shares: focus goes to its first item as it opens, arrows
 * and Home/End move, Escape closes and gives focus back to its button, Tab or a click outside
 * closes it. `onLetter` answers the other keys (a row menu's shortcut letters).
 */
import { useLayoutEffect, useRef, useState } from 'preact/hooks';

const ITEMS = '[role^="menuitem"]:not(:disabled):not([aria-disabled="true"])';

export function useMenu(onLetter?: (e: KeyboardEvent) => void) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);

  const items = () => [...(list.current?.querySelectorAll<HTMLElement>(ITEMS) ?? [])];
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  // A layout effect, not a plain one: focus must be inside the menu by the time it is drawn, or a
  // letter typed at once after Enter lands on the button and does nothing.
  useLayoutEffect(() => {
    if (!open) return;
    const all = items();
    (all.find((i) => i.getAttribute('aria-checked') === 'true') ?? all[0])?.focus();
    const outside = (e: PointerEvent) => {
      if (!list.current?.contains(e.target as Node) && !button.current?.contains(e.target as Node)) close(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  const onKeyDown = (e: KeyboardEvent) => {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'Escape' || e.key === 'Tab') {
      if (e.key === 'Escape') e.preventDefault();
      close(e.key === 'Escape');
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      all[(at + step + all.length) % all.length]?.focus();
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      (e.key === 'Home' ? all[0] : all.at(-1))?.focus();
    } else if (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) {
      onLetter?.(e);
    }
  };
  return { open, setOpen, button, list, close, onKeyDown };
}
