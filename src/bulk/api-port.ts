/**
 * {@link ServicesPort} over the typed client (`src/api/services.ts`): the real platform, or the emulator.
 */
import type { ApiClient } from '../api/client.js';
import type { ServiceWire } from '../api/schemas/service.js';
import { bulkDeleteServices, bulkUpdateServices, cloneService, servicePages } from '../api/services.js';
import type { ServicesPort } from './port.js';

/**
 * Builds the port. Selection pages are sorted by id ASC so offset paging is stable while the plan streams
 * (the platform's default order, createdDate, has ties).
 */
export function servicesPort(api: ApiClient): ServicesPort {
  return {
    async *pages(filter, signal) {
      for await (const page of servicePages(api, { filter, sort: [{ fieldName: 'id', order: 'ASC' }], pageSize: 100, signal })) {
        if (page.items.length > 0) yield page.items;
      }
    },
    async bulkUpdate(items) {
      const reply = await bulkUpdateServices(
        api,
        items.map((i) => ({
          service: i.service as ServiceWire & { id: string; revision: string },
          mask: i.mask.split(','),
        })),
        { returnEntity: false, idempotent: true },
      );
      return reply.results.map((r) => r.itemMetadata);
    },
    async bulkDelete(ids) {
      const reply = await bulkDeleteServices(api, ids);
      return reply.results.map((r) => r.itemMetadata);
    },
    async clone(sourceId) {
      const reply = await cloneService(api, sourceId);
      return reply.service;
    },
  };
}
