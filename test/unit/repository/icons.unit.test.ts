/** assets/icons/ holds exactly the icons the console and the hosted pages name: none missing, none left over. */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

describe('assets/icons', () => {
  it('holds the icons named in console/src/ui/icons.ts and redirect/pages/common/icons.ts, and only those', () => {
    const console = [...read('console/src/ui/icons.ts').matchAll(/assets\/icons\/([a-z0-9-]+)\.svg\?raw/g)].map((m) => m[1]);
    const pages = read('redirect/pages/common/icons.ts');
    const table = pages.slice(pages.indexOf('const ICON_FILES = {'), pages.indexOf('} as const;'));
    const hosted = [...table.matchAll(/:\s*'([a-z0-9-]+)'/g)].map((m) => m[1]);
    const files = readdirSync(new URL('../../../assets/icons/', import.meta.url))
      .filter((f) => f.endsWith('.svg'))
      .map((f) => f.slice(0, -4));
    expect(console.length).toBeGreaterThan(20);
    expect(hosted.length).toBeGreaterThan(20);
    expect(files.sort()).toEqual([...new Set([...console, ...hosted])].sort());
  });
});
