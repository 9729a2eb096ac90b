/** `sitectl plans count`: how many plans match the list's flags (active ones unless --state says otherwise). */
import { countVerb } from '../shared/verbs.js';
import { PLAN_READS } from './shared/reads.js';

export const { register, run } = countVerb(PLAN_READS);
