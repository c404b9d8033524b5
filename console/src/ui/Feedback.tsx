import type { ComponentChildren } from 'preact';
import { Icon } from './Icon.js';
import type { IconName } from './icons.js';

/**
 * Grey blocks in the shape of what is loading, so the screen does not jump when it arrives. The
 * status text is for screen readers; the blocks are decoration.
 */
export function Skeleton({ rows = 6, label }: { rows?: number; label: string }) {
  return (
    <div class="skeleton" role="status" aria-live="polite">
      <span class="visually-hidden">{label}</span>
      {Array.from({ length: rows }, (_, i) => (
        <div class="skeleton-row" aria-hidden="true" key={i}>
          <span class="skeleton-block skeleton-square" />
          <span class="skeleton-block" style={{ width: `${40 + ((i * 37) % 45)}%` }} />
        </div>
      ))}
    </div>
  );
}

/** What an empty list says: what would be here, and the one step that puts something there. */
export function EmptyState({ icon, title, children }: { icon: IconName; title: string; children?: ComponentChildren }) {
  return (
    <div class="empty-state">
      <span class="empty-state-icon">
        <Icon name={icon} size="2rem" />
      </span>
      <h2>{title}</h2>
      {children}
    </div>
  );
}
