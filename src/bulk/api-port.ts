/**
 * {@link ServicesPort} over the typed client (`src/api/services.ts`): the real platform, or the emulator.
 */
import type { ApiClient } from '../api/client.js';
import { offsetPages } from '../api/paging.js';
import type { ServiceWire } from '../api/schemas/service.js';
import { bulkDeleteServices, bulkUpdateServices, cloneService, MAX_SERVICES_PAGE, queryServices } from '../api/services.js';
import { isRetryable } from './execute.js';
import type { ServicesPort } from './port.js';

/** Extra rounds for a read whose client-level retries all failed (a plan must not die on one bad page). */
const READ_ROUNDS = 4;

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}

/**
 * Runs a read again (after the client's own retries) while it fails with a retryable error: reads are safe
 * to repeat, and a 10,000-service plan makes 100 of them.
 */
async function readWithRetries<T>(read: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  for (let round = 1; ; round++) {
    try {
      return await read();
    } catch (err) {
      if (round >= READ_ROUNDS || !isRetryable(err) || signal?.aborted) throw err;
      await sleep(1000 * round, signal);
    }
  }
}

/**
 * Builds the port. Selection pages (offset paging, 100 per page, spec 000 §9) are sorted by id ASC so paging is
 * stable while the plan streams (the platform's default order, createdDate, has ties).
 */
export function servicesPort(api: ApiClient): ServicesPort {
  return {
    async *pages(filter, signal) {
      const pages = offsetPages(
        (paging) =>
          readWithRetries(async () => {
            const reply = await queryServices(api, { filter, sort: [{ fieldName: 'id', order: 'ASC' }], paging }, { signal });
            return { items: reply.services, pagingMetadata: reply.pagingMetadata };
          }, signal),
        { pageSize: MAX_SERVICES_PAGE },
      );
      for await (const page of pages) {
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
