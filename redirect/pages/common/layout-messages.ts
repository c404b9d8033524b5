/** The words every page's layout has: the way back to the business, the preview text when the owner wrote none. */
import { catalogue } from './catalogue.js';

export const layoutText = catalogue(
  {
    visit: 'Visit {name}',
    defaultDescription: '{title}: opened from a QR code or short link.',
    welcome: 'Welcome',
  },
  {
    pt: { visit: 'Visitar {name}', defaultDescription: '{title}: aberto a partir de um código QR ou link curto.', welcome: 'Bem-vindo' },
    es: { visit: 'Visitar {name}', defaultDescription: '{title}: abierto desde un código QR o enlace corto.', welcome: 'Bienvenido' },
    fr: { visit: 'Visiter {name}', defaultDescription: '{title} : ouvert depuis un code QR ou un lien court.', welcome: 'Bienvenue' },
    de: { visit: '{name} besuchen', defaultDescription: '{title}: geöffnet über einen QR-Code oder Kurzlink.', welcome: 'Willkommen' },
  },
);
