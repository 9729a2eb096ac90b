/**
 * The values a flag or an argument takes, for shell completion (src/commands/completion/scripts.ts): an
 * enumeration (`--status CONFIRMED,PENDING`: a comma-separated list of the schema's values), or names looked up
 * when TAB is pressed (profiles, sites). Commander's own `choices()` validates a single value exactly, which a
 * comma-separated list is not, so the values are kept beside the option here and each command checks its input
 * as before (choicesOf, listOf).
 */
import type { Argument, Option } from 'commander';

/** What completes a flag's or an argument's value. */
export type CompletionValues =
  | { kind: 'words'; words: readonly string[]; list?: boolean }
  /** Names the program prints when asked (`profile list`, `sites list`: the second column of their piped rows). */
  | { kind: 'lookup'; command: 'profiles' | 'sites' };

const VALUES = new WeakMap<Option | Argument, CompletionValues>();

/**
 * Says which words complete `target`'s value (`list`: a comma-separated list of them); returns `target`.
 * Commander's `choices()` of an option or argument count as words too ({@link completionValues}).
 */
export function completesWith<T extends Option | Argument>(target: T, values: CompletionValues): T {
  VALUES.set(target, values);
  return target;
}

/** The values `target` completes with: those given to {@link completesWith}, else its `choices()`, else none. */
export function completionValues(target: Option | Argument): CompletionValues | undefined {
  const given = VALUES.get(target);
  if (given) return given;
  return target.argChoices?.length ? { kind: 'words', words: target.argChoices } : undefined;
}

/**
 * Declares `flags` on `cmd` (as `cmd.option(flags, description)` would) completing with `words`, a
 * comma-separated list of them unless `list` is false.
 */
export function enumOption<C extends { createOption(flags: string, description?: string): Option; addOption(o: Option): C }>(
  cmd: C,
  flags: string,
  description: string,
  words: readonly string[],
  list = true,
): C {
  return cmd.addOption(completesWith(cmd.createOption(flags, description), { kind: 'words', words, list }));
}
