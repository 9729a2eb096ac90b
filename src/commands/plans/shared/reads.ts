/**
 * What the plans read verbs (`list`, `count`, `export`, and `stats`) select (commands/shared/verbs.ts ReadSpec):
 * the state (`--state active|archived|all`, default active) and visibility (`--visibility public|hidden|all`,
 * default all) of listPlans; `--filter`/`--where` select by id. The platform counts plans only all together
 * (getPlanStats): `count` takes listPlans' exact `pagingMetadata.total` (an offset list).
 */
import type { Plan } from '../../../api/schemas/plan.js';
import { choiceOf } from '../../shared/choices.js';
import type { ReadSpec } from '../../shared/verbs.js';
import { PLAN_VIEW } from './view.js';

const STATES: Record<string, string> = { active: 'ACTIVE', archived: 'ARCHIVED', all: 'ARCHIVED_AND_ACTIVE' };
const VISIBILITY: Record<string, string> = { public: 'PUBLIC', hidden: 'HIDDEN', all: 'PUBLIC_AND_HIDDEN' };

/** The listPlans parameter of a flag's word. @throws UserError (exit 2) for another word */
function choice(table: Record<string, string>, given: string | undefined, flag: string, dflt: string): string {
  return table[choiceOf(given ?? dflt, Object.keys(table), flag, { fold: (v) => v.trim().toLowerCase() })]!;
}

export const PLAN_READS: ReadSpec<Plan> = {
  view: PLAN_VIEW,
  flags(cmd) {
    cmd.option('--state <state>', 'active, archived or all (default active)').option('--visibility <v>', 'public, hidden or all (default all)');
  },
  extra: (opts) => ({
    params: { archived: choice(STATES, opts.state as string | undefined, '--state', 'active'), public: choice(VISIBILITY, opts.visibility as string | undefined, '--visibility', 'all') },
  }),
};
