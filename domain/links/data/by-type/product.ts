/** The `data` of a `product` link (the rules all types share: ../schemas.ts). */
import { z } from 'zod';
import { discriminatorError, fileRefSchema, list, nonNegative, strict, stringType, text, urlSchema } from '../fields.js';
import { FILES_MAX, LONG_TEXT_MAX, SHORT_TEXT_MAX } from '../limits.js';
import { isCurrencyCode } from '../codes.js';

export const DISCOUNT_TYPES = ['amount', 'percent'] as const;

export const discountSchema = z.discriminatedUnion(
  'type',
  [
    strict({ type: z.literal('amount'), value: nonNegative() }),
    strict({ type: z.literal('percent'), value: nonNegative().max(100, { error: 'Must be <= 100' }) }),
  ],
  { error: discriminatorError('type', DISCOUNT_TYPES) },
);

export const productDataSchema = strict({
  productName: text(SHORT_TEXT_MAX),
  productDescription: text(LONG_TEXT_MAX),
  currency: stringType().refine(isCurrencyCode, { error: 'Must be a currency code (ISO 4217, e.g. USD)' }),
  subTotal: nonNegative(),
  tax: nonNegative(),
  totalNet: nonNegative(),
  discount: discountSchema.optional(),
  images: strict({ files: list(fileRefSchema, 0, FILES_MAX) }).optional(),
  buyUrl: urlSchema().optional().meta({ description: 'Where the product is bought: the page\'s main "Buy" button' }),
});
