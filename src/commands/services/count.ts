/** `sitectl services count [--filter JSON] [--where f=v]...` (docs/wire.md §14 "POST /v2/services/count"). */
import { serviceOps } from '../../api/services.js';
import { countVerb } from '../shared/verbs.js';
import { SERVICE_VIEW } from './shared/view.js';

export const { register, run } = countVerb({
  view: SERVICE_VIEW,
  op: serviceOps.countServices,
  request: (filter) => ({ filter: filter ?? {} }),
  read: (reply) => reply.count,
});
