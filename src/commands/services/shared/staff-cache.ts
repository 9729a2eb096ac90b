/**
 * Staff names read this session (services/shared/staff.ts reads them): staff member id -> name. The services
 * view's rows read it; kept apart from both so that neither imports the other.
 */
import type { Service } from '../../../api/schemas/service.js';

const staffNames = new Map<string, string>();

/** Keeps a staff member's name for the rest of the session. */
export function rememberStaff(id: string, name: string): void {
  staffNames.set(id, name);
}

/** A staff member's name once read. */
export function knownStaff(id: string): string | undefined {
  return staffNames.get(id);
}

/** The ids of a service's staff whose names the service does not carry. */
export function staffIdsOf(s: Service): string[] {
  return s.staffMembers ? s.staffMembers.filter((m) => !m.name && m.staffMemberId).map((m) => m.staffMemberId!) : (s.staffMemberIds ?? []);
}
