/**
 * The one list of nouns (src/commands/nouns.ts) against what is built from it: Commander's tree (every noun, its
 * aliases, its description), the words a person types (`plan list`, `member --help`, `help services list`),
 * `browse` of every noun with a list by name or alias, `history --noun`, and the completion scripts. Each check
 * reads what the program does, not what the list says it should.
 */
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOUNS } from '../../../src/commands/nouns.js';
import { createContext } from '../../../src/context.js';
import { createProgram } from '../../../src/program.js';
import { eventPanes } from '../../../src/commands/shared/work-lists.js';
import { cliEnv, createCliSandbox, runInProcess, startTestEmulator, type CliSandbox, type InProcessOptions, type TestEmulator } from '../../helpers/index.js';
import { expectError } from '../../helpers/expect-error.js';

let emu: TestEmulator;
let sandbox: CliSandbox;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 8, bookings: 10, members: 10 });
  sandbox = createCliSandbox();
});
afterAll(async () => {
  await emu?.close();
  sandbox?.cleanup();
});

const cli = (args: string[], opts: InProcessOptions = {}) => runInProcess(args, { emulator: emu, sandbox, ...opts });

describe('the noun list and the program built from it', () => {
  it('Commander has every noun once, with its aliases and description, and nothing the list does not name', async () => {
    const { ctx } = createContext({ env: { ...process.env } });
    const program = await createProgram(ctx, [], { allNouns: true });
    const built = new Map(program.commands.map((c: Command) => [c.name(), c]));
    for (const noun of NOUNS) {
      const cmd = built.get(noun.name);
      expect(cmd, noun.name).toBeDefined();
      expect(cmd!.aliases()).toEqual([...noun.aliases]);
      expect(cmd!.description()).toBe(noun.description);
    }
    // The program's own commands besides the nouns: completion and help.
    expect([...built.keys()].filter((n) => !NOUNS.some((x) => x.name === n)).sort()).toEqual(['completion']);
  });

  it.each(NOUNS.flatMap((n) => n.aliases.map((a) => [a, n.name] as const)))('%s names %s: its help, and its verbs', async (alias, name) => {
    const help = await cli([alias, '--help']);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(new RegExp(`^Usage: sitectl ${name}\\|${alias}\\b`, 'm'));
  });

  it('an alias runs a verb (`plan list`), and `help NOUN VERB` shows the verb\'s own help', async () => {
    const plans = await cli(['plan', 'list', '--json', 'id']);
    expect(plans.code, plans.stderr).toBe(0);
    expect(JSON.parse(plans.stdout).length).toBeGreaterThan(0);
    const help = await cli(['help', 'services', 'list']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: sitectl services list\|ls \[options\]/m);
    const alias = await cli(['help', 'booking', 'create']);
    expect(alias.stdout).toMatch(/^Usage: sitectl bookings create/m);
  });

  it.each(NOUNS.filter((n) => n.browse).flatMap((n) => [n.name, ...n.aliases].map((w) => [w, n.name] as const)))('browse %s opens %s list --interactive (off a terminal: the piped command named)', async (word, name) => {
    expectError(await cli(['browse', word]), 2, new RegExp(`^error: \\S.* list --interactive needs a terminal`));
    const r = await cli(['browse', word]);
    expect(r.stderr).toMatch(new RegExp(`^hint: use 'sitectl ${name} list' when the output is piped`, 'm'));
  });

  it('browse refuses a noun without a list, naming the ones it takes', async () => {
    expectError(await cli(['browse', 'checkout']), 2, /cannot browse 'checkout'/);
  });

  it('history --noun takes every entity a noun journals', async () => {
    for (const entity of new Set(NOUNS.flatMap((n) => n.entities ?? []))) expect((await cli(['history', '--noun', entity])).code, entity).toBe(0);
  });

  it('the completion scripts offer every noun and alias', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const script = (await cli(['completion', shell])).stdout;
      for (const word of NOUNS.flatMap((n) => [n.name, ...n.aliases])) expect(script, `${shell}: ${word}`).toMatch(new RegExp(`\\b${word}\\b`));
    }
  });

  it('undo reads each noun\'s declaration: every entity a noun journals has one, and a declaration names no other', async () => {
    for (const noun of NOUNS) {
      const declared = (await (await noun.load()).undo?.()) ?? {};
      expect(Object.keys(declared).sort(), noun.name).toEqual([...(noun.entities ?? [])].sort());
      for (const [entity, how] of Object.entries(declared)) {
        // Each entity is undone through its writes or its actions, or says why an action cannot be.
        expect(how.writes !== undefined || Object.keys(how.actions ?? {}).length > 0, `${noun.name}: ${entity}`).toBe(true);
        for (const [action, rule] of Object.entries(how.actions ?? {})) {
          expect('cannot' in rule ? rule.cannot.length > 0 : typeof rule.inverse === 'function', `${entity} ${action}`).toBe(true);
        }
      }
    }
  });

  it('the dashboard reads the work lists of the nouns that declare them: one per pane id, each reloaded by its own events', async () => {
    const { ctx } = createContext({ env: cliEnv(sandbox, emu), signal: new AbortController().signal });
    const setting = { ctx, api: await ctx.api(), zone: 'UTC', days: 7 };
    const lists = [];
    for (const noun of NOUNS) {
      const declared = await (await noun.load()).workLists?.();
      expect(declared !== undefined, `${noun.name}: its header says dashboard iff its module has work lists`).toBe(Boolean(noun.dashboard));
      if (declared) lists.push(...(await declared(setting)));
    }
    expect(lists.map((w) => w.pane.id)).toEqual(['today', 'awaiting', 'members', 'orders']);
    expect(eventPanes(lists, 'booking.confirmed')).toEqual(['today', 'awaiting']);
    expect(eventPanes(lists, 'multiServiceBooking.created')).toEqual(['today', 'awaiting']);
    expect(eventPanes(lists, 'member.approved')).toEqual(['members']);
    expect(eventPanes(lists, 'order.paused')).toEqual(['orders']);
    expect(eventPanes(lists, 'service.updated')).toEqual([]);
    // Each pane reads the emulator through its noun's query.
    for (const w of lists) {
      const page = await w.pane.open('').next();
      expect(page.done, w.pane.id).toBe(true);
      expect(page.total, w.pane.id).toBe(page.rows.length);
    }
  });

  it.each(NOUNS.filter((n) => n.browse).map((n) => n.name))('%s list keeps the short ID column at 80 columns (a key column)', async (name) => {
    const r = await cli([name, 'list', '--limit', '3'], { tty: true, columns: 80 });
    expect(r.code, r.stderr).toBe(0);
    const [header, ...rows] = r.stdout.trimEnd().split('\n');
    expect(rows.length, `${name}: the demo site has some`).toBeGreaterThan(0);
    expect(header, name).toMatch(/^ID\s/);
    for (const row of rows) {
      expect(row, name).toMatch(/^[0-9a-f]{8}\s/);
      expect([...row].length).toBeLessThanOrEqual(80);
    }
  });
});

