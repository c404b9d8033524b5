/**
 * The languages hosted pages and menus are written in, each by its own name (someone looking for
 * their language reads it that way), with the regional forms of Portuguese people ask for.
 */
const PAGE_LANGUAGES: ReadonlyArray<{ tag: string; label: string }> = [
  { tag: 'en', label: 'English' },
  { tag: 'pt-PT', label: 'Português (Portugal)' },
  { tag: 'pt-BR', label: 'Português (Brasil)' },
  { tag: 'es', label: 'Español' },
  { tag: 'fr', label: 'Français' },
  { tag: 'de', label: 'Deutsch' },
];

/** A language select's choices: '' first (`unset`: no language of the owner's), the page languages, and `current` when it is another tag. */
export function languageChoices(current: string, unset: string): Array<{ tag: string; label: string }> {
  const choices = [{ tag: '', label: unset }, ...PAGE_LANGUAGES];
  return choices.some((c) => c.tag === current) ? choices : [...choices, { tag: current, label: current }];
}
