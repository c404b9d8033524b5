/**
 * Built-in icons: Tabler's outline icons (MIT, assets/icons/, the files the console uses too),
 * read once when this module loads and inlined as SVG, so a page shows them without a
 * request, an icon font or anything the CSP would have to allow. They are stroked in
 * `currentColor` and decorative (`aria-hidden`): the text beside them, or the link's accessible
 * name, says what they mean.
 *
 * Also the platforms a social link can lead to: their icon and their name as the platform spells
 * it ("TikTok", "YouTube"), found from an icon name or the link's host.
 */
import { readFileSync } from 'node:fs';
import { SafeHtml } from './html.js';

const ICON_FILES = {
  pause: 'player-pause',
  clock: 'clock',
  hourglass: 'hourglass-empty',
  blocked: 'ban',
  question: 'help-circle',
  alert: 'alert-triangle',
  lock: 'lock',
  link: 'link',
  world: 'world',
  mail: 'mail',
  phone: 'phone',
  message: 'message',
  'map-pin': 'map-pin',
  instagram: 'brand-instagram',
  facebook: 'brand-facebook',
  tiktok: 'brand-tiktok',
  x: 'brand-x',
  youtube: 'brand-youtube',
  linkedin: 'brand-linkedin',
  whatsapp: 'brand-whatsapp',
  telegram: 'brand-telegram',
  pinterest: 'brand-pinterest',
  snapchat: 'brand-snapchat',
  spotify: 'brand-spotify',
  threads: 'brand-threads',
  github: 'brand-github',
  discord: 'brand-discord',
  twitch: 'brand-twitch',
  reddit: 'brand-reddit',
  tripadvisor: 'brand-tripadvisor',
  'google-maps': 'brand-google-maps',
  mastodon: 'brand-mastodon',
  bluesky: 'brand-bluesky',
  vimeo: 'brand-vimeo',
  soundcloud: 'brand-soundcloud',
} as const;

export type IconName = keyof typeof ICON_FILES;

/** The drawing of each icon: the SVG's children, without Tabler's invisible bounding-box path. */
const ICON_BODIES = new Map<IconName, string>(
  (Object.entries(ICON_FILES) as Array<[IconName, string]>).map(([name, file]) => {
    const svg = readFileSync(new URL(`../../../assets/icons/${file}.svg`, import.meta.url), 'utf8');
    const body = svg
      .slice(svg.indexOf('>', svg.indexOf('<svg')) + 1, svg.lastIndexOf('</svg>'))
      .replace(/<path stroke="none" d="M0 0h24v24H0z" fill="none"\s*\/>/, '')
      .replace(/\s+/g, ' ')
      .trim();
    return [name, body];
  }),
);

/** The icon as markup, `size` px square. */
export function icon(name: IconName, size = 24): SafeHtml {
  return new SafeHtml(
    `<svg class="icon" aria-hidden="true" focusable="false" width="${size}" height="${size}" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.75" stroke-linecap="round" stroke-linejoin="round">${ICON_BODIES.get(name)}</svg>`,
  );
}

export interface SocialPlatform {
  /** The platform's own spelling. */
  label: string;
  icon: IconName;
}

/** Platforms by the key an icon name or a host reduces to, with the hosts that are theirs. */
const PLATFORMS: Record<string, SocialPlatform & { hosts: readonly string[] }> = {
  instagram: { label: 'Instagram', icon: 'instagram', hosts: ['instagram.com', 'instagr.am'] },
  facebook: { label: 'Facebook', icon: 'facebook', hosts: ['facebook.com', 'fb.com', 'fb.me', 'm.me'] },
  tiktok: { label: 'TikTok', icon: 'tiktok', hosts: ['tiktok.com'] },
  x: { label: 'X', icon: 'x', hosts: ['x.com', 'twitter.com'] },
  youtube: { label: 'YouTube', icon: 'youtube', hosts: ['youtube.com', 'youtu.be'] },
  linkedin: { label: 'LinkedIn', icon: 'linkedin', hosts: ['linkedin.com', 'lnkd.in'] },
  whatsapp: { label: 'WhatsApp', icon: 'whatsapp', hosts: ['whatsapp.com', 'wa.me'] },
  telegram: { label: 'Telegram', icon: 'telegram', hosts: ['telegram.org', 't.me', 'telegram.me'] },
  pinterest: { label: 'Pinterest', icon: 'pinterest', hosts: ['pinterest.com', 'pin.it'] },
  snapchat: { label: 'Snapchat', icon: 'snapchat', hosts: ['snapchat.com'] },
  spotify: { label: 'Spotify', icon: 'spotify', hosts: ['spotify.com'] },
  threads: { label: 'Threads', icon: 'threads', hosts: ['threads.net', 'threads.com'] },
  github: { label: 'GitHub', icon: 'github', hosts: ['github.com'] },
  discord: { label: 'Discord', icon: 'discord', hosts: ['discord.com', 'discord.gg'] },
  twitch: { label: 'Twitch', icon: 'twitch', hosts: ['twitch.tv'] },
  reddit: { label: 'Reddit', icon: 'reddit', hosts: ['reddit.com'] },
  tripadvisor: { label: 'Tripadvisor', icon: 'tripadvisor', hosts: ['tripadvisor.com'] },
  googlemaps: { label: 'Google Maps', icon: 'google-maps', hosts: ['maps.google.com', 'maps.app.goo.gl', 'goo.gl/maps'] },
  mastodon: { label: 'Mastodon', icon: 'mastodon', hosts: ['mastodon.social'] },
  bluesky: { label: 'Bluesky', icon: 'bluesky', hosts: ['bsky.app'] },
  vimeo: { label: 'Vimeo', icon: 'vimeo', hosts: ['vimeo.com'] },
  soundcloud: { label: 'SoundCloud', icon: 'soundcloud', hosts: ['soundcloud.com'] },
};

/** Other names owners use for the same platforms. */
const ALIASES: Record<string, string> = {
  twitter: 'x',
  ig: 'instagram',
  fb: 'facebook',
  yt: 'youtube',
  wa: 'whatsapp',
  maps: 'googlemaps',
};

/**
 * The platform an icon name ("instagram", "TikTok", "brand-x") or, failing that, a URL's host
 * ("www.tiktok.com") names; undefined for anything else.
 */
export function socialPlatform(iconName: string | undefined | null, url?: string): SocialPlatform | undefined {
  const key = (iconName ?? '')
    .toLowerCase()
    .replace(/^brand[-_\s]*/, '')
    .replace(/[^a-z0-9]/g, '');
  const named = PLATFORMS[ALIASES[key] ?? key];
  if (named) return named;
  if (!url) return undefined;
  let host: string;
  try {
    const parsed = new URL(url);
    host = `${parsed.hostname.replace(/^(www|m|mobile)\./, '')}${parsed.pathname}`;
  } catch {
    return undefined;
  }
  return Object.values(PLATFORMS).find((p) =>
    p.hosts.some((h) => host === h || host.startsWith(`${h}/`) || host.endsWith(`.${h.split('/')[0]}`)),
  );
}
