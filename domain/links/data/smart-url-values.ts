/**
 * The values a smart-url rule may take, apart from the zod schema that checks them, so the
 * browser console offers exactly these without bundling zod (`schemas.ts` builds on them).
 */
export const SMART_URL_RULES_MAX = 10;
export const CONDITION_TYPES = ['location', 'time', 'date', 'device'] as const;
export const DEVICES = ['ios', 'android', 'windows', 'macos', 'linux', 'mobile', 'desktop'] as const;
export const OPERATORS = {
  location: ['is', 'is_not'],
  time: ['between', 'not_between'],
  date: ['after', 'before', 'between', 'not_between'],
  device: ['is', 'is_not'],
} as const satisfies Record<(typeof CONDITION_TYPES)[number], readonly string[]>;
