/**
 * The menu page's look as a form: one of the themes, the theme's own colours or the cafe's, and
 * the dietary section; and PUT /cafes/:id/theme's body from it.
 */
import type { paths } from '../api/schema.js';
import { MENU_THEMES, type MenuThemeKey } from '#domain/cafes/themes.js';
import { longHex } from '#domain/colour-contrast.js';
import type { Cafe } from './cafe-list.js';

type ThemeBody = paths['/api/v1/cafes/{id}/theme']['put']['requestBody']['content']['application/json'];

export interface ThemeForm {
  themeImage: MenuThemeKey;
  /** The cafe's own colour, else the theme's (sent as null). */
  ownPrimary: boolean;
  primary: string;
  ownSecondary: boolean;
  secondary: string;
  showDietarySection: boolean;
}

export function themeFormOf(cafe: Pick<Cafe, 'themeImage' | 'primaryColor' | 'secondaryColor' | 'showDietarySection'>): ThemeForm {
  const palette = MENU_THEMES[cafe.themeImage].palette;
  return {
    themeImage: cafe.themeImage,
    ownPrimary: cafe.primaryColor !== null,
    primary: longHex(cafe.primaryColor ?? palette.primary),
    ownSecondary: cafe.secondaryColor !== null,
    secondary: longHex(cafe.secondaryColor ?? palette.secondary),
    showDietarySection: cafe.showDietarySection,
  };
}

/** Choosing another theme shows its colours in the pickers, unless the cafe keeps its own. */
export function withTheme(form: ThemeForm, themeImage: MenuThemeKey): ThemeForm {
  const palette = MENU_THEMES[themeImage].palette;
  return {
    ...form,
    themeImage,
    primary: form.ownPrimary ? form.primary : palette.primary,
    secondary: form.ownSecondary ? form.secondary : palette.secondary,
  };
}

export function themeBodyOf(form: ThemeForm): ThemeBody {
  return {
    themeImage: form.themeImage,
    primaryColor: form.ownPrimary ? form.primary : null,
    secondaryColor: form.ownSecondary ? form.secondary : null,
    showDietarySection: form.showDietarySection,
  };
}
