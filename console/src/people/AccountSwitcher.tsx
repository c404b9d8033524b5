/**
 * The account the console works in, in the header. A person in more than one account picks
 * another from its menu (PATCH /sessions/current); the shell then loads that account's data.
 */
import { useId } from 'preact/hooks';
import type { Me } from '../api/client.js';
import { Icon } from '../ui/Icon.js';
import { useMenu } from '../ui/menu.js';

export function AccountSwitcher({ me, busy, onSwitch }: { me: Me; busy: boolean; onSwitch(accountId: string): void }) {
  const id = useId();
  const { open, setOpen, button, list, close, onKeyDown } = useMenu();
  // A key works in its own account only; a person with one account has nothing to switch to.
  if (me.key || !me.user || me.accounts.length < 2) {
    return (
      <p class="account">
        <span class="account-name">{me.account.name}</span> <span class="plan">{me.account.plan} plan</span>
      </p>
    );
  }
  return (
    <div class="account menu-anchor account-switcher">
      <button
        type="button"
        class="ghost"
        ref={button}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        aria-busy={busy}
        aria-label={`${me.account.name} ${me.account.plan} plan, switch account`}
        onClick={() => setOpen(!open)}
      >
        <span class="account-name">{me.account.name}</span> <span class="plan">{me.account.plan} plan</span>
        <Icon name="selector" />
      </button>
      {open && (
        <ul class="menu menu-start" id={id} role="menu" aria-label="Switch account" ref={list} onKeyDown={onKeyDown}>
          {me.accounts.map((a) => {
            const current = a.id === me.account.id;
            return (
              <li role="none" key={a.id}>
                <button
                  type="button"
                  role="menuitemradio"
                  aria-checked={current}
                  onClick={() => {
                    close(true);
                    if (!current) onSwitch(a.id);
                  }}
                >
                  <span class="account-choice">
                    <span class="account-name">{a.name}</span>
                    <small>
                      {a.role} · {a.plan} plan
                    </small>
                  </span>
                  {current && <Icon name="check" />}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
