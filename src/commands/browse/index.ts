/**
 * `sitectl browse NOUN [list flags]` (docs/architecture.md "Interactive views"): the interactive table of a noun, the same as
 * `sitectl NOUN list --interactive [list flags]`. The noun's own list command parses the flags (`--status`,
 * `--where`, `--sort`, ...), so both spellings take exactly the same ones.
 */
import { Argument, type Command } from 'commander';
import { completesWith } from '../../core/flag-values.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { browsableNouns, type Invocation, type LoadableNoun, nounNamed } from '../noun-list.js';

/** The nouns `browse` takes: every noun with a list (commands/nouns.ts). */
export const BROWSABLE_NOUNS = browsableNouns().map((n) => n.name);

/**
 * Runs `NOUN list --interactive ARGS`.
 * @throws UserError (exit 2) for a noun that cannot be browsed; whatever the list throws
 */
export async function run(noun: string, args: readonly string[], ctx: Context, nouns: readonly LoadableNoun[]): Promise<void> {
  const header = nounNamed(nouns, noun);
  if (!header?.browse) throw new UserError(`cannot browse '${noun}'`, `browse one of ${BROWSABLE_NOUNS.join(', ')}`);
  const { listInteractive } = await import('../shared/jump.js');
  await listInteractive(header, args, ctx, nouns);
}

export function register(cmd: Command, ctx: Context, inv: Invocation): void {
  const nouns = inv.nouns ?? [];
  cmd
    .addArgument(completesWith(new Argument('<noun>', `${BROWSABLE_NOUNS.join(', ')} (or an alias: member, plan...)`), { kind: 'words', words: BROWSABLE_NOUNS }))
    .argument('[flags...]', "the noun's list flags (--status, --where, --sort, ...)")
    .allowUnknownOption()
    .addHelpText(
      'after',
      `\nThe same as 'sitectl NOUN list --interactive'. Keys: ↑↓ move, / filter (text, or field=value on the server),\n: another noun's list (:members, tab completes), s/S sort by the next column/reverse, shift+letter sort by a column\n(its letter underlined in the header; again reverses), space mark, enter details, c/d/x/a bookings, a/b members,\np/u/m orders, ? every key, q quit.\n\nExamples:\n  sitectl browse bookings --status PENDING\n  sitectl browse members --where status=PENDING\n  sitectl browse services --sort name`,
    )
    .action(async (noun: string, flags: string[]) => {
      await run(noun, flags, ctx, nouns);
    });
}
