/** The `data` of a `multi-links` link (the rules all types share: ../schemas.ts). */
import { z } from 'zod';
import { booleanType, colorSchema, discriminatorError, list, optionalText, REQUIRED, strict, text, urlSchema } from '../fields.js';
import { LONG_TEXT_MAX, SHORT_TEXT_MAX } from '../limits.js';
import { utf8Length } from '../formats.js';

export const ICON_MAX = 2048;
export const LOGO_MAX_BYTES = 256 * 1024;
export const LOGO_MAX_DEPTH = 32;
export const MULTI_LINKS_MAX = 50;
export const MULTI_LINK_TYPES = ['custom', 'social'] as const;

/**
 * Why `value` is not a small JSON value (null, boolean, finite number, string, array, plain
 * object, nested at most `LOGO_MAX_DEPTH` deep, at most `LOGO_MAX_BYTES` when serialised), or null
 * when it is one. Each cause has its own message. Walks iteratively, so deep junk cannot overflow
 * the stack.
 */
export function smallJsonValueProblem(value: unknown): string | null {
  if (value === undefined) return REQUIRED;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v === 'boolean' || typeof v === 'string') continue;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return 'Must be a JSON value (numbers must be finite)';
      continue;
    }
    if (typeof v !== 'object') return 'Must be a JSON value';
    if (depth >= LOGO_MAX_DEPTH) return `Must be nested at most ${LOGO_MAX_DEPTH} levels deep`;
    if (Array.isArray(v)) {
      for (const item of v) stack.push([item, depth + 1]);
      continue;
    }
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return 'Must be a JSON value';
    for (const item of Object.values(v)) stack.push([item, depth + 1]);
  }
  const json = JSON.stringify(value);
  return json.length <= LOGO_MAX_BYTES && utf8Length(json) <= LOGO_MAX_BYTES
    ? null
    : `Must be at most ${LOGO_MAX_BYTES / 1024} KiB as JSON`;
}

export function isSmallJsonValue(value: unknown): boolean {
  return smallJsonValueProblem(value) === null;
}

export const multiLinkSchema = z.discriminatedUnion(
  'type',
  [
    strict({ type: z.literal('custom'), value: urlSchema(), title: text(SHORT_TEXT_MAX), icon: optionalText(ICON_MAX) }),
    strict({ type: z.literal('social'), value: urlSchema(), title: optionalText(SHORT_TEXT_MAX), icon: text(ICON_MAX) }),
  ],
  { error: discriminatorError('type', MULTI_LINK_TYPES) },
);

export const multiLinksDataSchema = strict({
  title: text(SHORT_TEXT_MAX),
  description: optionalText(LONG_TEXT_MAX),
  logo: z
    .unknown()
    .superRefine((value, ctx) => {
      const problem = smallJsonValueProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
    })
    .optional(),
  isRound: booleanType().optional(),
  design: strict({
    backgroundColor: colorSchema(),
    linkBackgroundColor: colorSchema(),
    textColor: colorSchema(),
  }),
  links: list(multiLinkSchema, 0, MULTI_LINKS_MAX).optional(),
});
