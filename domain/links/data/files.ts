import { landingImageSources, relativeFileId, withLandingFileIds } from './landing-images.js';
import type { LinkType } from './types.js';

/** A file a link's `data` names: where (`path` inside `data`), which file, and what it must be. */
export interface FileRefLocation {
  path: Array<string | number>;
  fileId: string;
  kind: 'image' | 'pdf';
}

/**
 * Every fileId a `data` payload of `type` names, in document order, so the link service can check
 * that each file exists, belongs to the account and is of the right kind, and report a bad one at
 * `data.<path>`. Meant for payloads that passed `linkDataSchemas[type]`; anything else is read
 * defensively (members that are not where or what they should be are skipped, never thrown on).
 *
 * image, gallery, event `image`, vcard `photo`, product `images` → image; pdf, multi-pdf → pdf; landing: each
 * `<img src="/files/<id>">` of `landingHTML` → image at `landingHTML`.
 */
export function fileRefs(type: LinkType, data: unknown): FileRefLocation[] {
  const out: FileRefLocation[] = [];
  const d = asRecord(data);
  if (!d) return out;
  switch (type) {
    case 'image':
    case 'gallery':
      listed(d.files, ['files'], 'image', out);
      break;
    case 'pdf':
      listed(d.files, ['files'], 'pdf', out);
      break;
    case 'event':
      single(d.image, ['image'], 'image', out);
      break;
    case 'vcard':
      single(d.photo, ['photo'], 'image', out);
      break;
    case 'product':
      listed(asRecord(d.images)?.files, ['images', 'files'], 'image', out);
      break;
    case 'multi-pdf':
      listed(d.pdfs, ['pdfs'], 'pdf', out);
      break;
    case 'landing':
      if (typeof d.landingHTML === 'string') {
        for (const src of landingImageSources(d.landingHTML)) {
          const fileId = relativeFileId(src);
          if (fileId) out.push({ path: ['landingHTML'], fileId, kind: 'image' });
        }
      }
      break;
    default:
      break;
  }
  return out;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function single(value: unknown, path: Array<string | number>, kind: FileRefLocation['kind'], out: FileRefLocation[]) {
  const fileId = asRecord(value)?.fileId;
  if (typeof fileId === 'string') out.push({ path: [...path, 'fileId'], fileId, kind });
}

function listed(value: unknown, path: Array<string | number>, kind: FileRefLocation['kind'], out: FileRefLocation[]) {
  if (!Array.isArray(value)) return;
  value.forEach((item, i) => single(item, [...path, i], kind, out));
}

/**
 * `value` (link data, a page style) with each file the map names (lower-case id → new id) replaced
 * by its new one: `fileId` members, and the `/files/<id>` urls of a landing's `landingHTML`.
 */
export function withFileIds<T>(value: T, ids: ReadonlyMap<string, string>): T {
  if (value === null || value === undefined || [...ids].every(([from, to]) => from === to)) return value;
  return JSON.parse(JSON.stringify(value), (key, v: unknown) => {
    if (typeof v !== 'string') return v;
    if (key === 'fileId') return ids.get(v.toLowerCase()) ?? v;
    if (key === 'landingHTML') return withLandingFileIds(v, ids);
    return v;
  }) as T;
}
