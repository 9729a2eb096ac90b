/**
 * Journals that survive damage (docs/architecture.md "Bulk runs, the journal, history and undo"): a file of the
 * journals folder that is malformed, cut short, oversized, dated in the future or another program's is left out
 * of `history` and `undo` with one warning line naming it and what is wrong in it (`history --json` marks it), and
 * everything else keeps working; given to `--resume` or `undo --resume`, a damaged journal is refused (exit 2)
 * naming the file and the field, before anything is sent (every line is checked there; the history's sums pass
 * over a plan's lines). No command ends in "unexpected".
 */
import { closeSync, ftruncateSync, mkdirSync, openSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, runInProcess, startTestEmulator, type CliSandbox, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';
import { lastEventSeq } from '../bulk/support.js';

let emu: TestEmulator;
let sandbox: CliSandbox;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 8, bookings: 20, members: 10 });
  sandbox = createCliSandbox();
});
afterAll(async () => {
  await emu?.close();
  sandbox?.cleanup();
});

const cli = (args: string[], opts: InProcessOptions = {}) => runInProcess(args, { emulator: emu, sandbox, ...opts });
const journals = () => join(sandbox.stateDir, 'journals');
const HEADER = { kind: 'header', runId: '20261125T101500Z-abc123', entity: 'services', action: 'update', createdAt: '2026-11-25T10:15:00.000Z', args: { ids: ['x'] } };
const line = (o: unknown) => `${JSON.stringify(o)}\n`;

/** A damaged file, how it is written, and what the warning must say of it (the line and the field). */
const DAMAGED: Array<{ name: string; write(path: string): void; problem: RegExp }> = [
  { name: 'a header and nothing else', write: (p) => writeFileSync(p, line({ kind: 'header' })), problem: /line 1: header\.runId: expected string/ },
  { name: 'a header without args', write: (p) => writeFileSync(p, line({ ...HEADER, args: undefined })), problem: /line 1: header\.args: expected object/ },
  { name: 'a header without runId', write: (p) => writeFileSync(p, line({ ...HEADER, runId: undefined })), problem: /header\.runId: expected string/ },
  { name: 'a numeric runId', write: (p) => writeFileSync(p, line({ ...HEADER, runId: 42 })), problem: /header\.runId: expected string, received number/ },
  { name: 'args null', write: (p) => writeFileSync(p, line({ ...HEADER, args: null })), problem: /header\.args: expected object, received null/ },
  { name: 'a header cut short', write: (p) => writeFileSync(p, '{"kind":"header","runId":"2026'), problem: /it has no complete header line \(empty, or cut short\)/ },
  { name: 'an empty file', write: (p) => writeFileSync(p, ''), problem: /it has no complete header line \(empty, or cut short\)/ },
  { name: 'a date in 2099', write: (p) => writeFileSync(p, line({ ...HEADER, runId: '20991231T000000Z-fff000', createdAt: '2099-12-31T00:00:00.000Z' })), problem: /header\.createdAt 2099-12-31T00:00:00\.000Z is in the future/ },
  { name: "another program's NDJSON", write: (p) => writeFileSync(p, line({ hello: 'world' })), problem: /line 1 is not a journal header/ },
  { name: 'binary bytes', write: (p) => writeFileSync(p, Buffer.from([0, 1, 2, 255, 254, 10, 0, 0])), problem: /line 1 is not JSON/ },
  { name: 'a bad line in the middle', write: (p) => writeFileSync(p, `${line(HEADER)}{oops\n${line({ kind: 'end', at: 'x' })}`), problem: /line 2 is not JSON/ },
  { name: 'a line of an unknown kind', write: (p) => writeFileSync(p, `${line(HEADER)}${line({ kind: 'mystery' })}`), problem: /line 2: unknown kind "mystery"/ },
  {
    name: 'a 1 GB sparse file without a newline',
    write: (p) => {
      const fd = openSync(p, 'w');
      ftruncateSync(fd, 1024 ** 3);
      closeSync(fd);
    },
    problem: /line 1 is longer than 16 MiB/,
  },
];

describe('a damaged file in the journals folder', () => {
  it.each(DAMAGED)('$name: history and undo go on, with one warning naming the file and the field; history --json marks it', async ({ name, write, problem }) => {
    // A real change first, so history has something to show and undo something to do.
    const [service] = JSON.parse((await cli(['services', 'list', '--limit', '1', '--json', 'id,description'])).stdout);
    const made = await cli(['services', 'update', service.id, '--set', `description=${name}`]);
    expect(made.code, made.stderr).toBe(0);
    mkdirSync(journals(), { recursive: true });
    const bad = join(journals(), `zz-damaged-${DAMAGED.findIndex((d) => d.name === name)}.ndjson`);
    write(bad);
    const written = statSync(bad).mtimeMs;
    const warning = new RegExp(`^warning: left out of the history: ${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: (?:line \\d+: )?${problem.source}`, 'm');
    try {
      const listed = await cli(['history', '--json', 'short,action,damaged,journal']);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stderr).toMatch(warning);
      expect(listed.stderr.trim().split('\n')).toHaveLength(1);
      const rows = JSON.parse(listed.stdout) as Array<{ action?: string; damaged?: string; journal?: string }>;
      expect(rows[0]).toMatchObject({ action: 'update' });
      expect(rows.find((r) => r.journal === bad)?.damaged).toMatch(problem);

      const undone = await cli(['undo', '--last', '--yes']);
      expect(undone.code, undone.stderr).toBe(0);
      expect(undone.stderr).toMatch(warning);
      expect(JSON.parse((await cli(['services', 'get', service.id, '--json', 'description'])).stdout).description).toBe(service.description);
      for (const out of [listed, undone]) expect(out.stderr).not.toMatch(/unexpected|bug in sitectl/);
      // Left alone: a file that is not a journal of sitectl's is not deleted or rewritten.
      expect(readdirSync(journals())).toContain(bad.split('/').pop());
        expect(statSync(bad).mtimeMs).toBe(written);
    } finally {
      rmSync(bad);
    }
  });
});

