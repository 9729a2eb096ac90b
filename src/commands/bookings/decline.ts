/** `sitectl bookings decline`: one booking, or many through the entity bulk engine (see shared/transitions.ts). */
import { bookingTransition } from './shared/transitions.js';

export const { register, run } = bookingTransition('decline');
