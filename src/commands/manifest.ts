/**
 * The command manifest: a noun lists its verbs by name with a loader each, and only the verb being run is
 * imported (as Shopify's CLI moved from an eager command barrel to a manifest). `sitectl services list` loads
 * the list verb and what it imports, not the catalogue file code, the bulk engine or the plans API that other
 * services verbs use. Help for the noun (`services --help`, `help services`, `services` alone), an unknown verb
 * (so Commander can suggest the closest) and the completion scripts load every verb, in the manifest's order.
 *
 * `names` are every word that selects the verb: its name and its aliases (tests/unit/commands/manifest.test.ts
 * checks them against what each module registers, so the manifest cannot drift from the code).
 */
import type { Command } from 'commander';
import type { Context } from '../context.js';
import type { ReadSpec } from './shared/verbs.js';
import type { Invocation } from './noun-list.js';

export type { Invocation } from './noun-list.js';

/**
 * What a verb module exports: adds its command(s) under the noun's command. `inv` is the noun's invocation (a
 * list reads the nouns in it, for `:NOUN` in its interactive table).
 */
export interface VerbModule {
  register(parent: Command, ctx: Context, inv?: Invocation): void;
}

/** One entry of a noun's manifest. */
export interface VerbEntry {
  /** The verb's name and aliases, as typed after the noun (a module that adds several verbs lists each). */
  names: readonly string[];
  load: () => Promise<VerbModule>;
}


/**
 * Registers a noun's verbs under `parent`: only the invoked one when the manifest knows it, else all of them.
 * @param verbs the noun's manifest, in the order help lists the verbs
 */
export async function registerVerbs(parent: Command, ctx: Context, verbs: readonly VerbEntry[], inv: Invocation): Promise<void> {
  const wanted = inv.all || inv.verb === undefined ? undefined : verbs.find((v) => v.names.includes(inv.verb!));
  if (wanted) {
    (await wanted.load()).register(parent, ctx, inv);
    return;
  }
  const modules = await Promise.all(verbs.map((v) => v.load()));
  for (const m of modules) m.register(parent, ctx, inv);
}

/**
 * Ends a noun's help with examples, as its verbs' help does (docs/architecture.md "Output and interaction"). Each runs as printed against the
 * local emulator's demo data (tests/integration/cli/help.test.ts runs every one).
 */
export function nounExamples(noun: Command, examples: readonly string[]): Command {
  return noun.addHelpText('after', `\nExamples:\n${examples.map((e) => `  ${e}`).join('\n')}`);
}

/**
 * A verb its noun's shared module makes (a state change of the noun's transition table), declared in the manifest
 * instead of a file of its own: `{ names: ['approve'], load: madeBy(() => import('./shared/transitions.js'), (m) =>
 * m.memberTransition('approve')) }`. Only the shared module is loaded, when the verb is run.
 */
export function madeBy<M>(load: () => Promise<M>, make: (module: M) => VerbModule): () => Promise<VerbModule> {
  return async () => make(await load());
}

/**
 * A standard read verb over the noun's reads (commands/shared/verbs.ts): `count` (how many match the list's
 * flags, the query's exact total) or `export` (every match, streamed as NDJSON, CSV or JSON in constant memory).
 * @param reads loads the noun's ReadSpec (its view, query flags and export columns)
 */
export function readsVerb<E>(verb: 'count' | 'export', reads: () => Promise<ReadSpec<E>>): () => Promise<VerbModule> {
  return async () => {
    const [verbs, spec] = await Promise.all([import('./shared/verbs.js'), reads()]);
    return verb === 'count' ? verbs.countVerb(spec) : verbs.exportVerb(spec);
  };
}
