/** The `data` of a `wifi` link (the rules all types share: ../schemas.ts). */
import { booleanType, enumOf, optionalText, strict, text } from '../fields.js';
import { SHORT_TEXT_MAX } from '../limits.js';

export const WIFI_ENCRYPTIONS = ['WPA', 'WEP', 'nopass'] as const;

export const wifiDataSchema = strict({
  ssid: text(SHORT_TEXT_MAX),
  encryption: enumOf(WIFI_ENCRYPTIONS),
  password: optionalText(SHORT_TEXT_MAX),
  hidden: booleanType().optional(),
});
