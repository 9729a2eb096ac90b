/** The members family as the emulator serves it (family.ts): site members (a visitor or member calls some: members/handlers.ts). */
import type { EmulatedFamily } from '../family.js';
import { membersServed } from './handlers.js';
import { MEMBER_COLLECTIONS } from './model.js';
import { seedMembersStep } from '../seed/members.js';

export const MEMBERS_FAMILY: EmulatedFamily = {
  name: 'members',
  served: membersServed,
  collections: MEMBER_COLLECTIONS,
  seed: seedMembersStep,
};
