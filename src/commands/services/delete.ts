/**
 * `sitectl services delete`: one service (`delete ID`, confirmed) or many (`--filter | --where | --ids |
 * --ids-file`, or `--resume JOURNAL`) through the entity bulk engine, in chunks of 100 through
 * `bulkDeleteServices` (docs/wire.md §14; the shared delete verb of docs/architecture.md "Layout and dependency direction").
 */
import { MAX_BULK_SERVICES } from '../../api/services.js';
import { deleteVerb } from '../shared/delete.js';
import { deleteServicesSender } from './shared/bulk.js';
import { SERVICE_VIEW } from './shared/view.js';

export type { DeleteOptions } from '../shared/delete.js';

export const { register, run } = deleteVerb({
  view: SERVICE_VIEW,
  command: 'services delete',
  examples: ['sitectl services delete 4f1c --yes', 'sitectl services delete --where hidden=true --dry-run', 'sitectl services delete --ids-file old-ids.txt --yes --json'],
  send: (api) => deleteServicesSender(api),
  chunkSize: MAX_BULK_SERVICES,
});
