/**
 * `:NOUN` in the interactive views (k9s's `:pods`): the jump the command hands the browser (ui/browser-spec.ts
 * ViewJump). Its words are the browsable nouns' names and aliases from the list of nouns; a word opens the noun's
 * list exactly as `sitectl browse NOUN` does (its `list --interactive` with no flags, parsed by the noun's own
 * list command), the view handed back to the browser to draw in place of the current one instead of drawn anew.
 */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import type { ViewJump } from '../../ui/index.js';
import { type LoadableNoun, nounNamed } from '../noun-list.js';
import { viewOf } from './browse.js';

/** Commander's output and exits routed through the context (an error throws instead of exiting). */
function quiet(cmd: Command, ctx: Context): void {
  cmd.exitOverride();
  cmd.configureOutput({ writeOut: (s) => ctx.io.stdout.write(s), writeErr: (s) => ctx.io.stderr.write(s) });
  for (const sub of cmd.commands) quiet(sub, ctx);
}

/**
 * Runs `NOUN list --interactive ARGS` through the noun's own list command, so its flags are parsed as that
 * command parses them; `nouns` go with it, for the `:` of the table it opens.
 * @throws whatever the list throws (UserError for a bad flag)
 */
export async function listInteractive(noun: LoadableNoun, args: readonly string[], ctx: Context, nouns: readonly LoadableNoun[]): Promise<void> {
  const root = new Command('sitectl');
  await (await noun.load()).register(root.command(noun.name), ctx, { verb: 'list', nouns });
  quiet(root, ctx);
  await root.parseAsync([noun.name, 'list', '--interactive', ...args], { from: 'user' });
}

/**
 * The jump of an interactive view: `:` takes every browsable noun by name or alias (in the list's order, for
 * completion) and opens its list as `sitectl browse NOUN` shows it.
 */
export function nounJump(ctx: Context, nouns: readonly LoadableNoun[]): ViewJump {
  const browsable = nouns.filter((n) => n.browse);
  return {
    words: browsable.flatMap((n) => [n.name, ...n.aliases]),
    async open(word) {
      const noun = nounNamed(browsable, word);
      if (!noun) throw new UserError(`cannot browse '${word}'`, `browse one of ${browsable.map((n) => n.name).join(', ')}`);
      return viewOf(() => listInteractive(noun, [], ctx, nouns));
    },
  };
}
