/**
 * `sitectl attendance list [--filter JSON] [--where f=v]... [--sort f[:asc|desc]] [--limit N | --all]`: the
 * attendance query (docs/bookings.md "Attendance"), on a terminal with each booking's label.
 */
import { listVerb } from '../shared/verbs.js';
import { ATTENDANCE_READS } from './shared/reads.js';

export const { register, run } = listVerb({
  ...ATTENDANCE_READS,
  description: 'List attendance: who came to which booking, and how many',
  examples: ['sitectl attendance list', 'sitectl attendance list --where status=NOT_ATTENDED --json bookingId,numberOfAttendees', 'sitectl attendance list --sort statusUpdatedDate:desc --limit 20'],
});
