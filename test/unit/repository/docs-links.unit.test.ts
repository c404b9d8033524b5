/**
 * Every relative link in README.md and docs/**\/*.md leads somewhere: to a file or folder that
 * exists and, for a link into a Markdown file with `#anchor`, to a heading of that file (anchors
 * made as GitHub makes them). Links inside code (fenced blocks, `inline`) are not links.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

const FENCED = /^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm;

/** The text with fenced code blocks and inline code (which may run over a line break) blanked out. */
function withoutCode(text: string): string {
  return text.replace(FENCED, '').replace(/`(?:[^`\n]|\n(?!\n))*`/g, '``');
}

/** The anchors GitHub gives a Markdown file's headings (a repeated one gains -1, -2, …). */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of text.replace(FENCED, '').matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const slug = heading!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

const RELATIVE = /^(?![a-z][a-z0-9+.-]*:|\/\/|#)/i;

/** The broken relative links of one Markdown text found at `file`, as "target: reason". */
function brokenLinks(file: string, text: string, read = (p: string) => readFileSync(p, 'utf8')): string[] {
  const broken: string[] = [];
  const body = withoutCode(text);
  const targets = [
    ...[...body.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!),
    ...[...body.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)].map((m) => m[1]!),
  ];
  for (const target of targets) {
    const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
    if (pathPart === '') {
      if (anchor && !anchorsOf(text).has(decodeURIComponent(anchor))) broken.push(`${target}: no such heading here`);
      continue;
    }
    if (!RELATIVE.test(target)) continue;
    const path = resolve(dirname(file), decodeURIComponent(pathPart));
    if (!existsSync(path)) {
      broken.push(`${target}: no such file`);
      continue;
    }
    if (anchor && path.endsWith('.md') && statSync(path).isFile()) {
      if (!anchorsOf(read(path)).has(decodeURIComponent(anchor))) broken.push(`${target}: no such heading`);
    }
  }
  return broken;
}

describe('links in the docs', () => {
  it('finds a missing file, a missing heading and a missing anchor of its own file, not links in code', () => {
    const file = join(ROOT, 'docs', 'example.md');
    const text = [
      '# Example',
      '## Two words',
      'See [the guide](guide/README.md), [gone](guide/gone.md), [here](#two-words), [nowhere](#nowhere),',
      '[a heading](../README.md#run-it), [no heading](../README.md#no-such-heading), <https://example.com>,',
      '[out](https://example.com/x.md) and `[code](missing.md)`.',
      '```',
      '[fenced](missing-too.md)',
      '```',
      '[ref]: sizing.md',
      '[badref]: sizing-gone.md',
    ].join('\n');
    expect(brokenLinks(file, text)).toEqual([
      'guide/gone.md: no such file',
      '#nowhere: no such heading here',
      '../README.md#no-such-heading: no such heading',
      'sizing-gone.md: no such file',
    ]);
  });

  it('every relative link in README.md and docs/ resolves', () => {
    const files = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))];
    const broken = files.flatMap((file) => brokenLinks(file, readFileSync(file, 'utf8')).map((link) => `${relative(ROOT, file)}: ${link}`));
    expect(broken).toEqual([]);
  });
});
