/**
 * The committed OpenAPI document (docs/openapi.json) and the console's API types made from it
 * (console/src/api/schema.d.ts) are what the routes make now: a route changed without
 * `npm run api-types` fails here, not in a reader's or the console's hands.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { API_TYPES_FILE, generateApiDocuments, OPENAPI_FILE } from '#console/api-types.js';

describe('committed API documents', () => {
  it('docs/openapi.json and console/src/api/schema.d.ts match the routes (else: npm run api-types)', { timeout: 60_000 }, async () => {
    const now = await generateApiDocuments();
    const [openapi, types] = await Promise.all([readFile(OPENAPI_FILE, 'utf8'), readFile(API_TYPES_FILE, 'utf8')]);
    expect(openapi === now.openapi, 'docs/openapi.json is out of date: run npm run api-types').toBe(true);
    expect(types === now.types, 'console/src/api/schema.d.ts is out of date: run npm run api-types').toBe(true);
  });
});
