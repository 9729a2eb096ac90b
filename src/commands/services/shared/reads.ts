/**
 * What the services read verbs (`list`, `count`) select (commands/shared/verbs.ts ReadSpec): any
 * `--filter`/`--where`; counted by the platform's count call (docs/wire.md §14 "POST /v2/services/count").
 * `services export` writes the portable catalogue instead (export.ts); `list --all --ndjson` gives the rows.
 */
import { serviceOps } from '../../../api/services.js';
import type { Service } from '../../../api/schemas/service.js';
import { countCall, type ReadSpec } from '../../shared/verbs.js';
import { SERVICE_VIEW } from './view.js';

export const SERVICE_READS: ReadSpec<Service> = {
  view: SERVICE_VIEW,
  count: countCall(serviceOps.countServices, (filter) => ({ filter: filter ?? {} }), (reply) => reply.count),
};
