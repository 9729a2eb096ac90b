/**
 * `sitectl plans list`: the site's plans through listPlans (offset pages of up to 100), by state (`--state
 * active|archived|all`, default active) and visibility (`--visibility public|hidden|all`, default all);
 * `--filter`/`--where` select by id.
 */
import { choiceOf } from '../shared/choices.js';
import { listVerb } from '../shared/verbs.js';
import { PLAN_VIEW } from './shared/view.js';

const STATES: Record<string, string> = { active: 'ACTIVE', archived: 'ARCHIVED', all: 'ARCHIVED_AND_ACTIVE' };
const VISIBILITY: Record<string, string> = { public: 'PUBLIC', hidden: 'HIDDEN', all: 'PUBLIC_AND_HIDDEN' };

/** The listPlans parameter of a flag's word. @throws UserError (exit 2) for another word */
function choice(table: Record<string, string>, given: string | undefined, flag: string, dflt: string): string {
  return table[choiceOf(given ?? dflt, Object.keys(table), flag, { fold: (v) => v.trim().toLowerCase() })]!;
}

export const { register, run } = listVerb({
  view: PLAN_VIEW,
  description: 'List pricing plans (active ones unless --state says otherwise)',
  examples: ['sitectl plans list', 'sitectl plans list --state all --visibility hidden', 'sitectl plans list --state archived --json id,name,pricing'],
  flags(cmd) {
    cmd.option('--state <state>', 'active, archived or all (default active)').option('--visibility <v>', 'public, hidden or all (default all)');
  },
  extra: (opts) => ({
    params: { archived: choice(STATES, opts.state as string | undefined, '--state', 'active'), public: choice(VISIBILITY, opts.visibility as string | undefined, '--visibility', 'all') },
  }),
});
