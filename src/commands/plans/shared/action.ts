/**
 * The one-plan actions (archive, make primary, show or hide), run by the entity bulk engine as one-item plans
 * (commands/shared/one.ts runOneVerb): name the plan (id, unique prefix or exact name), say when it is already
 * so (nothing sent), refuse what its state does not allow, ask first when the action is destructive, send the
 * call, journal it (so `sitectl history` lists it) and print the plan as it is now.
 */
import type { Command } from 'commander';
import type { ApiClient } from '../../../api/client.js';
import type { Plan } from '../../../api/schemas/plan.js';
import { transitionAction } from '../../../bulk/actions.js';
import type { ChunkRunner } from '../../../bulk/execute.js';
import type { Context } from '../../../context.js';
import { addFormatFlags, type FormatFlags } from '../../../core/output.js';
import { oneLine } from '../../../core/text.js';
import { declareRule } from '../../shared/confirm.js';
import type { EntityView } from '../../shared/entity-view.js';
import { viewPort } from '../../shared/view-port.js';
import { PLAN_VIEW, planOf } from './view.js';

export interface PlanActionSpec<O> {
  verb: string;
  description: string;
  examples: string[];
  /** Extra arguments and flags. */
  declare?(cmd: Command): void;
  /** Options from the extra arguments. @throws UserError (exit 2) */
  options(args: string[], flags: Record<string, unknown>): O;
  /** What is true of the plan already (nothing to do), as words. */
  reached(plan: Plan, o: O): string | undefined;
  /** Why the plan cannot change, as words. */
  blocked?(plan: Plan, o: O): string | undefined;
  /** Whether the change cannot be taken back: it then asks first (commands/shared/confirm.ts), unless --yes. */
  destructive: boolean;
  /** The question a destructive action asks (default: `<verb> plan ID (name)?`). */
  confirm?(plan: Plan): string;
  /** The operation: sends one chunk of planned plan ids (bulk/actions.ts eachSender). */
  send(api: ApiClient, o: O): ChunkRunner['send'];
  /** The outcome (`archived`), said as `<done> plan ID (name)`. */
  done: string;
  /** The progress title (`Archiving`). */
  title: string;
}

/** Builds the verb. run() throws UserError (exit 2 bad input; exit 1 refused by the plan's state), DeclinedError. */
export function planAction<O>(spec: PlanActionSpec<O>) {
  const view = PLAN_VIEW as EntityView<unknown>;
  const run = async (given: string, args: string[], flags: FormatFlags & { yes?: boolean } & Record<string, unknown>, ctx: Context): Promise<void> => {
    const o = spec.options(args, flags);
    const { runOneVerb } = await import('../../shared/one.js');
    const label = (p: Plan) => `plan ${p.id} (${oneLine(p.name ?? '')})`;
    await runOneVerb(ctx, {
      view,
      title: spec.title,
      // Archived plans too: `archive` of an archived plan says so.
      build: (api) => ({
        port: viewPort(api, view, { archived: 'ARCHIVED_AND_ACTIVE' }),
        action: transitionAction<Plan>({
          name: spec.verb,
          done: spec.done,
          title: spec.title,
          reached: (p) => spec.reached(p, o) !== undefined,
          blocked: spec.blocked ? (p) => spec.blocked!(p, o) : undefined,
          send: spec.send(api, o),
          chunkSize: 1,
          args: { options: o as Record<string, unknown> },
        }),
      }),
      resolve: async (api) => (await planOf(ctx, api, given)).id,
      flags,
      command: `plans ${spec.verb}`,
      one: {
        given,
        rule: spec,
        question: (p: Plan) => spec.confirm?.(p) ?? `${spec.verb[0]!.toUpperCase()}${spec.verb.slice(1)} ${label(p)}?`,
        already: (p: Plan) => `${label(p)} is ${spec.reached(p, o)} already`,
        outcome: (p: Plan) => `${spec.done} ${label(p)}`,
      },
    });
  };
  return {
    run,
    register(parent: Command, ctx: Context) {
      const cmd = parent.command(spec.verb).description(spec.description).argument('<plan>', 'plan id, unique id prefix, or exact name');
      spec.declare?.(cmd);
      cmd.addHelpText('after', `\nExamples:\n${spec.examples.map((e) => `  ${e}`).join('\n')}`);
      declareRule(cmd, spec);
      addFormatFlags(cmd).action(async (plan: string, ...rest: unknown[]) => {
        const flags = rest[rest.length - 2] as FormatFlags & Record<string, unknown>;
        await run(plan, rest.slice(0, -2) as string[], flags, ctx);
      });
    },
  };
}
