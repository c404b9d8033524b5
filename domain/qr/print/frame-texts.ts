/**
 * The frames' default calls to action, in the hosted pages' languages: apart from frames.ts (which
 * draws with resvg and a font file) so the console's designer can show them without either.
 */
import type { FrameStyle } from '../options.js';

/** The languages of the hosted pages (redirect/pages/common/locale.ts), which the default texts speak. */
export const FRAME_LANGUAGES = ['en', 'pt', 'es', 'fr', 'de'] as const;
export type FrameLanguage = (typeof FRAME_LANGUAGES)[number];

/**
 * The default calls to action: a table tent stands on a cafe's table, so it asks for the menu;
 * every other style says only what to do. Portuguese is worded to read well in Portugal and Brazil.
 */
const DEFAULT_TEXTS: Record<FrameLanguage, { scan: string; menu: string; wifi: string }> = {
  en: { scan: 'Scan me', menu: 'Scan for the menu', wifi: 'Wi-Fi' },
  pt: { scan: 'Leia o código', menu: 'Leia para ver o menu', wifi: 'Wi-Fi' },
  es: { scan: 'Escanéame', menu: 'Escanea para ver la carta', wifi: 'Wi-Fi' },
  fr: { scan: 'Scannez-moi', menu: 'Scannez pour voir le menu', wifi: 'Wi-Fi' },
  de: { scan: 'Scan mich', menu: 'Scannen für die Speisekarte', wifi: 'WLAN' },
};

/** The page language of a BCP 47 tag (`pt-BR` → `pt`); English for any other. */
export function frameLanguageOf(tag: string | null | undefined): FrameLanguage {
  const base = (tag ?? '').split('-')[0]!.toLowerCase();
  return (FRAME_LANGUAGES as readonly string[]).includes(base) ? (base as FrameLanguage) : 'en';
}

export function defaultFrameText(style: FrameStyle, language: FrameLanguage): string {
  return style === 'table-tent' ? DEFAULT_TEXTS[language].menu : DEFAULT_TEXTS[language].scan;
}

/** A table tent's caption under its Wi-Fi code: the network's name after the word for Wi-Fi. */
export function wifiCaption(network: string, language: FrameLanguage): string {
  return `${DEFAULT_TEXTS[language].wifi}: ${network}`;
}
