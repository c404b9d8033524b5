/** Light or dark: the visitor's explicit choice if they made one here, else the system's. */
export type Theme = 'light' | 'dark';

const THEME_ITEM = 'qrlinks.theme';

export function chosenTheme(storage: Pick<Storage, 'getItem'>): Theme | null {
  const value = storage.getItem(THEME_ITEM);
  return value === 'light' || value === 'dark' ? value : null;
}

export function effectiveTheme(chosen: Theme | null, systemPrefersDark: boolean): Theme {
  return chosen ?? (systemPrefersDark ? 'dark' : 'light');
}

export function chooseTheme(storage: Pick<Storage, 'setItem'>, theme: Theme): void {
  storage.setItem(THEME_ITEM, theme);
}
