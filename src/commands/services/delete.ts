/**
 * `sitectl services delete`: one service (`delete ID`, confirmed) or many (`--filter | --where | --ids |
 * --ids-file`, or `--resume JOURNAL`) through the entity bulk engine, in chunks of 100 through
 * `bulkDeleteServices` (docs/wire.md §14; the shared delete verb of docs/architecture.md "Layout and dependency direction").
 */
import { services } from '../../api/services.js';
import { deleteVerb } from '../shared/delete.js';
import { SERVICE_VIEW } from './shared/view.js';

export type { DeleteOptions } from '../shared/delete.js';

export const { register, run } = deleteVerb({
  view: SERVICE_VIEW,
  command: 'services delete',
  examples: ['sitectl services delete 4f1c --yes', 'sitectl services delete --where hidden=true --dry-run', 'sitectl services delete --ids-file old-ids.txt --yes --json'],
  fetch: async (api, id, signal) => (await services.getService(api, { serviceId: id }, { signal })).service,
  remove: async (api, id, signal) => {
    await services.deleteService(api, { serviceId: id }, { signal });
  },
  bulk: async () => {
    const { deleteServices, servicesPort } = await import('./shared/bulk.js');
    return { port: servicesPort, action: deleteServices };
  },
});
