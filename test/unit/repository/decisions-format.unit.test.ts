/**
 * Every decision in docs/decisions/ says under its title whether it holds, when it was made and
 * its area (`Status: … · Date: YYYY-MM-DD · Area: …`), and a superseded one and the one that
 * supersedes it name each other.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const DIR = resolve(import.meta.dirname, '../../..', 'docs', 'decisions');
const files = readdirSync(DIR).filter((name) => /^\d{4}-.+\.md$/.test(name));
const read = (name: string) => readFileSync(join(DIR, name), 'utf8');
const META = /^# .+\n\nStatus: (accepted|superseded by \[(\d{4})\]\((\d{4}-[^)]+\.md)\)[^·\n]*) · Date: \d{4}-\d{2}-\d{2} · Area: \S.*$/m;

describe('decisions', () => {
  it('each has its status, date and area on the line under its title', () => {
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((name) => !META.test(read(name)))).toEqual([]);
  });

  it('a superseded one names a file that says it supersedes it', () => {
    const unmatched = files.flatMap((name) => {
      const match = META.exec(read(name));
      if (!match?.[3]) return [];
      const newer = files.includes(match[3]) ? read(match[3]) : '';
      const supersedes = /^Supersedes: (.+)$/m.exec(newer)?.[1] ?? '';
      return supersedes.includes(`](${name})`) ? [] : [`${name} → ${match[3]}`];
    });
    expect(unmatched).toEqual([]);
  });
});
