/**
 * The value verb of a member (commands/shared/values.ts): `members slug`, a one-item plan journaled with the
 * former slug, so `sitectl undo` sets it back if the member is unchanged since.
 */
import * as z from 'zod/mini';
import { members } from '../../../api/members.js';
import type { Member } from '../../../api/schemas/member.js';
import type { ValueVerb } from '../../shared/values.js';
import { MEMBER_VIEW } from './view.js';

/** `members slug`: the member's profile slug. Undo: the former slug set back. */
export const MEMBER_SLUG_VERB: ValueVerb<Member & { id: string }, string> = {
  view: MEMBER_VIEW,
  name: 'slug',
  done: 'updated',
  title: 'Setting the slug',
  value: z.string(),
  holds: (m, slug) => m.profile?.slug === slug,
  inverse: (m) => m.profile?.slug ?? '',
  async send(api, m, slug, signal) {
    await members.updateMemberSlug(api, { id: m.id, slug }, { signal });
  },
};
