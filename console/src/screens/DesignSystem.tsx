/**
 * The console's visual language on one page (#/design, linked from docs/console-design.md and
 * not from the navigation): the tokens and every shared control, live, in the current theme. It
 * is what the docs' screenshots show, and what a contributor checks a new screen against.
 */
import { EmptyState, Skeleton } from '../ui/Feedback.js';
import { Icon } from '../ui/Icon.js';
import { ICON_NAMES } from '../ui/icons.js';
import { RowMenu } from '../ui/RowMenu.js';
import { deferWithUndo, showToast } from '../ui/toasts.js';
import '../ui/design-system.css';

const COLOURS = [
  ['--bg', 'Page'],
  ['--surface', 'Surface'],
  ['--surface-raised', 'Raised'],
  ['--text', 'Text'],
  ['--muted', 'Muted text'],
  ['--border', 'Border'],
  ['--accent', 'Accent'],
  ['--accent-soft', 'Accent, soft'],
  ['--success', 'Success'],
  ['--warning', 'Warning'],
  ['--error', 'Error'],
] as const;
const TYPE = [
  ['--text-xl', 'Page title'],
  ['--text-lg', 'Section title'],
  ['--text-md', 'Body'],
  ['--text-sm', 'Controls, table rows'],
  ['--text-xs', 'Labels, shortcuts'],
] as const;
const SPACES = ['--space-1', '--space-2', '--space-3', '--space-4', '--space-5', '--space-6', '--space-7'] as const;

export function DesignSystem() {
  return (
    <section class="design-system" aria-labelledby="design-title">
      <h1 id="design-title">Design system</h1>
      <p class="hint">The console's tokens and shared controls, in the current theme. Toggle Dark mode to see the other.</p>

      <h2>Colours</h2>
      <ul class="ds-swatches">
        {COLOURS.map(([token, name]) => (
          <li key={token}>
            <span class="ds-swatch" style={{ background: `var(${token})` }} />
            <strong>{name}</strong>
            <code>{token}</code>
          </li>
        ))}
      </ul>

      <h2>Type</h2>
      <ul class="ds-type">
        {TYPE.map(([token, use]) => (
          <li key={token} style={{ fontSize: `var(${token})` }}>
            {use} <code>{token}</code>
          </li>
        ))}
      </ul>

      <h2>Spacing</h2>
      <ul class="ds-spaces">
        {SPACES.map((token) => (
          <li key={token}>
            <span class="ds-space" style={{ width: `var(${token})` }} />
            <code>{token}</code>
          </li>
        ))}
      </ul>

      <h2>Buttons</h2>
      <div class="ds-row">
        <button type="button" class="primary">
          <Icon name="plus" />
          Primary
        </button>
        <button type="button">
          <Icon name="download" />
          Secondary
        </button>
        <button type="button" class="ghost">
          <Icon name="copy" />
          Ghost
        </button>
        <button type="button" class="danger">
          <Icon name="trash" />
          Danger
        </button>
        <button type="button" disabled>
          Disabled
        </button>
        <button type="button" class="ghost icon-only" aria-label="Copy (an icon-only button)">
          <Icon name="copy" />
        </button>
      </div>

      <h2>Toasts</h2>
      <div class="ds-row">
        <button type="button" onClick={(e) => showToast('Saved', { anchor: e.currentTarget, tone: 'success' })}>
          Show a toast beside this button
        </button>
        <button
          type="button"
          onClick={(e) =>
            deferWithUndo('Example archived', {
              anchor: e.currentTarget,
              commit: () => showToast('Made real'),
              restore: () => showToast('Undone'),
            })
          }
        >
          Show a toast with Undo
        </button>
      </div>

      <h2>Row menu</h2>
      <div class="ds-row">
        <RowMenu
          label="Actions for an example row"
          actions={[
            { label: 'Edit', icon: 'edit', shortcut: 'e', run: () => showToast('Edit') },
            { label: 'Download QR code', icon: 'qrcode', shortcut: 'q', run: () => showToast('QR code') },
            { label: 'Duplicate', icon: 'copy', shortcut: 'd', run: () => showToast('Duplicate') },
            { label: 'Archive', icon: 'archive', shortcut: 'x', danger: true, run: () => showToast('Archive') },
          ]}
        />
        <span class="hint">Open it, then use the arrows, Enter, a letter, or Escape.</span>
      </div>

      <h2>Icons</h2>
      <ul class="ds-icons">
        {ICON_NAMES.map((name) => (
          <li key={name}>
            <Icon name={name} />
            <code>{name}</code>
          </li>
        ))}
      </ul>

      <h2>Loading and empty</h2>
      <div class="ds-columns">
        <Skeleton label="Loading an example list…" rows={3} />
        <EmptyState icon="link" title="No links yet">
          <p>An empty list says what would be here and the one step that puts something there.</p>
          <button type="button" class="primary">
            <Icon name="plus" />
            Create your first link
          </button>
        </EmptyState>
      </div>
    </section>
  );
}
