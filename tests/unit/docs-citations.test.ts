/**
 * Every citation in every tracked file resolves inside the repository. Scanned: every text file `git ls-files`
 * lists (the code, the tests, the bench, the build and CI configuration, the README and docs/), except this one
 * (its patterns name the outside documents) and the lockfile (package names and hashes); binary files are skipped.
 * No file cites a document that lives outside the repository (the seed specification, the shared wire and design
 * notes, the issues), and every `docs/<file>.md §N` or `docs/<file>.md "Title"` names a section heading that
 * exists in that file.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * Paths other branches are changing while this test lands; their citations are rewritten with the same mapping
 * script once those branches are merged, and then this list is emptied.
 */
const NOT_YET_MAPPED: readonly string[] = [];

/** Citations of documents outside the repository. */
const OUTSIDE: readonly [string, RegExp][] = [
  ['platform-wire.md', /platform-wire/],
  ['design.md', /(?<![\w/])design\.md/],
  ['the seed spec', /\bspec\s+(?:\*\s+)?00\d/i],
  ['../shared/', /\.\.\/shared\/(?:docs|spec)/],
  ['an issue', /\bissues?\s+(?:\*\s+)?\d+\b/i],
  ['style.md', /(?<![\w/])style\.md/],
  ['the shared wire notes', /(?<![\w/.])wire\s+(?:\*\s+)?(?:sections?\s+|§)\d/],
];

/** Tracked files not scanned: this test (its patterns name the outside documents) and the lockfile. */
const NOT_SCANNED: ReadonlySet<string> = new Set(['tests/unit/docs-citations.test.ts', 'package-lock.json']);

/** Binary formats, by extension; any other file holding a NUL byte is taken as binary too. */
const BINARY = /\.(?:png|jpe?g|gif|webp|ico|bmp|pdf|zip|gz|tgz|xz|br|woff2?|ttf|otf|eot|wasm|node|sqlite|db)$/i;

/** Every tracked text file, as `git ls-files` lists them (a file deleted from the work tree is left out). */
const scanned = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  .split('\0')
  .filter((rel) => rel !== '' && !NOT_SCANNED.has(rel) && !BINARY.test(rel))
  .filter((rel) => !NOT_YET_MAPPED.some((p) => rel === p || rel.startsWith(p)))
  .flatMap((rel) => {
    const path = join(ROOT, rel);
    let bytes: Buffer;
    try {
      if (!statSync(path).isFile()) return [];
      bytes = readFileSync(path);
    } catch {
      return [];
    }
    return bytes.includes(0) ? [] : [{ rel, text: bytes.toString('utf8') }];
  });

/** Comment prefixes that continue a citation on the next line. */
const flat = (text: string): string => text.replace(/\n[ \t]*(?:\*(?!\/)|\/\/)?[ \t]*/g, ' ');

/** The section headings of a docs file: `## 6. Paging` gives number 6 and title "Paging". */
function headings(file: string): { numbers: Set<number>; titles: string[] } {
  const numbers = new Set<number>();
  const titles: string[] = [];
  for (const line of readFileSync(join(ROOT, 'docs', file), 'utf8').split('\n')) {
    const m = /^#{2,4}\s+(?:(\d+)\.\s+)?(.*?)\s*$/.exec(line);
    if (!m) continue;
    if (m[1]) numbers.add(Number(m[1]));
    titles.push(m[2]);
  }
  return { numbers, titles };
}

describe('citations resolve inside the repository', () => {
  it('cites no document outside it (the seed spec, platform-wire.md, design.md, style.md, the issues)', () => {
    const found: string[] = [];
    for (const { rel, text } of scanned) {
      // docs/wire.md names its sources (the seed documents) itself; the code and the other pages cite it instead.
      if (rel === 'docs/wire.md') continue;
      text.split('\n').forEach((line, i) => {
        for (const [what, re] of OUTSIDE) if (re.test(line)) found.push(`${rel}:${i + 1}: ${what}: ${line.trim()}`);
      });
      for (const [what, re] of OUTSIDE) {
        // a citation broken over two comment lines
        const joined = new RegExp(re.source, 'g');
        for (const m of flat(text).matchAll(joined)) if (!text.includes(m[0])) found.push(`${rel}: ${what} across lines: ${m[0]}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('every docs/<file>.md §N and docs/<file>.md "Title" names a section that exists', () => {
    const cache = new Map<string, ReturnType<typeof headings>>();
    const broken: string[] = [];
    const cite = /docs\/([\w-]+(?:\/[\w-]+)*)\.md((?:(?:,|\sand|\s?-|)\s?§\d+)*)(?:\s"([^"]+)")?/g;
    for (const { rel, text } of scanned) {
      for (const m of flat(text).matchAll(cite)) {
        const file = `${m[1]}.md`;
        let h = cache.get(file);
        if (!h) {
          try {
            h = headings(file);
          } catch {
            broken.push(`${rel}: docs/${file} does not exist`);
            continue;
          }
          cache.set(file, h);
        }
        const numbers = [...(m[2] ?? '').matchAll(/§(\d+)/g)].map((n) => Number(n[1]));
        for (const n of numbers) if (!h.numbers.has(n)) broken.push(`${rel}: docs/${file} §${n}`);
        // A quoted title right after the file (not after a § number) is a section title: the heading starts with it.
        if (numbers.length === 0 && m[3] !== undefined && !h.titles.some((t) => t === m[3] || t.startsWith(`${m[3]} (`))) {
          broken.push(`${rel}: docs/${file} "${m[3]}"`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('docs/wire.md numbers its sections 1 to N without a gap, so § citations stay stable', () => {
    const { numbers } = headings('wire.md');
    const max = Math.max(...numbers);
    expect([...numbers].sort((a, b) => a - b)).toEqual(Array.from({ length: max }, (_, i) => i + 1));
  });
});
