import type { ComponentChildren } from 'preact';
import { Icon } from './Icon.js';
import type { IconName } from './icons.js';

export interface TabLink {
  /** Unique within the list; the tab's element id is `<idPrefix>-tab-<key>`, its panel's `<idPrefix>-panel-<key>`. */
  key: string;
  label: string;
  icon: IconName;
  /** The tab's own address: choosing a tab moves there, so Back and a bookmark return to it. */
  href: string;
}

export const tabId = (idPrefix: string, key: string) => `${idPrefix}-tab-${key}`;
export const tabPanelId = (idPrefix: string, key: string) => `${idPrefix}-panel-${key}`;

/**
 * A row of tabs whose panels each have an address (links with role=tab). One tab is in the Tab
 * order, the selected one; the arrow keys, Home and End move along the row and open the tab
 * reached, as a tablist does. `rendered` names the panels on the page (aria-controls only points
 * at those).
 */
export function TabList({
  label,
  idPrefix,
  tabs,
  selected,
  rendered,
}: {
  label: string;
  idPrefix: string;
  tabs: readonly TabLink[];
  selected: string;
  rendered: ReadonlySet<string>;
}) {
  const onKeyDown = (e: KeyboardEvent) => {
    // From the tab that has focus (moved at once by the last key), not `selected`, which follows
    // the address a render later: two quick keys must not both start from the same tab.
    const focused = tabs.findIndex((t) => tabId(idPrefix, t.key) === (e.target as HTMLElement | null)?.id);
    const at = focused >= 0 ? focused : tabs.findIndex((t) => t.key === selected);
    const to =
      e.key === 'ArrowRight'
        ? (at + 1) % tabs.length
        : e.key === 'ArrowLeft'
          ? (at - 1 + tabs.length) % tabs.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? tabs.length - 1
              : -1;
    if (to < 0 || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    const tab = tabs[to]!;
    document.getElementById(tabId(idPrefix, tab.key))?.focus();
    location.hash = tab.href;
  };
  return (
    <div class="tabs" role="tablist" aria-label={label} onKeyDown={onKeyDown}>
      {tabs.map((t) => (
        <a
          key={t.key}
          id={tabId(idPrefix, t.key)}
          role="tab"
          href={t.href}
          aria-selected={t.key === selected}
          aria-controls={rendered.has(t.key) ? tabPanelId(idPrefix, t.key) : undefined}
          tabIndex={t.key === selected ? 0 : -1}
        >
          <Icon name={t.icon} />
          <span>{t.label}</span>
        </a>
      ))}
    </div>
  );
}

/** A tab's panel; kept on the page (hidden) once shown, so what was typed in it survives a look at another tab. */
export function TabPanel({
  idPrefix,
  tab,
  shown,
  children,
}: {
  idPrefix: string;
  tab: string;
  shown: boolean;
  children: ComponentChildren;
}) {
  return (
    <div role="tabpanel" class="tab-panel" id={tabPanelId(idPrefix, tab)} aria-labelledby={tabId(idPrefix, tab)} hidden={!shown}>
      {children}
    </div>
  );
}
