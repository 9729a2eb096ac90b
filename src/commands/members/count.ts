/** `sitectl members count`: how many members match the list's flags (the query's exact total; shared/reads.ts). */
import { countVerb } from '../shared/verbs.js';
import { MEMBER_READS } from './shared/reads.js';

export const { register, run } = countVerb(MEMBER_READS);
