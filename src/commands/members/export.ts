/**
 * `sitectl members export --ndjson|--csv [fields]|--json [fields] [--status S] [--search TEXT] [--filter JSON]
 * [--where f=v]...`: every matching member, FULL fieldset, streamed in constant memory (commands/shared/verbs.ts
 * exportVerb): the members query is paged 50 at a time (one page read ahead) and each member is written as soon
 * as its page arrives, so 100,000 members take about the memory of 10,000 (docs/members.md "The CLI's bulk runs";
 * bench/run.js measures it). CSV has the member flattened (shared/reads.ts EXPORT_COLUMNS). A summary goes to
 * stderr; stdout is data.
 */
import { exportVerb } from '../shared/verbs.js';
import { MEMBER_READS } from './shared/reads.js';

export const { register, run } = exportVerb(MEMBER_READS);
