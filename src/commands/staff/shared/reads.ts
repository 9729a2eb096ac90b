/**
 * What the staff read verbs (`list`, `count`, `export`) select (commands/shared/verbs.ts ReadSpec): any
 * `--filter`/`--where`. The staff query is cursor-paged without a total and has no count call: `count` reads
 * every page and counts the staff members.
 */
import type { ReadSpec } from '../../shared/verbs.js';
import type { StaffMemberRecord } from '../../../api/schemas/staff.js';
import { STAFF_VIEW } from './view.js';

export const STAFF_READS: ReadSpec<StaffMemberRecord> = { view: STAFF_VIEW };
