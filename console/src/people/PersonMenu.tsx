/**
 * The signed-in person in the header: their initials, and a menu with who they are, their
 * profile and Sign out. On a phone only the initials show; the button keeps their name for
 * screen readers.
 */
import { useId } from 'preact/hooks';
import type { Me } from '../api/client.js';
import { Icon } from '../ui/Icon.js';
import { useMenu } from '../ui/menu.js';
import { initials } from './initials.js';

type Person = NonNullable<Me['user']>;

export function PersonMenu({ user, onSignOut }: { user: Person; onSignOut(): void }) {
  const id = useId();
  const { open, setOpen, button, list, close, onKeyDown } = useMenu();
  const shownName = user.name?.trim() || user.email;
  return (
    <div class="menu-anchor person-menu">
      <button
        type="button"
        class="ghost person-button"
        ref={button}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => setOpen(!open)}
      >
        <span class="avatar" aria-hidden="true">
          {initials(user.name, user.email)}
        </span>
        <span class="wide-only person-name">{shownName}</span>
        <Icon name="chevron-down" />
      </button>
      {open && (
        <ul class="menu" id={id} role="menu" aria-label={`Signed in as ${shownName}`} ref={list} onKeyDown={onKeyDown}>
          <li role="none" class="menu-heading">
            <strong>{shownName}</strong>
            {user.name?.trim() && <span>{user.email}</span>}
          </li>
          <li role="none">
            <a role="menuitem" href="#/profile" onClick={() => close(false)}>
              <Icon name="user" />
              <span>Profile</span>
            </a>
          </li>
          <li role="none">
            <button
              type="button"
              role="menuitem"
              onClick={() => {
                close(false);
                onSignOut();
              }}
            >
              <Icon name="logout" />
              <span>Sign out</span>
            </button>
          </li>
        </ul>
      )}
    </div>
  );
}
