/** Reading members for the verbs: always the FULL fieldset (status, contact and dates included). */
import type { ApiClient } from '../../../api/client.js';
import { members } from '../../../api/members.js';
import type { Member } from '../../../api/schemas/member.js';

/**
 * One member in the FULL fieldset (`GET /v1/members/{id}?id=...&fieldsets=FULL`, docs/wire.md §11).
 * @throws ApiError 404 MEMBER_NOT_FOUND for an unknown id
 */
export async function fetchMember(api: ApiClient, id: string, signal?: AbortSignal): Promise<Member> {
  return (await members.getMember(api, { id, fieldsets: ['FULL'] }, { signal })).member;
}
