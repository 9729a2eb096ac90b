/**
 * The plans family's entry of the writes table (commands/shared/writes.ts). Plans carry no revision: "changed
 * since" is told by the `updatedDate` every write stamps. An update sends the changed fields without a field mask,
 * as the official client does, unless it clears one (an undo putting back a field that was absent): then the mask
 * names the fields and the cleared ones are left out. A plan cannot be deleted on the platform: the closest way to
 * take a create back is to archive it (it can no longer be bought). Plans are never re-created (archive is not a
 * delete, and is not undone).
 */
import { planOps } from '../../../api/plans.js';
import { fieldMask } from '../../../api/query.js';
import { eachSender } from '../../../bulk/actions.js';
import type { EntityView } from '../../shared/entity-view.js';
import { viewPort } from '../../shared/view-port.js';
import { createCall, patchSender, updatedDateVersion, type WriteSpec } from '../../shared/writes.js';
import { PLAN_VIEW } from './view.js';

const view = PLAN_VIEW as EntityView<unknown>;

export const PLAN_WRITES: WriteSpec = {
  view,
  list: 'plans list',
  // Archived plans too: one archived since a change was changed since.
  port: (api) => viewPort(api, view, { archived: 'ARCHIVED_AND_ACTIVE' }),
  version: updatedDateVersion,
  patch: (api, changeOf, seen) =>
    patchSender(
      api,
      planOps.updatePlan,
      (body) => {
        const cleared = Object.keys(body).filter((k) => body[k] === null);
        if (cleared.length === 0) return { plan: body };
        const sent = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null));
        return { plan: sent, fieldMask: fieldMask(Object.keys(body).filter((k) => k !== 'id')) };
      },
      (reply) => reply.plan as { id: string },
      { changeOf, version: updatedDateVersion, seen },
    ),
  create: createCall(planOps.createPlan, (body) => ({ plan: body }), (reply) => reply.plan as { id: string }),
  remove: { send: (api) => eachSender(api, planOps.archivePlan, (item) => ({ id: item.id })), chunkSize: 1, done: 'archived' },
};
