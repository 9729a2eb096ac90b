/** `sitectl bookings get ID`: one booking with every extra (allowed actions, attendance, policy, fees). */
import { getVerb } from '../shared/verbs.js';
import { fetchBooking } from './shared/read.js';
import { BOOKING_VIEW } from './shared/view.js';

export const { register, run } = getVerb({
  view: BOOKING_VIEW,
  description: 'Show one booking with what may still be done with it',
  fetch: (api, id, signal) => fetchBooking(api, id, signal),
});
