/** `sitectl orders postpone`: one order, or many through the entity bulk engine (see shared/transitions.ts). */
import { orderTransition } from './shared/transitions.js';

export const { register, run } = orderTransition('postpone');
