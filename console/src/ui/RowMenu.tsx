import { useId, useState } from 'preact/hooks';
import { Icon } from './Icon.js';
import type { IconName } from './icons.js';
import { useMenu } from './menu.js';

export interface MenuAction {
  label: string;
  icon: IconName;
  /** One letter, pressed while the menu is open (a screen may also honour it on a focused row). */
  shortcut?: string;
  /** Drawn in the warning colour, last in the list. */
  danger?: boolean;
  disabled?: boolean;
  run(anchor: HTMLElement): void;
}

/**
 * The "⋯" button of a row and the menu it opens: every action of the row with its icon and its
 * shortcut letter. Arrow keys move, Enter runs, Escape closes and gives focus back to the button;
 * a letter runs its action. The menu opens above the button when there is no room below.
 */
/** `buttonId`: the "⋯" button's id, for a screen that gives the row's focus back to it after a change. */
export function RowMenu({ label, actions, buttonId }: { label: string; actions: readonly MenuAction[]; buttonId?: string }) {
  const [upward, setUpward] = useState(false);
  const id = useId();
  const { open, setOpen, button, list, close, onKeyDown } = useMenu((e) => {
    const action = actions.find((a) => a.shortcut?.toLowerCase() === e.key.toLowerCase());
    if (action) {
      e.preventDefault();
      run(action);
    }
  });

  const toggle = () => {
    const box = button.current?.getBoundingClientRect();
    setUpward(!!box && window.innerHeight - box.bottom < 48 * actions.length + 16);
    setOpen(!open);
  };
  const run = (action: MenuAction) => {
    if (action.disabled) return;
    close(true);
    action.run(button.current!);
  };
  const ordered = [...actions.filter((a) => !a.danger), ...actions.filter((a) => a.danger)];
  return (
    <div class="row-menu">
      <button
        type="button"
        class="ghost icon-only"
        id={buttonId}
        ref={button}
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={toggle}
      >
        <Icon name="dots" />
      </button>
      {open && (
        <ul class={`menu${upward ? ' menu-up' : ''}`} id={id} role="menu" aria-label={label} ref={list} onKeyDown={onKeyDown}>
          {ordered.map((a) => (
            <li role="none" key={a.label}>
              <button
                type="button"
                role="menuitem"
                class={a.danger ? 'menu-danger' : undefined}
                disabled={a.disabled}
                aria-keyshortcuts={a.shortcut?.toUpperCase()}
                onClick={() => run(a)}
              >
                <Icon name={a.icon} />
                <span>{a.label}</span>
                {a.shortcut && <kbd>{a.shortcut.toUpperCase()}</kbd>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
