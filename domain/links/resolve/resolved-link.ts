/**
 * A link as the redirect process needs it to answer a scan: the rules' inputs, the type and data
 * to render, and the files its data names. It is what the resolution cache holds (in-process and
 * in Redis as JSON), so every member is plain JSON: instants are epoch milliseconds.
 */
import type { ImageVariant } from '../../files/image-variants.js';
import type { LinkDataByType, LinkType } from '../data/index.js';
import type { PageStyle } from '../page-style.js';
import type { QueryPolicy, Utm } from '../utm-fields.js';

export interface ResolvedLinkFile {
  id: string;
  contentType: string;
  size: number;
  originalName: string | null;
  /** Its web-sized copies (a photo's); null: none. */
  variants: ImageVariant[] | null;
}

/** What every resolved link has, whatever its type. */
interface ResolvedLinkFields {
  id: string;
  accountId: string;
  slug: string;
  /** The brand domain it is on (its short URL's host); null: the default domain. */
  host: string | null;
  name: string;
  /** The brand and language of the link's page; null: the default look. */
  pageStyle: PageStyle | null;
  /** The cafe whose menu a menu link serves (`links.menu`); null for other links and menu links made without a cafe. */
  menu: string | null;
  /**
   * Menu links: the version of the cafe's menu (its last change, see domain/cafes/published-menu.ts),
   * so a changed menu is a new key for the rendered page; null for other links or a link serving
   * no cafe.
   */
  menuVersion: string | null;
  paused: boolean;
  scheduleActive: boolean;
  /** Epoch ms; the window is [startDate, endDate). */
  startDate: number | null;
  endDate: number | null;
  scheduleTimezone: string | null;
  scanLimitActive: boolean;
  scanLimit: number | null;
  /** bcrypt hash when password protection is on, else null. */
  passwordHash: string | null;
  /** The files the data names, by id (attached to this link). */
  files: ResolvedLinkFile[];
  updatedAt: number;
  /** Codes of this link were printed before QR codes carried a source marker (domain/links/attribution.ts). */
  unmarkedCodes: boolean;
  /** The link's placements by the code their QR images carry (`?q=<code>`): code → placement id. */
  placements: Record<string, string>;
  /** UTM parameters added to the destination; null: none. */
  utm: Utm | null;
  /** What happens to the visitor's own query string. */
  queryPolicy: QueryPolicy;
  /**
   * website / smart-url: a stored destination is not an http(s) URL (a row written outside the
   * api), so there is nowhere to redirect to. Set by `withSendableDestinations`, which also puts
   * every destination in `data` in its sendable (WHATWG-serialised, ASCII) form.
   */
  brokenDestination: boolean;
}

/** A resolved link of one type: `data` (meta_data) is that type's data exactly as validated and stored. */
type ResolvedLinkOf<T extends LinkType> = ResolvedLinkFields & { type: T; data: LinkDataByType[T] };

/** A resolved link of any type; checking `type` gives `data` its type's shape. */
export type ResolvedLink = { [T in LinkType]: ResolvedLinkOf<T> }[LinkType];

/**
 * A link as read back from Postgres or from a Redis copy, before its data is taken as its type's
 * (`withSendableDestinations` does that); `brokenDestination` is absent in a row.
 */
export type StoredLink = Omit<ResolvedLinkFields, 'brokenDestination'> & {
  type: string;
  data: Record<string, unknown>;
  brokenDestination?: boolean;
};
