/**
 * The calls the bulk engine makes, as one small interface (the engine's only view of the platform). The real
 * implementation is {@link servicesPort} over `src/api/services.ts`; keeping the engine behind this seam means
 * its logic (plan, recognition of an earlier attempt, journal) does not depend on HTTP details.
 */
import type { Service } from '../api/schemas/service.js';
import type { Filter } from '../api/schemas/common.js';

/** Per-item outcome of a bulk call (wire §7 `itemMetadata`). */
export interface BulkItemOutcome {
  id?: string | null;
  originalIndex: number;
  success: boolean;
  error?: { code: string; description?: string; data?: unknown } | null;
}

export interface ServicesPort {
  /** Services matching `filter`, sorted by id so offset pages are stable, in pages of at most 100. */
  pages(filter: Filter, signal?: AbortSignal): AsyncIterable<Service[]>;
  /** One bulk update request (<= 100 items); each item carries the revision it was planned against. */
  bulkUpdate(items: { service: Record<string, unknown>; mask: string }[]): Promise<BulkItemOutcome[]>;
  /** One bulk delete request (<= 100 ids). */
  bulkDelete(ids: string[]): Promise<BulkItemOutcome[]>;
  /** Clones a service; resolves with the new service. */
  clone(sourceId: string): Promise<Service>;
}
