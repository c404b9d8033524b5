import type { ResolvedLink } from './resolved-link.js';

/**
 * Why a known link does not resolve right now, before its scan limit is consulted; null when it
 * may. Same precedence as the status filter (shared/links/status.ts): paused, then the window.
 */
export function unavailableReason(link: ResolvedLink, now: number): 'paused' | 'scheduled' | 'expired' | null {
  if (link.paused) return 'paused';
  if (link.scheduleActive) {
    if (link.startDate !== null && now < link.startDate) return 'scheduled';
    if (link.endDate !== null && now >= link.endDate) return 'expired';
  }
  return null;
}
