/**
 * The command manifest (src/commands/manifest.ts): each noun's list of verb names matches what its verb modules
 * register, in help's order, so running `sitectl NOUN VERB` loads exactly the module that defines VERB, and
 * only that one.
 */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { Context } from '../../../src/context.js';
import { nounNamed } from '../../../src/commands/noun-list.js';
import { NOUNS } from '../../../src/commands/nouns.js';
import { commandPath } from '../../../src/program.js';

const ctx = {} as Context;

/** The noun's command as the program makes it from its header, with what its module registers for `inv`. */
async function nounCommand(noun: string, inv: { verb?: string; all?: boolean }): Promise<Command> {
  const header = nounNamed(NOUNS, noun)!;
  const cmd = new Command('sitectl').command(header.name);
  await (await header.load()).register(cmd, ctx, inv);
  return cmd;
}

/** The nouns with verbs (a manifest): every noun of the list whose module registers commands under it. */
const WITH_VERBS: string[] = [];
for (const n of NOUNS) if ((await nounCommand(n.name, { all: true })).commands.length > 0) WITH_VERBS.push(n.name);

const namesOf = (cmd: Command) => cmd.commands.map((c) => [c.name(), ...c.aliases()]);

describe('the command manifest', () => {
  it.each(WITH_VERBS)('%s: every verb name and alias selects the module that registers it, and that module alone', async (noun) => {
    const all = await nounCommand(noun, { all: true });
    expect(all.commands.length).toBeGreaterThan(0);
    for (const names of namesOf(all)) {
      for (const word of names) {
        const one = await nounCommand(noun, { verb: word });
        const loaded = namesOf(one);
        // The invoked verb is there, and nothing but the verbs of its own module.
        expect(loaded.some((n) => n.includes(word)), `${noun} ${word}`).toBe(true);
        // Only that verb's module (a noun of one verb has nothing else to leave out).
        if (all.commands.length > 1) expect(loaded.length, `${noun} ${word} loaded ${JSON.stringify(loaded)}`).toBeLessThan(all.commands.length);
        for (const n of loaded) expect(namesOf(all)).toContainEqual(n);
      }
    }
  });

  it('loads every verb, in help order, for the noun alone, an unknown verb and completion', async () => {
    const all = namesOf(await nounCommand('services', { all: true }));
    expect(namesOf(await nounCommand('services', {}))).toEqual(all);
    expect(namesOf(await nounCommand('services', { verb: 'lsit' }))).toEqual(all);
    expect(all.slice(0, 2)).toEqual([['list', 'ls'], ['get', 'view']]);
  });

  it('finds the noun and verb past global options and in the help form', () => {
    expect(commandPath(['--profile', 'x', 'services', 'list', '--json'])).toEqual(['services', 'list']);
    expect(commandPath(['--site', 'Uptown', '--debug', 'bookings', '--timeout', '5', 'get', 'abcd'])).toEqual(['bookings', 'get']);
    expect(commandPath(['help', 'orders', 'pause'])).toEqual(['orders', 'pause']);
    expect(commandPath(['services', '--help'])).toEqual(['services', undefined]);
  });
});
