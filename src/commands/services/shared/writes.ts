/**
 * The services family's entry of the writes table (commands/shared/writes.ts): created by `createService`,
 * patched by `bulkUpdateServices` (each at its planned revision, with its own mask), removed by
 * `bulkDeleteServices`, and re-created from a before-image without what the platform sets itself.
 */
import { MAX_BULK_SERVICES, serviceOps } from '../../../api/services.js';
import { createCall, type WriteSpec } from '../../shared/writes.js';
import { deleteServicesSender, patchServicesSender, recreateBody } from './bulk.js';
import { SERVICE_VIEW } from './view.js';

export const SERVICE_WRITES: WriteSpec = {
  view: SERVICE_VIEW as WriteSpec['view'],
  list: 'services list',
  patch: (api, changeOf) => patchServicesSender(api, changeOf),
  patchChunk: MAX_BULK_SERVICES,
  create: createCall(serviceOps.createService, (body) => ({ service: body }), (reply) => reply.service),
  remove: { send: deleteServicesSender, chunkSize: MAX_BULK_SERVICES },
  recreate: { body: recreateBody, note: 're-created services get new ids; bookings and other references to the deleted ids are not restored' },
};
