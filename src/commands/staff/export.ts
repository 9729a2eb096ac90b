/** `sitectl staff export --ndjson|--csv [fields]|--json [fields]`: every staff member matching a filter, streamed. */
import { exportVerb } from '../shared/verbs.js';
import { STAFF_READS } from './shared/reads.js';

export const { register, run } = exportVerb(STAFF_READS);
