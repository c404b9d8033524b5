/**
 * One link of the list: a dense row on a wide screen, a card on a phone (links.css). Its QR
 * thumbnail, name, destination, short URL with a copy button, status, scans with a sparkline, and
 * the "⋯" menu holding every action with its shortcut letter (the list honours the letters on the
 * row that has focus).
 */
import { useEffect, useState } from 'preact/hooks';
import { Icon } from '../ui/Icon.js';
import { RowMenu, type MenuAction } from '../ui/RowMenu.js';
import { Sparkline } from '../ui/Sparkline.js';
import { showToast } from '../ui/toasts.js';
import { destinationOf, shortHost, type ListedLink } from './listing.js';
import { STATUS_LABELS } from './view.js';
import type { ThumbnailStore } from './thumbnail-store.js';

interface Props {
  link: ListedLink;
  selected: boolean;
  onToggle(slug: string): void;
  actions: readonly MenuAction[];
  /** Where the row's QR thumbnail arrives once drawn (its icon until then). */
  thumbnails: ThumbnailStore;
  /** Scans per day, oldest first; undefined until they arrive. */
  days: readonly number[] | undefined;
  editHref: string | null;
}

/** How long a row's Copy button says "Copied" after a copy. */
const COPIED_MS = 2000;

export function LinkRow({ link, selected, onToggle, actions, thumbnails, days, editHref }: Props) {
  const slug = link.dynamic_link_id;
  const destination = destinationOf(link);
  // The button itself says it worked, where the eye is; a toast says it to screen readers.
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = (e: MouseEvent) => {
    const anchor = e.currentTarget as HTMLElement;
    navigator.clipboard.writeText(link.full_dynamic_url).then(
      () => setCopied(true),
      () => showToast('The browser did not allow copying; select the URL and copy it.', { anchor, tone: 'error' }),
    );
  };
  return (
    <li class={`link-row${selected ? ' link-row-selected' : ''}`} data-slug={slug} tabindex={-1}>
      <input class="link-check" type="checkbox" aria-label={`Select ${link.name}`} checked={selected} onChange={() => onToggle(slug)} />
      <span class="link-thumb" aria-hidden="true">
        <Thumbnail store={thumbnails} slug={link.dynamic_link_id} />
      </span>
      <span class="link-name" title={link.name}>
        {editHref ? <a href={editHref}>{link.name}</a> : link.name}
      </span>
      <span class="link-destination" title={destination.text}>
        {!destination.web ? null : destination.origin.startsWith('https:') ? (
          <Favicon origin={destination.origin} />
        ) : (
          <Icon name="world" size="1rem" />
        )}
        <span>{destination.text}</span>
      </span>
      <span class="link-short">
        <a href={link.full_dynamic_url} title={link.full_dynamic_url}>
          <span class="short-host">{shortHost(link.full_dynamic_url, slug)}</span>
          <span class="short-slug">{slug}</span>
        </a>
        <button
          type="button"
          class={`ghost${copied ? ' copied' : ' icon-only'}`}
          aria-label={`Copy the short URL of ${link.name}`}
          onClick={copy}
        >
          {copied ? 'Copied ✓' : <Icon name="copy" />}
        </button>
      </span>
      <span class="link-status">
        <span class={`badge badge-${link.status}`}>{STATUS_LABELS[link.status]}</span>
      </span>
      <a
        class="link-scans"
        href={`#/analytics/${encodeURIComponent(slug)}`}
        aria-label={`${link.human_scan_count} scans of ${link.name}: its analytics`}
      >
        <span>{link.human_scan_count.toLocaleString()}</span>
        {days ? <Sparkline values={days} /> : <span class="sparkline-space" />}
      </a>
      <RowMenu label={`Actions for ${link.name}`} actions={actions} />
    </li>
  );
}

/**
 * The destination site's own icon, asked of the site itself (no third-party service, no referrer),
 * lazily; a globe when the site has none or cannot be reached. Decision 0379.
 */
function Favicon({ origin }: { origin: string }) {
  const [failed, setFailed] = useState(false);
  useEffect(() => setFailed(false), [origin]);
  if (failed) return <Icon name="world" size="1rem" />;
  return (
    <img
      class="favicon"
      src={`${origin}/favicon.ico`}
      alt=""
      width={16}
      height={16}
      loading="lazy"
      referrerpolicy="no-referrer"
      onError={() => setFailed(true)}
    />
  );
}

function Thumbnail({ store, slug }: { store: ThumbnailStore; slug: string }) {
  const [picture, setPicture] = useState(() => store.get(slug));
  useEffect(() => store.watch(slug, () => setPicture(store.get(slug))), [store, slug]);
  return picture ? <img src={picture} alt="" width={40} height={40} /> : <Icon name="qrcode" size="1.5rem" />;
}
