/**
 * The staff names read this session, for a service's readable view: a service names its staff by id, so
 * services/shared/staff.ts reads the names behind a page of services and keeps them here, and the view's rows
 * (services/shared/view.ts) read them. A leaf that both import, so the view loads the staff reader only by a
 * dynamic import when it prepares a page and neither imports the other (docs/architecture.md "Layout and
 * dependency direction").
 */
import type { Service } from '../../../api/schemas/service.js';

/** Staff member id -> name. */
const staffNames = new Map<string, string>();

/** Keeps a staff member's name for the rest of the session. */
export function rememberStaff(id: string, name: string): void {
  staffNames.set(id, name);
}

/** A staff member's name once read; undefined before. */
export function knownStaff(id: string): string | undefined {
  return staffNames.get(id);
}

/** The ids of a service's staff whose names the service does not carry. */
export function staffIdsOf(s: Service): string[] {
  return s.staffMembers ? s.staffMembers.filter((m) => !m.name && m.staffMemberId).map((m) => m.staffMemberId!) : (s.staffMemberIds ?? []);
}
