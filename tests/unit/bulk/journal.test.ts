import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultJournalDir, JournalWriter, newRunId, type HeaderLine } from '../../../src/bulk/journal.js';
import { readJournal } from '../../../src/bulk/journal-read.js';
import { UserError } from '../../../src/core/errors.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sitectl-journal-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const header: HeaderLine = {
  kind: 'header',
  entity: 'services',
  runId: 'r1',
  action: 'update',
  createdAt: '2026-11-22T07:00:00.000Z',
  args: { filter: { type: 'CLASS' }, set: [{ path: 'name', value: 'x' }], mask: 'name' },
};

describe('journal', () => {
  it('round-trips header, planned, results and end', () => {
    const path = join(dir, 'j.ndjson');
    const w = JournalWriter.create(path, header);
    w.append([
      { kind: 'planned', id: 'a', revision: '1' },
      { kind: 'planned', id: 'b', revision: '4' },
      { kind: 'planned-all', count: 2 },
    ]);
    w.append([{ kind: 'result', id: 'a', outcome: 'updated', revision: '2' }]);
    w.append([{ kind: 'end', at: 'now', status: 'done' }]);
    w.close();
    const state = readJournal(path);
    expect(state.header).toEqual(header);
    expect(state.planned.map((p) => [p.id, p.revision])).toEqual([
      ['a', '1'],
      ['b', '4'],
    ]);
    expect(state.results.get('a')?.outcome).toBe('updated');
    expect(state.results.has('b')).toBe(false);
    expect(state.planComplete).toBe(true);
    expect(state.ended).toBe(true);
  });

  it('ignores a truncated last line and cuts it off when reopened', () => {
    const path = join(dir, 'j.ndjson');
    const w = JournalWriter.create(path, header);
    w.append([{ kind: 'planned', id: 'a', revision: '1' }, { kind: 'planned-all', count: 1 }]);
    w.close();
    appendFileSync(path, '{"kind":"result","id":"a","outc');
    const state = readJournal(path);
    expect(state.results.size).toBe(0);
    expect(state.planned).toHaveLength(1);

    const again = JournalWriter.reopen(path);
    again.append([{ kind: 'result', id: 'a', outcome: 'updated', revision: '2' }]);
    again.close();
    const after = readJournal(path);
    expect(after.results.get('a')?.revision).toBe('2');
    expect(readFileSync(path, 'utf8').split('\n').filter(Boolean)).toHaveLength(4);
  });

  it('rejects a corrupt line that is not the last, a missing header and a missing file', () => {
    const path = join(dir, 'bad.ndjson');
    writeFileSync(path, `${JSON.stringify(header)}\n{oops\n{"kind":"end","at":"x"}\n`);
    expect(() => readJournal(path)).toThrow(/line 2 is not JSON/);
    writeFileSync(path, '{"kind":"planned","id":"a"}\n');
    expect(() => readJournal(path)).toThrow(UserError);
    expect(() => readJournal(path)).toThrow(/line 1 is not a journal header/);
    expect(() => readJournal(join(dir, 'nope.ndjson'))).toThrow(/cannot read journal/);
  });

  it('never overwrites an existing journal', () => {
    const path = join(dir, 'j.ndjson');
    JournalWriter.create(path, header).close();
    expect(() => JournalWriter.create(path, header)).toThrow(/already exists/);
  });

  it('keeps the last result of an id (a resumed run may retry a failed item)', () => {
    const path = join(dir, 'j.ndjson');
    const w = JournalWriter.create(path, header);
    w.append([
      { kind: 'planned', id: 'a', revision: '1' },
      { kind: 'result', id: 'a', outcome: 'failed', error: 'boom' },
      { kind: 'result', id: 'a', outcome: 'updated', revision: '2' },
    ]);
    w.close();
    expect(readJournal(path).results.get('a')?.outcome).toBe('updated');
  });

  it('appends durable lines of concurrent chunks in their order, each on disk once its append resolves', async () => {
    const path = join(dir, 'j.ndjson');
    const w = JournalWriter.create(path, header);
    w.append([{ kind: 'planned', id: 'a', revision: '1' }, { kind: 'planned', id: 'b', revision: '1' }, { kind: 'planned', id: 'c', revision: '1' }, { kind: 'planned-all', count: 3 }]);
    // Three chunks finishing at once: the later two are queued while the first write + fsync runs.
    const first = w.appendDurable([{ kind: 'result', id: 'a', outcome: 'updated', revision: '2' }]);
    const second = w.appendDurable([{ kind: 'result', id: 'b', outcome: 'updated', revision: '2' }]);
    const third = w.appendDurable([{ kind: 'result', id: 'c', outcome: 'failed', error: 'boom' }]);
    await first;
    expect(readJournal(path).results.get('a')?.revision).toBe('2');
    await Promise.all([second, third]);
    expect([...readJournal(path).results.keys()]).toEqual(['a', 'b', 'c']);
    await w.appendDurable([]);
    w.append([{ kind: 'end', at: 'now', status: 'done' }]);
    w.close();
    // After close nothing is written, and the caller is told so (a result never counts as recorded when it is not).
    await expect(w.appendDurable([{ kind: 'result', id: 'a', outcome: 'updated' }])).rejects.toThrow(/closed before/);
    const state = readJournal(path);
    expect(state.ended).toBe(true);
    expect(readFileSync(path, 'utf8').split('\n').filter(Boolean)).toHaveLength(9);
  });

  it('refuses a plain append while durable lines are in flight; closed meanwhile, it writes the queued lines but does not call them on disk', async () => {
    const path = join(dir, 'j.ndjson');
    const w = JournalWriter.create(path, header);
    const pending = w.appendDurable([{ kind: 'result', id: 'a', outcome: 'updated', revision: '2' }]);
    const queued = w.appendDurable([{ kind: 'result', id: 'b', outcome: 'updated', revision: '2' }]);
    expect(() => w.append([{ kind: 'end', at: 'now' }])).toThrow(/in flight/);
    w.close();
    await pending;
    await expect(queued).rejects.toThrow(/closed before these results were on disk/);
    // The descriptor is closed once the write in flight is done and the queued line written.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect([...readJournal(path).results.keys()]).toEqual(['a', 'b']);
  });

  it('puts journals in the state dir and names runs by time', () => {
    expect(defaultJournalDir({ SITECTL_STATE_DIR: '/s' })).toBe('/s/journals');
    expect(defaultJournalDir({ XDG_STATE_HOME: '/x' })).toBe('/x/sitectl/journals');
    expect(defaultJournalDir({ HOME: '/h' })).toBe('/h/.local/state/sitectl/journals');
    expect(newRunId(new Date('2026-11-22T07:15:00.123Z'))).toMatch(/^20261122T071500Z-[0-9a-f]{6}$/);
  });
});
