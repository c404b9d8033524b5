/**
 * The menu page's look: the theme's palette with the cafe's own colours (text on or in them kept
 * readable), and the stylesheets (menu.css, and the theme's layout's) read once at start.
 */
import { readFileSync } from 'node:fs';
import type { PublishedMenu } from '#domain/cafes/published-menu.js';
import type { MenuTheme } from '#domain/cafes/themes.js';
import { AA_CONTRAST, contrastRatio, isHexColor, relativeLuminance, textColorOn } from '#domain/colour-contrast.js';

/** A stylesheet beside this module as the page inlines it: without comments and line breaks. */
const stylesheet = (name: string) =>
  readFileSync(new URL(name, import.meta.url), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\n/g, '');

const MENU_STYLES = stylesheet('./menu.css');

const LAYOUT_STYLES: Record<MenuTheme['layout'], string> = {
  list: '',
  cards: stylesheet('./layout-cards.css'),
  grid: stylesheet('./layout-grid.css'),
};

// An owner's primary/secondary color may be any hex; text on or in it must stay readable.
/** The theme's palette with the cafe's colors, each text color checked against WCAG AA (4.5:1). */
function paletteOf(theme: MenuTheme, menu: PublishedMenu) {
  const p = theme.palette;
  const primary = isHexColor(menu.primaryColor) ? menu.primaryColor : p.primary;
  const secondary = isHexColor(menu.secondaryColor) ? menu.secondaryColor : p.secondary;
  const readable = (color: string, on: string, fallback: string) => (contrastRatio(color, on) >= AA_CONTRAST ? color : fallback);
  const onColor = (color: string) => textColorOn(color, { black: '#000000', white: '#ffffff' });
  return {
    ...p,
    primary,
    secondary,
    // Prices and headings in the primary color, unless it is too pale (or dark) on the background.
    primaryText: readable(primary, p.surface, p.text),
    onPrimary: onColor(primary),
    onSecondary: onColor(secondary),
    dark: relativeLuminance(p.background) < 0.2,
  };
}

export function themeStyles(theme: MenuTheme, menu: PublishedMenu): string {
  const c = paletteOf(theme, menu);
  const vars =
    `:root{color-scheme:${c.dark ? 'dark' : 'light'};--bg:${c.background};--fg:${c.text};--muted:${c.mutedText};--card:${c.surface};` +
    `--line:${c.dark ? '#3a3a3a' : '#e2ddd5'};--accent:${c.primaryText};--on-accent:${c.onPrimary};--primary:${c.primary};` +
    `--secondary:${c.secondary};--on-secondary:${c.onSecondary};--head-font:${theme.typography.headings};--body-font:${theme.typography.body}}`;
  return vars + MENU_STYLES + (LAYOUT_STYLES[theme.layout] ?? '');
}
