/**
 * A journal that cannot be written (ENOSPC, EIO): the run stops instead of counting unrecorded results as done,
 * the file is cut back to its last complete line so `--resume` can read it, and the error names the journal and
 * the resume command (docs/architecture.md "Bulk runs, the journal, history and undo": nothing lost, nothing
 * repeated). node:fs `write` is wrapped so a test can make the disk fail; everything else is the real file system.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type * as NodeFs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HeaderLine } from '../../../src/bulk/journal.js';

const disk = vi.hoisted(() => ({ fail: undefined as undefined | { afterBytes: number; code: string } }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof NodeFs>();
  const write = ((fd: number, buffer: Buffer, offset: number, length: number, position: null, cb: (err: NodeJS.ErrnoException | null, n?: number) => void) => {
    const f = disk.fail;
    if (!f) return fs.write(fd, buffer, offset, length, position, cb);
    if (f.afterBytes > 0) {
      // Half a batch reaches the file, then the disk fails.
      const n = Math.min(length, f.afterBytes);
      f.afterBytes = 0;
      return fs.write(fd, buffer, offset, n, position, cb);
    }
    const err = Object.assign(new Error(`${f.code}: the disk failed, write`), { code: f.code });
    setImmediate(() => cb(err));
  }) as unknown as typeof fs.write;
  return { ...fs, default: { ...fs, write }, write };
});

const { JournalWriteError, JournalWriter } = await import('../../../src/bulk/journal.js');
const { readJournal } = await import('../../../src/bulk/journal-read.js');
const { executeChunks } = await import('../../../src/bulk/execute.js');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sitectl-journal-fail-'));
  disk.fail = undefined;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const header: HeaderLine = { kind: 'header', entity: 'services', runId: 'r1', action: 'update', createdAt: '2026-11-23T07:00:00.000Z', args: { mask: 'name' } };
const result = (id: string) => ({ kind: 'result' as const, id, outcome: 'updated' as const, revision: '2' });

describe('a journal the disk refuses', () => {
  it('rejects the append that failed and every later one; the file keeps only complete lines', async () => {
    const path = join(dir, 'j.ndjson');
    const w = JournalWriter.create(path, header);
    await w.appendDurable([result('a')]);
    disk.fail = { afterBytes: 10, code: 'EIO' };
    await expect(w.appendDurable([result('b'), result('c')])).rejects.toThrow(JournalWriteError);
    disk.fail = undefined; // the disk is back: nothing more is written all the same
    await expect(w.appendDurable([result('d')])).rejects.toThrow(/cannot write journal .*j\.ndjson: EIO/);
    expect(() => w.append([{ kind: 'end', at: 'now' }])).toThrow(/EIO/);
    w.close();
    expect(readFileSync(path, 'utf8').endsWith('\n')).toBe(true);
    expect([...readJournal(path).results.keys()]).toEqual(['a']);
  });

  it('never resolves an append after close: a result is recorded or the caller hears it was not', async () => {
    const path = join(dir, 'j.ndjson');
    const w = JournalWriter.create(path, header);
    w.close();
    await expect(w.appendDurable([result('a')])).rejects.toThrow(/closed before/);
  });

  it('stops every worker at the first failure, and names the resume command', async () => {
    const path = join(dir, 'j.ndjson');
    const w = JournalWriter.create(path, header);
    const items = Array.from({ length: 40 }, (_, i) => ({ id: `s${i}`, revision: '1' }));
    let sent = 0;
    const run = executeChunks({
      items,
      chunkSize: 2,
      concurrency: 3,
      journal: w,
      resumeCommand: 'sitectl services update --resume j.ndjson',
      runner: {
        done: 'updated',
        async send(chunk) {
          sent += 1;
          if (sent === 3) disk.fail = { afterBytes: 0, code: 'ENOSPC' };
          await new Promise((r) => setTimeout(r, 5));
          return chunk.map((it) => ({ id: it.id, status: 'done' as const, revision: '2' }));
        },
      },
    });
    const err = await run.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(JournalWriteError);
    expect((err as Error).message).toMatch(/cannot write journal .*: ENOSPC/);
    expect((err as { hint?: string }).hint).toMatch(/free space, then sitectl services update --resume j\.ndjson/);
    expect((err as { exitCode?: number }).exitCode).toBe(1);
    // The three workers stop: at most one more chunk each after the failure, not the other 17.
    expect(sent).toBeLessThanOrEqual(6);
    w.close();
    const journaled = [...readJournal(path).results.keys()];
    expect(journaled.length).toBeLessThan(items.length);
    expect(journaled.every((id) => items.some((it) => it.id === id))).toBe(true);
  });
});
