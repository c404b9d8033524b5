/** Up to two letters for a person's avatar: their name's first and last words, else their email's first letter. */
export function initials(name: string | null | undefined, email: string): string {
  const words = (name ?? '').trim().split(/\s+/u).filter(Boolean);
  const first = (w: string | undefined) => (w ? ([...w][0] ?? '') : '');
  const letters = words.length > 1 ? first(words[0]) + first(words.at(-1)) : first(words[0]) || first(email.trim());
  return letters.toLocaleUpperCase() || '?';
}
