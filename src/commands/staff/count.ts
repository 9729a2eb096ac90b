/** `sitectl staff count`: how many staff members match a filter (every page read and counted; shared/reads.ts). */
import { countVerb } from '../shared/verbs.js';
import { STAFF_READS } from './shared/reads.js';

export const { register, run } = countVerb(STAFF_READS);
