/**
 * One example request per operation of every family table, for the contract test. An example may create what
 * it needs first (a fresh service to delete or clone), so every route of a mutating operation is tried on an
 * entity of its own. An operation without an example fails the contract test: adding an operation means adding
 * its example here.
 */
import { ApiClient } from '../../../src/api/client.js';
import { services } from '../../../src/api/services.js';
import type { TestEmulator } from '../../helpers/index.js';

/** What examples can draw on: a client of the test emulator and ids of its demo data. */
export interface Fixtures {
  api: ApiClient;
  emu: TestEmulator;
  /** A service created for this call alone. */
  freshService(): Promise<{ id: string; revision: string }>;
}

type Example = (fx: Fixtures) => Promise<Record<string, unknown>>;

let n = 0;
const unique = () => `${Date.now().toString(36)}-${(n++).toString(36)}`;

export const EXAMPLES: Record<string, Record<string, Example>> = {
  services: {
    createService: async () => ({ service: { name: `Contract ${unique()}`, type: 'APPOINTMENT' } }),
    bulkCreateServices: async () => ({ services: [{ name: `Bulk ${unique()}`, type: 'CLASS', defaultCapacity: 4 }], returnEntity: true }),
    getService: async (fx) => ({ serviceId: (await fx.freshService()).id }),
    updateService: async (fx) => {
      const s = await fx.freshService();
      return { service: { id: s.id, revision: s.revision, description: 'contract' }, mask: 'description' };
    },
    bulkUpdateServices: async (fx) => {
      const s = await fx.freshService();
      return { services: [{ service: { id: s.id, revision: s.revision, hidden: true }, mask: 'hidden' }], returnEntity: true };
    },
    bulkUpdateServicesByFilter: async (fx) => ({ filter: { id: (await fx.freshService()).id }, service: { tagLine: 'by filter' }, mask: 'tagLine' }),
    deleteService: async (fx) => ({ serviceId: (await fx.freshService()).id }),
    bulkDeleteServices: async (fx) => ({ ids: [(await fx.freshService()).id] }),
    bulkDeleteServicesByFilter: async (fx) => ({ filter: { id: (await fx.freshService()).id } }),
    queryServices: async () => ({ query: { filter: { type: 'CLASS' }, sort: [{ fieldName: 'name', order: 'ASC' }], paging: { limit: 3 } } }),
    searchServices: async () => ({ search: { cursorPaging: { limit: 3 }, aggregations: [{ name: 'byType', type: 'VALUE', fieldPath: 'type' }] } }),
    queryPolicies: async () => ({ query: { cursorPaging: { limit: 2 } } }),
    queryBookingForms: async () => ({ query: {} }),
    countServices: async () => ({ filter: { hidden: false } }),
    queryLocations: async () => ({ filter: {} }),
    queryCategories: async () => ({ filter: {} }),
    setServiceLocations: async (fx) => ({ serviceId: (await fx.freshService()).id, locations: [{ type: 'CUSTOMER' }] }),
    enablePricingPlansForService: async (fx) => ({ serviceId: (await fx.freshService()).id, pricingPlanIds: ['plan-a'] }),
    disablePricingPlansForService: async (fx) => {
      const s = await fx.freshService();
      await services.enablePricingPlansForService(fx.api, { serviceId: s.id, pricingPlanIds: ['plan-a'] });
      return { serviceId: s.id, pricingPlanIds: ['plan-a'] };
    },
    setCustomSlug: async (fx) => ({ serviceId: (await fx.freshService()).id, slug: `custom-${unique()}` }),
    validateSlug: async () => ({ slug: `free-${unique()}` }),
    cloneService: async (fx) => ({ sourceServiceId: (await fx.freshService()).id }),
  },
};

/** The fixtures over a running test emulator. */
export function fixtures(emu: TestEmulator): Fixtures {
  const api = new ApiClient({ baseUrl: emu.url, credentials: { kind: 'apiKey', apiKey: emu.apiKey, siteId: emu.siteId } });
  return {
    api,
    emu,
    async freshService() {
      const { service } = await services.createService(api, { service: { name: `Fixture ${unique()}`, type: 'APPOINTMENT' } });
      return { id: service.id, revision: service.revision ?? '1' };
    },
  };
}
