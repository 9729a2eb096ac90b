/**
 * The one confirmation rule (docs/architecture.md "The confirmation rule"; docs/architecture.md "Output and interaction"), the same for every verb of
 * every noun and for the interactive keys: a change to more than one item (a filter, several ids, a file) shows
 * its preview and asks on a terminal; a single-item change asks the same way when its verb is destructive and
 * acts at once otherwise. Off a terminal a question cannot be asked, so the change needs `--yes` (exit 2 naming
 * it, before anything is read or changed). A question answered `n` (or Esc) ends the command with
 * "canceled: nothing was changed" (exit 1).
 *
 * A verb declares its rule once ({@link VerbRule}); the verb factories (transition.ts, delete.ts, plans'
 * action.ts, msb's group verbs, ...) pass it here, {@link declareRule} puts it in the verb's `--help`, and the
 * dashboard's keys read the same declaration (ui-actions.ts).
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { DeclinedError, UserError } from '../../core/errors.js';

/** How a verb is confirmed, as its declaration says. */
export interface VerbRule {
  /** A change that cannot be taken back (cancel, decline, delete, block...): asks even for one item. */
  destructive: boolean;
}

/** How many items a run changes: `one` (an id) or `many` (a filter, several ids, a file, a resumed run). */
export type Scope = 'one' | 'many';

/** The flags the rule reads. */
export interface ConfirmFlags {
  yes?: boolean;
  dryRun?: boolean;
}

/** True when a change of `scope` items by a verb of `rule` asks before acting. */
export function asksFirst(rule: VerbRule, scope: Scope): boolean {
  return scope === 'many' || rule.destructive;
}

/** The line each verb's `--help` carries about its confirmation. */
export function ruleHelp(rule: VerbRule): string {
  return rule.destructive
    ? 'Confirmation: asks before acting, on one item or many (--yes to skip; required without a terminal).'
    : 'Confirmation: one item changes at once; a change to many asks first (--yes to skip; required without a terminal).';
}

const RULES = new WeakMap<Command, VerbRule>();

/**
 * Declares a verb's rule on its command: kept for {@link ruleOf} (the tests walk every command with it) and
 * said in its `--help`. Declares `-y, --yes` unless the command has it already.
 * @returns `cmd`
 */
export function declareRule(cmd: Command, rule: VerbRule): Command {
  RULES.set(cmd, rule);
  if (!cmd.options.some((o) => o.long === '--yes')) cmd.option('-y, --yes', 'do not ask for confirmation (required without a terminal)');
  return cmd.addHelpText('after', `\n${ruleHelp(rule)}`);
}

/** The rule {@link declareRule} put on a command, if any. */
export function ruleOf(cmd: Command): VerbRule | undefined {
  return RULES.get(cmd);
}

/**
 * Refuses, before anything is read or sent, a change that will have to ask when no question can be asked:
 * without `--yes`, off a terminal. A dry run asks nothing.
 * @param what the change, for the message (`cancelling booking 7c1e...`)
 * @throws UserError (exit 2) naming `--yes`
 */
export function requireConfirmable(ctx: Context, flags: ConfirmFlags, rule: VerbRule, scope: Scope, what: string): void {
  if (!asksFirst(rule, scope) || flags.yes || flags.dryRun || ctx.io.canPrompt()) return;
  throw new UserError(`${what} needs confirmation, and there is no terminal to ask on`, 'pass --yes to go ahead without a prompt');
}

/**
 * Asks `question` when the rule says so and `--yes` was not given; returns at once otherwise.
 * @throws UserError (exit 2) without a terminal (as {@link requireConfirmable}); DeclinedError (exit 1,
 *   "canceled: nothing was changed") when answered no or left with Esc; CancelError on Ctrl-C
 */
export async function confirmChange(ctx: Context, flags: ConfirmFlags, rule: VerbRule, scope: Scope, question: string, what: string): Promise<void> {
  if (!asksFirst(rule, scope) || flags.yes) return;
  requireConfirmable(ctx, flags, rule, scope, what);
  if (!(await ctx.prompter.confirm(question, { what }))) throw new DeclinedError();
}

/** The rule of every `delete`, `services apply --prune` and the other changes that remove what cannot be re-made. */
export const DESTRUCTIVE: VerbRule = { destructive: true };
/** The rule of create, update and the state changes that can be taken back (confirm, approve, resume...). */
export const REVERSIBLE: VerbRule = { destructive: false };
