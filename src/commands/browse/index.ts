/**
 * `sitectl browse NOUN [list flags]` (docs/architecture.md "Interactive views"): the interactive table of a noun, the same as
 * `sitectl NOUN list --interactive [list flags]`. The noun's own list command parses the flags (`--status`,
 * `--where`, `--sort`, ...), so both spellings take exactly the same ones.
 */
import { Argument, Command } from 'commander';
import { completesWith } from '../../core/flag-values.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { browsableNouns, type Invocation, type LoadableNoun, nounNamed } from '../noun-list.js';

/** The nouns `browse` takes: every noun with a list (commands/nouns.ts). */
export const BROWSABLE_NOUNS = browsableNouns().map((n) => n.name);

function quiet(cmd: Command, ctx: Context): void {
  cmd.exitOverride();
  cmd.configureOutput({ writeOut: (s) => ctx.io.stdout.write(s), writeErr: (s) => ctx.io.stderr.write(s) });
  for (const sub of cmd.commands) quiet(sub, ctx);
}

/**
 * Runs `NOUN list --interactive ARGS`.
 * @throws UserError (exit 2) for a noun that cannot be browsed; whatever the list throws
 */
export async function run(noun: string, args: readonly string[], ctx: Context, nouns: readonly LoadableNoun[]): Promise<void> {
  const header = nounNamed(nouns, noun);
  if (!header?.browse) throw new UserError(`cannot browse '${noun}'`, `browse one of ${BROWSABLE_NOUNS.join(', ')}`);
  const root = new Command('sitectl');
  await (await header.load()).register(root.command(header.name), ctx, { verb: 'list' });
  quiet(root, ctx);
  await root.parseAsync([header.name, 'list', '--interactive', ...args], { from: 'user' });
}

export function register(cmd: Command, ctx: Context, inv: Invocation): void {
  const nouns = inv.nouns ?? [];
  cmd
    .addArgument(completesWith(new Argument('<noun>', `${BROWSABLE_NOUNS.join(', ')} (or an alias: member, plan...)`), { kind: 'words', words: BROWSABLE_NOUNS }))
    .argument('[flags...]', "the noun's list flags (--status, --where, --sort, ...)")
    .allowUnknownOption()
    .addHelpText(
      'after',
      `\nThe same as 'sitectl NOUN list --interactive'. Keys: ↑↓ move, / filter (text, or field=value on the server), s sort,\nspace mark, enter details, c/d/x bookings, a/b members, p/u/m orders, ? help, q quit.\n\nExamples:\n  sitectl browse bookings --status PENDING\n  sitectl browse members --where status=PENDING\n  sitectl browse services --sort name`,
    )
    .action(async (noun: string, flags: string[]) => {
      await run(noun, flags, ctx, nouns);
    });
}
