/** Length and size limits link data shares across types (see schemas.ts for the rules). */

export const SHORT_TEXT_MAX = 255;
export const LONG_TEXT_MAX = 5000;
export const URL_MAX = 2048;
export const EMAIL_MAX = 254;
export const TIMEZONE_MAX = 64;
export const PAGE_TITLE_MAX = 100;
export const FILES_MAX = 100;
