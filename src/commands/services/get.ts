/** `sitectl services get ID`: one service (docs/wire.md §14 "GET /v2/services/{serviceId}"). */
import { services } from '../../api/services.js';
import { getVerb } from '../shared/verbs.js';
import { SERVICE_VIEW } from './shared/view.js';

export const { register, run } = getVerb({
  view: SERVICE_VIEW,
  description: 'Show one service',
  fetch: async (api, id, signal) => (await services.getService(api, { serviceId: id }, { signal })).service,
});
