/** `sitectl plans export --ndjson|--csv [fields]|--json [fields]`: every plan matching the list's flags, streamed. */
import { exportVerb } from '../shared/verbs.js';
import { PLAN_READS } from './shared/reads.js';

export const { register, run } = exportVerb(PLAN_READS);
