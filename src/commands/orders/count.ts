/** `sitectl orders count`: how many orders match the list's flags (the list's exact total; shared/reads.ts). */
import { countVerb } from '../shared/verbs.js';
import { ORDER_READS } from './shared/reads.js';

export const { register, run } = countVerb(ORDER_READS);
