/** `sitectl services count [--filter JSON] [--where f=v]...` (docs/wire.md §14 "POST /v2/services/count"). */
import { countVerb } from '../shared/verbs.js';
import { SERVICE_READS } from './shared/reads.js';

export const { register, run } = countVerb(SERVICE_READS);
