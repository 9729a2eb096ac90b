/**
 * The members family's entry of the writes table (commands/shared/writes.ts). Members carry no revision: "changed
 * since" is told by the `updatedDate` every write stamps. An update sends the fields given without a field mask
 * (the platform merges `contact` and `profile` field by field, so their fields are the change's paths); a create
 * is taken back as `members delete` takes one member (the delete-by-filter job over its id). A deleted member is
 * not re-created: its content and identity are not given back by the platform.
 */
import { memberOps } from '../../../api/members.js';
import { MAX_BULK_DELETE_MEMBERS } from '../../../api/schemas/member.js';
import { filterJobSender } from '../../../bulk/actions.js';
import { createCall, patchSender, updatedDateVersion, type WriteSpec } from '../../shared/writes.js';
import { MEMBER_VIEW } from './view.js';

export const MEMBER_WRITES: WriteSpec = {
  view: MEMBER_VIEW as WriteSpec['view'],
  list: 'members list',
  version: updatedDateVersion,
  patch: (api, changeOf, seen) => patchSender(api, memberOps.updateMember, (body) => ({ member: body }), (reply) => reply.member as { id: string }, { changeOf, version: updatedDateVersion, seen }),
  create: createCall(memberOps.createMember, (body) => ({ member: body }), (reply) => reply.member as { id: string }),
  remove: { send: (api) => filterJobSender(api, memberOps.bulkDeleteMembersByFilter, (filter) => ({ filter })), chunkSize: MAX_BULK_DELETE_MEMBERS },
};
