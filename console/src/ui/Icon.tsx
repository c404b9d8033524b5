import { iconBody, type IconName } from './icons.js';

/**
 * One icon, drawn in the text's colour at the text's size (1.25em unless `size` says otherwise).
 * Icons are decoration beside words; where an icon stands alone, its button carries the name
 * (aria-label), so the icon itself is always hidden from assistive technology.
 */
export function Icon({ name, size }: { name: IconName; size?: string }) {
  return (
    <svg
      class="icon"
      viewBox="0 0 24 24"
      width={size ?? '1.25em'}
      height={size ?? '1.25em'}
      fill="none"
      stroke="currentColor"
      stroke-width="2"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
      focusable="false"
      dangerouslySetInnerHTML={{ __html: iconBody(name) }}
    />
  );
}
