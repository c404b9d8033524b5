/**
 * Where scans come from, in words: the source split and the names of placement, referrer and
 * campaign rows. Apart from view.ts, which the home screen loads at once: only the dashboard
 * (loaded on demand) needs these.
 */
import { SOURCES, type RankedRow, type Source } from './view.js';

export const SOURCE_LABELS: Record<Source, string> = {
  qr: 'QR code',
  link: 'Link',
  unknown: 'Unknown – codes printed before sources were tracked',
};

/** A source in a word or two, where the legend's long label would not fit (a filter chip, a tooltip). */
export function sourceName(source: Source): string {
  return source === 'unknown' ? 'Unknown source' : SOURCE_LABELS[source];
}

/** The source answer as the split bar's segments, every source present (0 when absent), in SOURCES' order. */
export function sourceSplit(rows: readonly Pick<RankedRow, 'name' | 'scans' | 'percentage'>[]): Array<{
  source: Source;
  label: string;
  scans: number;
  percentage: number;
}> {
  return SOURCES.map((source) => {
    const row = rows.find((r) => r.name === source);
    return { source, label: SOURCE_LABELS[source], scans: row?.scans ?? 0, percentage: row ? Number(row.percentage) : 0 };
  });
}

/** A referrer row's name in words: the host, or "Direct" for scans that came with none (`(direct)`). */
export const referrerLabel = (name: string) => (name === '(direct)' ? 'Direct' : name);

/** A campaign row's name in words: "No campaign" for `(none)`. */
export const campaignLabel = (name: string) => (name === '(none)' ? 'No campaign' : name);

/** A placement row's name in words: "No placement" for `(none)` (the link's own code, or the link itself). */
export const placementLabel = (name: string) => (name === '(none)' ? 'No placement' : name);
