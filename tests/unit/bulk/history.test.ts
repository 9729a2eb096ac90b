/**
 * The history's bounds (bulk/history.ts pruneHistory): the newest changes are kept, older ones go, and a change of
 * several sites (several journals naming one change id) goes or stays whole. Real files in a temporary directory.
 */
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pruneHistory, readHistory, shownCommand } from '../../../src/bulk/history.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const NOW = new Date('2026-11-25T12:00:00Z');

/** Writes a journal of one run (a header and one planned item) with the given modification time. */
function journal(name: string, runId: string, minutesAgo: number, partOf?: string, ids = ['a']): void {
  const createdAt = new Date(NOW.getTime() - minutesAgo * 60_000);
  const header = { kind: 'header', runId, entity: 'services', action: 'update', createdAt: createdAt.toISOString(), args: { ids }, ...(partOf ? { partOf } : {}) };
  const path = join(dir!, `${name}.ndjson`);
  writeFileSync(path, `${JSON.stringify(header)}\n${JSON.stringify({ kind: 'planned', id: ids[0] })}\n`);
  utimesSync(path, createdAt, createdAt);
}

describe('pruneHistory', () => {
  it('keeps the newest changes and removes the rest; a change of several sites counts once and goes whole', () => {
    dir = mkdtempSync(join(tmpdir(), 'sitectl-history-'));
    journal('r1', 'run-1', 50);
    // One change of two sites, its parts a minute apart.
    journal('r2a', 'run-2a', 40, 'change-2');
    journal('r2b', 'run-2b', 39, 'change-2');
    journal('r3', 'run-3', 30);
    journal('r4', 'run-4', 20);
    expect(pruneHistory(dir, NOW, { maxChanges: 3 })).toBe(1);
    expect(readdirSync(dir).sort()).toEqual(['r2a.ndjson', 'r2b.ndjson', 'r3.ndjson', 'r4.ndjson']);
    expect(readHistory(dir, new Date()).changes.map((c) => c.id)).toEqual(['change-2', 'run-3', 'run-4']);
    // One bound lower: both journals of the change of two sites go together, none is left behind.
    expect(pruneHistory(dir, NOW, { maxChanges: 2 })).toBe(2);
    expect(readdirSync(dir).sort()).toEqual(['r3.ndjson', 'r4.ndjson']);
  });

  it('removes changes older than the age bound, and leaves files that are not journals alone within the bounds', () => {
    dir = mkdtempSync(join(tmpdir(), 'sitectl-history-'));
    journal('old', 'run-old', 91 * 24 * 60);
    journal('new', 'run-new', 5);
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    expect(pruneHistory(dir, NOW)).toBe(1);
    expect(readdirSync(dir).sort()).toEqual(['new.ndjson', 'notes.txt']);
    // Within both bounds nothing is opened or removed.
    expect(pruneHistory(dir, NOW)).toBe(0);
  });

  it("judges a change old by its header's date too: a file time from another clock does not delete a new change", () => {
    dir = mkdtempSync(join(tmpdir(), 'sitectl-history-'));
    journal('fresh', 'run-fresh', 5);
    // A file time half a year back (a copied folder, another machine's disk, a clock moved under faketime).
    const long = new Date(NOW.getTime() - 200 * 86_400_000);
    utimesSync(join(dir, 'fresh.ndjson'), long, long);
    journal('stale', 'run-stale', 100 * 24 * 60);
    expect(pruneHistory(dir, NOW)).toBe(1);
    expect(readdirSync(dir)).toEqual(['fresh.ndjson']);
  });

  it('reads a header longer than one read block (a run over many ids) to find its change', () => {
    dir = mkdtempSync(join(tmpdir(), 'sitectl-history-'));
    const many = Array.from({ length: 20_000 }, (_, i) => `id-${i}-${'x'.repeat(8)}`);
    journal('big-a', 'run-big-a', 30, 'change-big', many);
    journal('big-b', 'run-big-b', 29, 'change-big', many);
    journal('small', 'run-small', 10);
    expect(pruneHistory(dir, NOW, { maxChanges: 1 })).toBe(2);
    expect(readdirSync(dir)).toEqual(['small.ndjson']);
  });
});

describe('shownCommand', () => {
  it('names the program sitectl, however it was started, and keeps the rest of the line as typed', () => {
    expect(shownCommand('./bin/sitectl.js members approve --status PENDING')).toBe('sitectl members approve --status PENDING');
    expect(shownCommand('/opt/tools/sitectl undo --last')).toBe('sitectl undo --last');
    expect(shownCommand('sitectl history')).toBe('sitectl history');
    // A quoted first word (a path with a space, `npm run dev --`) is one word, quotes inside it included.
    expect(shownCommand("'npm run dev --' services update --filter '{}' --set tagLine=x")).toBe("sitectl services update --filter '{}' --set tagLine=x");
    expect(shownCommand("'/home/ada/my tools/it'\\''s/sitectl.js' undo --last")).toBe('sitectl undo --last');
    expect(shownCommand('./bin/sitectl.js')).toBe('sitectl');
    expect(shownCommand('')).toBe('');
  });
});
