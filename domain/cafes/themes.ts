/**
 * The menu page's looks. A cafe names one (`themeImage`); the page renders that theme's palette,
 * type and layout, with the cafe's primaryColor / secondaryColor (when set) in place of the
 * theme's accent colors. The keys are part of the API (PUT /cafes/:id/theme lists them), so a key
 * is never renamed or removed, only added.
 */

export interface MenuTheme {
  /** What a restaurant owner picks it for. */
  label: string;
  palette: {
    background: string;
    surface: string;
    text: string;
    mutedText: string;
    /** The default primaryColor: headings, prices, the active group tab. */
    primary: string;
    /** The default secondaryColor: badges, dividers, buttons. */
    secondary: string;
  };
  typography: {
    /** CSS font stacks: system fonts only, so the page loads nothing from elsewhere. */
    headings: string;
    body: string;
  };
  /** How items are laid out: `list` rows (text first), `cards` with their image on top, `grid` of tiles. */
  layout: 'list' | 'cards' | 'grid';
}

const SERIF = 'Georgia, "Times New Roman", serif';
const SANS = 'system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif';
const ROUNDED = 'ui-rounded, "SF Pro Rounded", "Arial Rounded MT Bold", system-ui, sans-serif';
const MONO = 'ui-monospace, "SF Mono", Menlo, Consolas, monospace';

export const MENU_THEMES = {
  classic: {
    label: 'Classic café: warm cream paper, serif headings, a plain list',
    palette: { background: '#fbf7f0', surface: '#ffffff', text: '#2b2118', mutedText: '#6f6254', primary: '#8a4b2a', secondary: '#c89b6d' },
    typography: { headings: SERIF, body: SANS },
    layout: 'list',
  },
  modern: {
    label: 'Modern: white, bold sans-serif, photo cards',
    palette: { background: '#f6f7f9', surface: '#ffffff', text: '#111827', mutedText: '#6b7280', primary: '#2563eb', secondary: '#f59e0b' },
    typography: { headings: SANS, body: SANS },
    layout: 'cards',
  },
  minimal: {
    label: 'Minimal: black on white, no ornament, a dense list',
    palette: { background: '#ffffff', surface: '#ffffff', text: '#000000', mutedText: '#555555', primary: '#000000', secondary: '#999999' },
    typography: { headings: SANS, body: SANS },
    layout: 'list',
  },
  dark: {
    label: 'Dark: bars and evening menus, light text on charcoal',
    palette: { background: '#121212', surface: '#1e1e1e', text: '#f5f5f5', mutedText: '#a3a3a3', primary: '#fbbf24', secondary: '#f472b6' },
    typography: { headings: SANS, body: SANS },
    layout: 'cards',
  },
  rustic: {
    label: 'Rustic: bakeries and bistros, kraft tones and serif type',
    palette: { background: '#efe6d8', surface: '#f8f2e8', text: '#3b2f22', mutedText: '#665741', primary: '#6b4423', secondary: '#7d8c4a' },
    typography: { headings: SERIF, body: SERIF },
    layout: 'list',
  },
  elegant: {
    label: 'Elegant: fine dining, ivory and gold, generous spacing',
    palette: { background: '#fffdf8', surface: '#ffffff', text: '#1c1917', mutedText: '#78716c', primary: '#a16207', secondary: '#1c1917' },
    typography: { headings: SERIF, body: SERIF },
    layout: 'list',
  },
  vibrant: {
    label: 'Vibrant: street food and juice bars, bright color and rounded type',
    palette: { background: '#fff7ed', surface: '#ffffff', text: '#1f2937', mutedText: '#6b7280', primary: '#ea580c', secondary: '#16a34a' },
    typography: { headings: ROUNDED, body: ROUNDED },
    layout: 'grid',
  },
  coastal: {
    label: 'Coastal: seafood and beach cafés, sand and sea blues',
    palette: { background: '#f0f7fa', surface: '#ffffff', text: '#0f2f3d', mutedText: '#547080', primary: '#0e7490', secondary: '#e0a458' },
    typography: { headings: SANS, body: SANS },
    layout: 'cards',
  },
  diner: {
    label: 'Diner: coffee shops and diners, typewriter type on paper white',
    palette: { background: '#fdfdfb', surface: '#ffffff', text: '#222222', mutedText: '#666666', primary: '#b91c1c', secondary: '#1d4ed8' },
    typography: { headings: MONO, body: SANS },
    layout: 'grid',
  },
} as const satisfies Record<string, MenuTheme>;

export type MenuThemeKey = keyof typeof MENU_THEMES;

export const MENU_THEME_KEYS = Object.keys(MENU_THEMES) as [MenuThemeKey, ...MenuThemeKey[]];

/** A new cafe's theme until PUT /cafes/:id/theme names another. */
export const DEFAULT_MENU_THEME: MenuThemeKey = 'classic';
