/**
 * `staff connect` and `staff disconnect` as bulk-engine actions (docs/architecture.md "Bulk runs, the journal,
 * history and undo"): the CLI runs them as one-item plans, journaled; `sitectl undo` takes a connect back with a
 * disconnect. A disconnect cannot be undone: connecting again needs the user's e-mail, which the platform does
 * not give back.
 */
import type { ApiClient } from '../../../api/client.js';
import { staffMembersFamily } from '../../../api/staff-members.js';
import { type StaffMemberRecord } from '../../../api/schemas/staff.js';
import { eachSender, type EntityAction, transitionAction } from '../../../bulk/actions.js';
import type { JournalArgs } from '../../../bulk/journal.js';
import type { EntityPort } from '../../../bulk/port.js';
import type { EntityView } from '../../shared/entity-view.js';
import { viewPort } from '../../shared/view-port.js';
import { connectionOf, STAFF_VIEW } from './view.js';

const FIELDS = ['RESOURCE_DETAILS', 'ASSOCIATED_IDENTITY_STATUS'] as const;
const ops = staffMembersFamily.operations;

/** True when a staff member is connected to a site user. */
export function isConnected(s: StaffMemberRecord): boolean {
  return s.associatedWixIdentity?.connection?.status === 'CONNECTED';
}

/**
 * The port and action of `staff connect` (options `{email}`: the user's e-mail, default the staff member's own)
 * or `staff disconnect` over `args`. A connected staff member is refused by connect (disconnect it first); one
 * connected to no user is already as disconnect asks.
 */
export function staffRun(verb: 'connect' | 'disconnect', api: ApiClient, args: JournalArgs): { port: EntityPort; action: EntityAction } {
  const email = (args.options as { email?: string } | undefined)?.email;
  const action =
    verb === 'connect'
      ? transitionAction<StaffMemberRecord>({
          name: 'connect',
          done: 'connected',
          title: 'Connecting',
          reached: () => false,
          blocked: (s) => (isConnected(s) ? 'it is already connected to a user (disconnect it first)' : email === undefined && !s.email ? 'it has no e-mail of its own (pass --email)' : undefined),
          send: eachSender(api, ops.connectStaffMemberToUser, (item) => ({ staffMemberId: item.id, ...(email !== undefined ? { email } : {}), fields: [...FIELDS] })),
          chunkSize: 1,
          args,
          beforeImage: (s) => ({ user: connectionOf(s) }),
        })
      : transitionAction<StaffMemberRecord>({
          name: 'disconnect',
          done: 'disconnected',
          title: 'Disconnecting',
          reached: (s) => !s.associatedWixIdentity,
          send: eachSender(api, ops.disconnectStaffMemberFromUser, (item) => ({ staffMemberId: item.id, fields: [...FIELDS] })),
          chunkSize: 1,
          args,
          beforeImage: (s) => ({ user: connectionOf(s), wixUserId: s.associatedWixIdentity?.identificationData?.wixUserId }),
        });
  return { port: viewPort(api, STAFF_VIEW as EntityView<unknown>), action: action };
}
