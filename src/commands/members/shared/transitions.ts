/**
 * The member actions of the state table (docs/members.md "State table"; src/api/schemas/member.ts MEMBER_STATUS_TABLE,
 * docs/members.md) as shared transition verbs: approve (PENDING or BLOCKED), block (PENDING or APPROVED),
 * disconnect (any status but OFFLINE, for good), mute and unmute (any status but OFFLINE). One member (its
 * state read first; "already ..." changes nothing) or many through the entity bulk engine: approve and block
 * of one member as its own call (`POST /v1/members/{id}/approve|block`), of many as the platform's by-filter jobs
 * over the planned ids; the others one call per member.
 */
import type { KeyedVerb, TransitionSpec } from '../../shared/entity-view.js';
import { memberOps } from '../../../api/members.js';
import { MAX_MEMBERS_PAGE } from '../../../api/schemas/member.js';
import { eachSender, filterJobSender } from '../../../bulk/actions.js';
import { isSingle } from '../../../bulk/journal.js';
import { MEMBER_ACTIVITY_FROM, type Member } from '../../../api/schemas/member.js';
import { transitionVerb } from '../../shared/transition.js';
import { fetchMember } from './read.js';
import { MEMBER_VIEW, statusBlocked } from './view.js';

export type MemberVerb = 'approve' | 'block' | 'disconnect' | 'mute' | 'unmute';

const plural = (n: number) => `${n} member${n === 1 ? '' : 's'}`;
const activityBlocked = (m: Member, verb: string) =>
  (MEMBER_ACTIVITY_FROM as readonly string[]).includes(String(m.status)) ? undefined : `it is ${m.status} (${verb} takes ${MEMBER_ACTIVITY_FROM.join(', ')})`;

/** Members per by-filter job: one page of planned ids. */
const JOB_CHUNK = MAX_MEMBERS_PAGE;
/** Members per chunk of the per-member actions (the engine runs several chunks at once). */
const EACH_CHUNK = 10;

const SPECS: Record<MemberVerb, Omit<TransitionSpec<Member>, 'view' | 'fetch' | 'command'>> = {
  approve: {
    verb: 'approve',
    description: 'Approve a pending member or unblock a blocked one; many by filter as a previewed, journaled job',
    examples: [
      'sitectl members approve 3f2a',
      'sitectl members approve --where status=PENDING --dry-run',
      `sitectl members approve --filter '{"status":"PENDING","loginEmail":{"$endsWith":"@example.com"}}' --yes --json`,
    ],
    done: 'approved',
    title: 'Approving',
    destructive: false,
    reached: (m) => m.status === 'APPROVED',
    blocked: (m) => statusBlocked(m, 'approve'),
    // One member (the single form): its own call; many: the approve-by-filter job over each chunk's planned ids
    // (settled by reading them back).
    send: (api, _options, args) => (isSingle(args) ? eachSender(api, memberOps.approveMember, (item) => ({ id: item.id })) : filterJobSender(api, memberOps.bulkApproveMembers, (filter) => ({ filter }))),
    chunkSize: JOB_CHUNK,
    question: (n) => `Approve ${plural(n)}? They can log in afterwards.`,
  },
  block: {
    verb: 'block',
    description: 'Block a member (it can no longer log in); many by filter as a previewed, journaled job',
    examples: ['sitectl members block 3f2a --yes', `sitectl members block --filter '{"loginEmail":{"$endsWith":"@spam.example"}}' --yes`],
    done: 'blocked',
    title: 'Blocking',
    destructive: true,
    reached: (m) => m.status === 'BLOCKED',
    blocked: (m) => statusBlocked(m, 'block'),
    // One member (the single form): its own call; many: the block-by-filter job over each chunk's planned ids.
    send: (api, _options, args) => (isSingle(args) ? eachSender(api, memberOps.blockMember, (item) => ({ id: item.id })) : filterJobSender(api, memberOps.bulkBlockMembers, (filter) => ({ filter }))),
    chunkSize: JOB_CHUNK,
    question: (n) => `Block ${plural(n)}? They can no longer log in.`,
  },
  disconnect: {
    verb: 'disconnect',
    description: 'Disconnect a member for good (status OFFLINE: no login, gone from the community)',
    examples: ['sitectl members disconnect 3f2a --yes', 'sitectl members disconnect --where status=BLOCKED --dry-run'],
    done: 'disconnected',
    title: 'Disconnecting',
    destructive: true,
    reached: (m) => m.status === 'OFFLINE',
    blocked: (m) => statusBlocked(m, 'disconnect'),
    confirmOne: (m) => `Disconnect member ${m.loginEmail ?? m.id}? This cannot be undone.`,
    send: (api) => eachSender(api, memberOps.disconnectMember, (item) => ({ id: item.id })),
    chunkSize: EACH_CHUNK,
    question: (n) => `Disconnect ${plural(n)}? This cannot be undone.`,
  },
  mute: {
    verb: 'mute',
    description: 'Mute a member (no posts, likes or comments); many in a previewed, journaled run',
    examples: ['sitectl members mute 3f2a', 'sitectl members mute --ids 3f2a...,9c1b... --yes'],
    done: 'muted',
    title: 'Muting',
    // Not named when the rule was set (docs/architecture.md "The confirmation rule"): takes the rule of `approve` (unmute takes it back).
    destructive: false,
    reached: (m) => m.activityStatus === 'MUTED',
    blocked: (m) => activityBlocked(m, 'mute'),
    send: (api) => eachSender(api, memberOps.muteMember, (item) => ({ id: item.id })),
    chunkSize: EACH_CHUNK,
    question: (n) => `Mute ${plural(n)}?`,
  },
  unmute: {
    verb: 'unmute',
    description: 'Unmute a member (activity ACTIVE again); many in a previewed, journaled run',
    examples: ['sitectl members unmute 3f2a', 'sitectl members unmute --where activityStatus=MUTED --yes'],
    done: 'unmuted',
    title: 'Unmuting',
    // Not named when the rule was set (docs/architecture.md "The confirmation rule"): takes the rule of `approve`.
    destructive: false,
    reached: (m) => m.activityStatus === 'ACTIVE',
    blocked: (m) => activityBlocked(m, 'unmute'),
    send: (api) => eachSender(api, memberOps.unmuteMember, (item) => ({ id: item.id })),
    chunkSize: EACH_CHUNK,
    question: (n) => `Unmute ${plural(n)}?`,
  },
};

/** The shared transition verb of one member action. */
export function memberTransition(verb: MemberVerb) {
  return transitionVerb<Member>({
    ...SPECS[verb],
    view: MEMBER_VIEW,
    command: `members ${verb}`,
    revisioned: false,
    fetch: (api, id, signal) => fetchMember(api, id, signal),
  });
}

/** The single-key actions of members in the interactive browser and the dashboard (k9s-style letters). */
export function memberKeys(): KeyedVerb[] {
  return [
    { key: 'a', label: 'Approve', spec: memberTransition('approve').spec },
    { key: 'b', label: 'Block', spec: memberTransition('block').spec },
  ];
}