describe('a damaged journal given to --resume or undo --resume', () => {
  const file = () => join(sandbox.root, 'given.ndjson');
  it.each([
    { name: 'services update --resume, args null', argv: () => ['services', 'update', '--resume', file(), '--yes'], text: line({ ...HEADER, args: null }), problem: /line 1: header\.args: expected object, received null/ },
    {
      name: 'bookings create --resume, a planned line with no body',
      argv: () => ['bookings', 'create', '--resume', file(), '--yes'],
      text: `${line({ ...HEADER, entity: 'bookings', action: 'create', args: {} })}${line({ kind: 'planned', id: 'line-1' })}${line({ kind: 'planned-all', count: 1 })}`,
      problem: /planned item line-1: not a JSON object/,
    },
    {
      name: 'bookings create --resume, a body of 42',
      argv: () => ['bookings', 'create', '--resume', file(), '--yes'],
      text: `${line({ ...HEADER, entity: 'bookings', action: 'create', args: {} })}${line({ kind: 'planned', id: 'line-1', after: 42 })}${line({ kind: 'planned-all', count: 1 })}`,
      problem: /planned item line-1: not a JSON object/,
    },
    {
      name: 'bookings create --resume, a body without its booking',
      argv: () => ['bookings', 'create', '--resume', file(), '--yes'],
      text: `${line({ ...HEADER, entity: 'bookings', action: 'create', args: {} })}${line({ kind: 'planned', id: 'line-1', after: { booking: 7 } })}${line({ kind: 'planned-all', count: 1 })}`,
      problem: /planned item line-1: booking: expected object/,
    },
    {
      name: 'services update --resume, a planned id that is a path',
      argv: () => ['services', 'update', '--resume', file(), '--yes'],
      text: `${line(HEADER)}${line({ kind: 'planned', id: '../../etc' })}${line({ kind: 'planned-all', count: 1 })}`,
      problem: /line 2: planned\.id: not an id/,
    },
    { name: 'undo --resume, a header without runId', argv: () => ['undo', '--resume', file(), '--yes'], text: line({ ...HEADER, runId: undefined, undoOf: 'x' }), problem: /line 1: header\.runId: expected string/ },
    { name: 'members approve --resume, a result without its outcome', argv: () => ['members', 'approve', '--resume', file(), '--yes'], text: `${line({ ...HEADER, entity: 'members', action: 'approve' })}${line({ kind: 'result', id: 'm1' })}`, problem: /line 2: result\.outcome: expected string/ },
  ])('$name: exit 2 naming the file and the field, nothing sent', async ({ argv, text, problem }) => {
    writeFileSync(file(), text);
    const seq = await lastEventSeq(emu);
    const r = await cli(argv());
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^error: journal ${file().replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} cannot be used: ${problem.source}`, 'm'));
    expect(r.stderr).not.toMatch(/unexpected|bug in sitectl/);
    expect(await lastEventSeq(emu)).toBe(seq);
  });
});

describe("a journal whose options do not fit its verb", () => {
  it('undo of a staff hours change whose before-image is not a week: exit 2 naming the field, nothing sent', async () => {
    const [staff] = JSON.parse((await cli(['staff', 'list', '--limit', '1', '--json', 'id'])).stdout) as Array<{ id: string }>;
    mkdirSync(journals(), { recursive: true });
    const runId = '20261125T101600Z-def456';
    const path = join(journals(), `${runId}.ndjson`);
    writeFileSync(
      path,
      [
        line({ ...HEADER, runId, entity: 'staff members', action: 'hours', args: { ids: [staff!.id], options: { week: { MONDAY: [{ from: '09:00', to: '17:00' }] } } } }),
        line({ kind: 'planned', id: staff!.id, before: { shared: false, week: { MONDAY: 'nine to five' } } }),
        line({ kind: 'planned-all', count: 1 }),
        line({ kind: 'result', id: staff!.id, outcome: 'set' }),
        line({ kind: 'end', at: '2026-11-25T10:16:01.000Z', status: 'done' }),
      ].join(''),
    );
    try {
      const seq = await lastEventSeq(emu);
      const r = await cli(['undo', runId, '--yes']);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/^error: the journal's options cannot be used: options\.week\.MONDAY: expected array, received string$/m);
      expect(r.stderr).not.toMatch(/unexpected|bug in sitectl/);
      expect(await lastEventSeq(emu)).toBe(seq);
    } finally {
      rmSync(path);
    }
  });
});
