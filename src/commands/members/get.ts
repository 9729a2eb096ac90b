/** `sitectl members get ID`: one member in the FULL fieldset (docs/wire.md §18 "GET /v1/members/{id}"). */
import { getVerb } from '../shared/verbs.js';
import { fetchMember } from './shared/read.js';
import { MEMBER_VIEW } from './shared/view.js';

export const { register, run } = getVerb({
  view: MEMBER_VIEW,
  description: 'Show one member (status, contact, profile, dates)',
  fetch: (api, id, signal) => fetchMember(api, id, signal),
});
