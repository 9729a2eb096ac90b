/** `sitectl orders export --ndjson|--csv [fields]|--json [fields]`: every order matching the list's flags, streamed. */
import { exportVerb } from '../shared/verbs.js';
import { ORDER_READS } from './shared/reads.js';

export const { register, run } = exportVerb(ORDER_READS);
